/**
 * `cli triage` and the page agree row for row: the browser's run export (the rows its breakdown, list and
 * detail read, computed by the data worker's rewards pass) equals the CLI's JSONL, cause, drift and
 * decisive calls included, on the generated triage run, every bundled rollouts sample (with its declared
 * server, as the page opens it), Gym's example rollouts of servers without a verifier port here (code_gen;
 * blackjack, whose losses record -1) and a generated big run with truncated responses.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "@/cli/commands/triage";
import { memoryIo } from "@/cli/io";
import { makeRolloutsBytes } from "@/scripts/gen-big-rollouts";
import { TRIAGE_RUN_PATH } from "@/scripts/gen-triage-run";
import { inProcessPool } from "@/worker/pool";
import type { LoadProgress } from "@/worker/protocol";
import { DataService } from "@/worker/service";
import { runHandlers } from "./handlers";

const ROOT = path.resolve(__dirname, "../..");
const never = new AbortController().signal;
const ignore = (_: LoadProgress) => {};
const context = { signal: never, progress: () => {}, transfer: () => {} };

interface Sample {
  file: string;
  server?: string;
  kind: string;
}
const samples = (
  JSON.parse(readFileSync(path.join(ROOT, "public/samples/index.json"), "utf8")) as Sample[]
).filter((s) => s.kind === "rollouts");

const cases: { name: string; bytes: Uint8Array<ArrayBuffer>; server: string | null }[] = [
  { name: "triage-run", bytes: new Uint8Array(readFileSync(path.join(ROOT, TRIAGE_RUN_PATH))), server: null },
  ...samples.map((s) => ({
    name: s.file,
    bytes: new Uint8Array(readFileSync(path.join(ROOT, "public/samples", s.file))),
    server: s.server ?? null,
  })),
  // Gym's own example rollouts of servers this project has no verifier port for, as their configs route them.
  ...["code_gen", "blackjack"].map((server) => ({
    name: `gym-${server}`,
    bytes: new Uint8Array(
      readFileSync(
        path.join(ROOT, `fixtures/gym-examples/resources_servers/${server}/data/example_rollouts.jsonl`),
      ),
    ),
    server,
  })),
  // About 60 rollouts of the big-file generator: truncated responses at lines 53 (and 106 when present).
  { name: "generated", bytes: makeRolloutsBytes(7, 3_000_000), server: null },
];

describe("cli triage and the browser's rows agree row for row", () => {
  it.each(cases)("$name", async ({ name, bytes, server }) => {
    const dir = await mkdtemp(path.join(tmpdir(), "triage-parity-"));
    const file = path.join(dir, `${name}.jsonl`);
    await writeFile(file, bytes);
    const io = memoryIo();
    expect(await run([file, "--format", "jsonl", ...(server === null ? [] : ["--server", server])], io)).toBe(
      0,
    );
    await rm(dir, { recursive: true });

    const service = new DataService(inProcessPool());
    const summary = await service.load(
      [{ kind: "file", file: new File([bytes], `${name}.jsonl`) }],
      server,
      never,
      ignore,
    );
    await service.settled();
    const id = summary.datasets.find((d) => d.kind === "rollouts")?.id;
    if (id === undefined) throw new Error("nothing loaded");
    const browser = await runHandlers(service).runExport(
      { dataset: id, filter: "", format: "jsonl" },
      context,
    );
    if ("error" in browser) throw new Error(browser.error);
    expect(io.out().length).toBeGreaterThan(0);
    expect(browser.text).toBe(io.out());
    // A server without a port here is said to be one, never "no task data" (open the inputs).
    if (name === "gym-code_gen") expect(io.out()).toContain('"cause":"no_verifier_port"');
  });
});
