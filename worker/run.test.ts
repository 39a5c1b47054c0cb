import { describe, expect, it } from "vitest";
import { rowsCsv, rowsJsonl } from "../lib/export/csv";
import { matchesFilter, parseFilter, runRow } from "../lib/run";
import { asRollout } from "../lib/schemas/test-helpers";
import { buildTriageRun } from "../scripts/gen-triage-run";
import { type RunSource, runExport, runView } from "./run";

const run = buildTriageRun();
const values: unknown[] = run.text
  .trim()
  .split("\n")
  .map((t) => JSON.parse(t));

// The rollouts narrowed once, as the data service does; the line that is not one is counted as unreadable.
const rollouts = run.intents.map((i) => ({ line: i.line, value: asRollout(values[i.line - 1]) }));

function source(key: string): RunSource {
  return {
    key,
    harness: null,
    unreadable: run.unreadable.length,
    *rollouts() {
      for (const { line, value } of rollouts) yield { line, value, options: {} };
    },
  };
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
    expect(await runExport(source("b"), filter, "csv")).toEqual({ text: rowsCsv(rows), rows: rows.length });
    expect(await runExport(source("b"), filter, "jsonl")).toEqual({
      text: rowsJsonl(rows),
      rows: rows.length,
    });
    expect(await runExport(source("b"), "cause:x", "csv")).toMatchObject({
      error: expect.stringMatching(/cause/),
    });
  });
});
