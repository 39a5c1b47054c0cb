import { describe, expect, it } from "vitest";
import { rowsCsv, rowsJsonl } from "@/lib/export/csv";
import { matchesFilter, parseFilter, runRow } from "@/lib/run";
import { ZERO_CAUSES } from "@/lib/triage";
import { type RunSource, runExport, runView, wholeFolderView } from "./run-view";
import { rollouts, run, runPart, values } from "./test-helpers";

function source(key: string): RunSource {
  return runPart(key, 0, rollouts.length, run.unreadable.length);
}

describe("worker run view", () => {
  it("counts causes over the whole run and filters lines with lib's filter", async () => {
    const view = await runView(source("a"), "cause:identity");
    expect(view.triage.recorded.total).toBe(run.intents.length);
    expect(view.counts).toEqual({ rollouts: run.intents.length, unreadable: 1 });
    expect(run.intents.length + run.unreadable.length).toBe(values.length);
    // The breakdown counts the recorded zeros; the cause clause lists every row with the cause.
    expect(view.triage.recorded.counts.identity).toBe(
      run.intents.filter((i) => i.cause === "identity" && i.recorded === 0).length,
    );
    expect(view.triage.recorded.zero).toBe(run.intents.filter((i) => i.recorded === 0).length);
    expect(view.lines).toEqual(run.intents.filter((i) => i.cause === "identity").map((i) => i.line));
    expect(view.metrics.rollouts).toBe(view.lines?.length);
    expect(view.filter_error).toBeNull();
    expect(view.inferred?.harnesses).toEqual(["hermes-legacy"]);
  });

  it("the breakdown follows every clause but its own cause clause, and says how many it covers", async () => {
    const http = run.intents.filter((i) => i.agent === "http_agent");
    const view = await runView(source("c"), "agent:http_agent cause:identity");
    expect(view.breakdown_rollouts).toBe(http.length);
    expect(view.triage.recorded.total).toBe(http.length);
    // Every recorded zero of the http agent's rollouts is in the breakdown, the cause clause notwithstanding.
    const all = await runView(source("c2"), "");
    const httpLines = new Set(http.map((i) => i.line));
    const zerosOfHttp = Object.values(all.triage.recorded.lines)
      .flat()
      .filter((line) => httpLines.has(line)).length;
    expect(view.triage.recorded.zero).toBe(zerosOfHttp);
    expect(view.lines).toEqual(http.filter((i) => i.cause === "identity").map((i) => i.line));
    expect(view.metrics.rollouts).toBe(view.lines?.length);
    expect(view.filter).toBe("agent:http_agent cause:identity");
  });

  it("pass@k reads the recorded reward by default and the chosen one when asked", async () => {
    expect((await runView(source("d"), "")).metrics.reward).toBe("recorded");
    expect((await runView(source("d"), "", { reward: "legacy" })).metrics.reward).toBe("legacy");
  });

  it("a text clause keeps the lines the source's text search finds, and none without a search", async () => {
    const lines = new Set([run.intents[0]?.line ?? 0, run.intents[2]?.line ?? 0]);
    const searched: RunSource = { ...source("e"), textLines: async () => lines };
    expect((await runView(searched, "text:anything")).lines).toEqual([...lines]);
    expect((await runView(source("f"), "text:anything")).lines).toEqual([]);
  });

  it("reports a bad filter without filtering", async () => {
    const view = await runView(source("a"), "nope");
    expect(view.filter_error).toMatch(/kind:value/);
    expect(view.lines).toBeNull();
  });

  it("exports the same text as lib's writers over the same filtered rows (what cli triage writes)", async () => {
    const filter = "recorded:0 flag:alias_guess";
    const parsed = parseFilter(filter);
    if (!parsed.ok) throw new Error(parsed.error);
    const rows = rollouts
      .map(({ line, value }) => ({ row: runRow(line, value), value }))
      .filter(({ row, value }) => matchesFilter(parsed.clauses, row, value))
      .map(({ row }) => row);
    expect(await runExport([{ file: null, source: source("b") }], filter, "csv")).toEqual({
      text: rowsCsv(rows),
      rows: rows.length,
    });
    expect(await runExport([{ file: null, source: source("b") }], filter, "jsonl")).toEqual({
      text: rowsJsonl(rows),
      rows: rows.length,
    });
    expect(await runExport([{ file: null, source: source("b") }], "cause:x", "csv")).toMatchObject({
      error: expect.stringMatching(/cause/),
    });
  });
});

describe("the whole folder's answer", () => {
  it("sums each file's rows as its own view has them, with each task named by its file", async () => {
    const half = Math.floor(rollouts.length / 2);
    const a = runPart("a", 0, half);
    const b = runPart("b", half, rollouts.length, 1);
    const folder = await wholeFolderView("run", [
      { dataset: "A", file: "a/rollouts.jsonl", source: a },
      { dataset: "B", file: "b/rollouts.jsonl", source: b },
    ]);
    const [viewA, viewB] = [await runView(a, ""), await runView(b, "")];
    expect(folder.counts).toEqual({ rollouts: rollouts.length, unreadable: 1 });
    expect(folder.files.map((f) => [f.dataset, f.file, f.counts.rollouts, f.zero])).toEqual([
      [
        "A",
        "a/rollouts.jsonl",
        half,
        {
          recorded: viewA.triage.recorded.zero,
          contract: viewA.triage.contract.zero,
          legacy: viewA.triage.legacy.zero,
        },
      ],
      [
        "B",
        "b/rollouts.jsonl",
        rollouts.length - half,
        {
          recorded: viewB.triage.recorded.zero,
          contract: viewB.triage.contract.zero,
          legacy: viewB.triage.legacy.zero,
        },
      ],
    ]);
    expect(folder.files[0]?.mean).toEqual(viewA.metrics.mean);
    // Which file's zeros a provenance map rescues: each file's own count, summing to the folder's.
    for (const reward of ["recorded", "contract", "legacy"] as const) {
      const own = [viewA, viewB].map((view) => view.triage[reward].fixed_by_map.lines.length);
      expect(folder.files.map((f) => f.fixed_by_map[reward])).toEqual(own);
      expect(folder.triage[reward].fixed_by_map.lines.length).toBe(own[0]! + own[1]!);
    }
    expect(folder.triage.recorded.fixed_by_map.lines.length).toBeGreaterThan(0);
    // Each cause is the sum of the files' counts (each file's task-wide cause decided within it).
    for (const reward of ["recorded", "contract", "legacy"] as const) {
      expect(folder.triage[reward].zero).toBe(viewA.triage[reward].zero + viewB.triage[reward].zero);
      for (const cause of ZERO_CAUSES)
        expect(folder.triage[reward].counts[cause]).toBe(
          viewA.triage[reward].counts[cause] + viewB.triage[reward].counts[cause],
        );
    }
    // A task of file a is not the same task as file b's of the same index: pass@k counts both.
    const tasksOf = (m: { pass_at_k: readonly { tasks: number; skipped: number }[] }) =>
      (m.pass_at_k[0]?.tasks ?? 0) + (m.pass_at_k[0]?.skipped ?? 0);
    expect(tasksOf(viewA.metrics)).toBeGreaterThan(0);
    expect(tasksOf(folder.metrics.recorded)).toBe(tasksOf(viewA.metrics) + tasksOf(viewB.metrics));
    // Every reward's metrics in the one answer: pass@k reads the reward it was computed for.
    expect(folder.metrics.contract.reward).toBe("contract");
  });
});
