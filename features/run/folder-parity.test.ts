/**
 * The whole folder's answer on the page (runFolder, ./run-view.ts wholeFolderView) against `cli triage DIR`
 * on the same folder of Gym's runs, in each reward: the headline, what was not verified, every cause's count,
 * what each verifier wrote on its zeros, which policy reproduces the recorded reward, the means and pass@k.
 */
import { cpSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "@/cli/commands/triage";
import { memoryIo } from "@/cli/io";
import { meanRewardsText, passAtKText } from "@/lib/metrics";
import { unverifiedText, zeroShareText } from "@/lib/run";
import { causeCount, recordedFieldsLines, reproducedText, ZERO_CAUSES } from "@/lib/triage";
import { inProcessPool } from "@/worker/pool";
import { DataService } from "@/worker/service";
import { folderEntriesFromDisk } from "@/worker/test-helpers";
import { runHandlers } from "./handlers";

const EXAMPLES = path.resolve(__dirname, "../../fixtures/gym-examples/resources_servers");
// Ported and unported servers, negative rewards, a run whose rows pair with nothing, one with no config.
const SERVERS = [
  "image_tools",
  "openair_congestion",
  "blackjack",
  "swebench",
  "example_multi_step",
  "terminus_judge",
];
const never = new AbortController().signal;
const context = { signal: never, progress: () => {}, transfer: () => {} };

let base: string;
let dir: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "folder-parity-"));
  dir = path.join(base, "runs");
  for (const server of SERVERS)
    cpSync(path.join(EXAMPLES, server), path.join(dir, server), { recursive: true });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("the whole folder's answer", () => {
  it("says what `cli triage DIR` says, in each reward", async () => {
    const service = new DataService(inProcessPool());
    const summary = await service.loadFolder("runs", folderEntriesFromDisk(dir), never, () => {});
    await service.settled();
    const first = summary.folder?.runs.find((r) => r.dataset !== null)?.dataset ?? "";
    const view = await runHandlers(service).runFolder({ dataset: first }, context);
    expect(view).not.toBeNull();
    if (view === null) return;
    expect(view.files.map((f) => f.file)).toEqual(
      SERVERS.map((s) => `${s}/data/example_rollouts.jsonl`).sort(),
    );
    for (const reward of ["recorded", "contract", "legacy"] as const) {
      const io = memoryIo();
      expect(await run([dir, "--reward", reward], io)).toBe(0);
      const said = io.out().split("\n");
      const triage = view.triage[reward];
      expect(said[0]).toBe(
        zeroShareText(triage.zero, view.counts, reward, triage.negative, triage.total - triage.scored),
      );
      const notVerified = unverifiedText(view.unverified, triage.total, reward);
      if (notVerified !== null) expect(said).toContain(notVerified);
      for (const cause of ZERO_CAUSES)
        expect(said.some((line) => new RegExp(`^  ${cause} +${causeCount(triage, cause)} `).test(line))).toBe(
          true,
        );
      const recorded = reward === "recorded" ? recordedFieldsLines(view.recorded_fields) : [];
      const at = said.findIndex((line) => line.includes("What Gym's verifier wrote"));
      expect(
        said.slice(at === -1 ? said.length : at, (at === -1 ? said.length : at) + recorded.length),
      ).toEqual(recorded);
      expect(said).toContain(reproducedText(triage));
      expect(said).toContain(meanRewardsText(view.metrics[reward]));
      expect(said).toContain(passAtKText(view.metrics[reward]));
    }
    // Several servers' fields, each named: not one list of them all.
    expect(view.recorded_fields.length).toBeGreaterThan(2);
  });

  it("exports the folder's rows as `cli triage DIR --format F --filter EXPR` writes them, from any of its files", async () => {
    const service = new DataService(inProcessPool());
    const summary = await service.loadFolder("runs", folderEntriesFromDisk(dir), never, () => {});
    await service.settled();
    const datasets = (summary.folder?.runs ?? []).flatMap((r) => (r.dataset === null ? [] : [r.dataset]));
    expect(datasets.length).toBe(SERVERS.length);
    for (const filter of ["", "recorded:..0", "cause:no_verifier_port"])
      for (const format of ["csv", "jsonl"] as const) {
        const io = memoryIo();
        expect(await run([dir, "--format", format, ...(filter === "" ? [] : ["--filter", filter])], io)).toBe(
          0,
        );
        // The same rows; the paths in next steps (ng_run's configs, cli live's --rollouts) are the folder's on
        // the page, the command line's in the CLI (here the folder's absolute path before them).
        const cli = io.out().replaceAll(`${dir}/`, "");
        expect(cli).not.toBe("");
        // Any file of the folder exports the folder's rows: the last one as the first.
        for (const dataset of [datasets[0], datasets.at(-1)]) {
          const page = await runHandlers(service).runExport(
            { dataset: dataset ?? "", filter, format },
            context,
          );
          expect("text" in page ? page.text : page.error, `${format} ${filter}`).toBe(cli);
        }
      }
  });
});
