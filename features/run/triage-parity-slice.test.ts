/**
 * The issue's 908-rollout run (issue 18): `npx tsx scripts/gen-big-rollouts.ts FILE --bytes 5e7 --seed 1`,
 * 909 rollouts in 50 MB. The page's rows (the data worker's rewards pass, exported as the page exports them)
 * equal `cli triage --format jsonl` byte for byte (cause, drift, reproduced_by, decisive calls), and the
 * page's breakdown (the run view the worker answers) says what `cli triage`'s summary says: the headline
 * ("464 of 909 rollouts recorded 0"), the count of every cause, drift counted apart, who reproduces the
 * recorded reward. The CLI runs on one thread here, so the comparison does not depend on the machine.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "@/cli/commands/triage";
import { memoryIo } from "@/cli/io";
import { zeroShareText } from "@/lib/run";
import { causeCount, reproducedText, ZERO_CAUSES } from "@/lib/triage";
import { generate } from "@/scripts/gen-big-rollouts";
import { inProcessPool } from "@/worker/pool";
import type { LoadProgress } from "@/worker/protocol";
import { DataService } from "@/worker/service";
import { runHandlers } from "./handlers";
import type { RunView } from "./run-view";

const never = new AbortController().signal;
const context = { signal: never, progress: () => {}, transfer: () => {} };

let dir = "";
let file = "";
let cliJsonl = "";
let cliSummary = "";
let pageJsonl = "";
let view: RunView | null = null;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "slice-parity-"));
  file = path.join(dir, "slice50.jsonl");
  // The script's own writer, so the file is the one the command line makes.
  const written = await generate(file, 5e7, 1);
  expect(written.lines).toBe(909);

  const jsonl = memoryIo();
  expect(await run([file, "--format", "jsonl", "--threads", "1"], jsonl)).toBe(0);
  cliJsonl = jsonl.out();
  const summary = memoryIo();
  expect(await run([file, "--threads", "1"], summary)).toBe(0);
  cliSummary = summary.out();

  const { readFile } = await import("node:fs/promises");
  const bytes = new Uint8Array(await readFile(file));
  const service = new DataService(inProcessPool());
  const loaded = await service.load(
    [{ kind: "file", file: new File([bytes], "slice50.jsonl") }],
    null,
    never,
    (_: LoadProgress) => {},
  );
  await service.settled();
  const id = loaded.datasets.find((d) => d.kind === "rollouts")?.id ?? "";
  const handlers = runHandlers(service);
  const exported = await handlers.runExport({ dataset: id, filter: "", format: "jsonl" }, context);
  if ("error" in exported) throw new Error(exported.error);
  pageJsonl = exported.text;
  view = await handlers.run({ dataset: id, filter: "", reward: "recorded" }, context);
}, 600_000);

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

describe("the 909-rollout slice: the page and cli triage agree", () => {
  it("row for row, byte for byte (causes, drift, decisive calls)", () => {
    expect(pageJsonl.split("\n").filter((l) => l !== "")).toHaveLength(909);
    expect(pageJsonl).toBe(cliJsonl);
    const rows = cliJsonl
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { cause: string | null; decisive_calls: number[] });
    // Decisive calls are named where the cause needs them.
    for (const row of rows.filter((r) => r.cause === "tool_failed"))
      expect(row.decisive_calls.length).toBeGreaterThan(0);
  });

  it("the headline, every cause, drift and the reproduction finding", () => {
    if (view === null) throw new Error("no run view");
    const triage = view.triage.recorded;
    const headline = zeroShareText(triage.zero, view.counts, "recorded");
    expect(headline).toBe("464 of 909 rollouts recorded 0 (51.0%)");
    const lines = cliSummary.split("\n");
    expect(lines[0]).toBe(headline);
    for (const cause of ZERO_CAUSES) {
      const line = lines.find((l) => l.trimStart().startsWith(`${cause} `));
      expect(line, cause).toBeDefined();
      expect(Number(line?.trim().split(/\s+/)[1]), cause).toBe(causeCount(triage, cause));
    }
    expect(triage.counts.drift).toBe(297);
    // Counted apart, drift is every drifted rollout, the recorded zeros and the others: the rows cli triage
    // gives the cause drift.
    const drifted = cliJsonl.split("\n").filter((l) => l !== "" && JSON.parse(l).cause === "drift").length;
    expect(triage.drifted).toHaveLength(drifted);
    expect(drifted).toBeGreaterThan(297);
    // The page's sentence, word for word (lib/triage reproducedText).
    expect(lines).toContain(reproducedText(triage));
  });
});
