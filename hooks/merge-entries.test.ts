import { describe, expect, it } from "vitest";
import type { RolloutIndexEntry } from "@/worker/protocol";
import { type ChangesPage, mergeEntries, readChanges } from "./data";

function row(line: number, contract: number | null = null): RolloutIndexEntry {
  return {
    line,
    task_index: null,
    rollout_index: null,
    task_id: null,
    task: null,
    agent: null,
    environment: null,
    server: null,
    server_source: "none",
    recorded: null,
    contract,
    legacy: null,
    unverified: null,
    legacy_unverified: null,
    calls: 0,
    counts: { ambiguous: 0, mismatched: 0, external: 0, none: 0 },
    map_state: "unknown",
    gym_would_reject: false,
    error: null,
    paired: false,
    paired_by: "none",
    key: null,
    rewards: contract === null ? "pending" : "done",
  };
}

describe("mergeEntries", () => {
  it("replaces changed rows in place, appends streamed rows and keeps line order", () => {
    const before = [row(1), row(3), row(5)];
    const merged = mergeEntries(before, [row(3, 1), row(7), row(6)]);
    expect(merged.map((r) => [r.line, r.contract])).toEqual([
      [1, null],
      [3, 1],
      [5, null],
      [6, null],
      [7, null],
    ]);
    expect(before.map((r) => r.contract)).toEqual([null, null, null]);
    expect(mergeEntries(before, [row(2), row(4, 0)]).map((r) => r.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it("gives back the same array when nothing changed, so the list does not recompute", () => {
    const before = [row(1), row(2)];
    expect(mergeEntries(before, [])).toBe(before);
    expect(mergeEntries(before, [row(2, 1)])).not.toBe(before);
  });
});

describe("readChanges", () => {
  /** A worker whose rows are `rows`, answering a page of `size` rows at a time, at revision `revision`. */
  function pages(rows: readonly RolloutIndexEntry[], size: number, revisions: number[]) {
    const asked: number[] = [];
    const ask = async (after: number): Promise<ChangesPage> => {
      asked.push(after);
      const rest = rows.filter((r) => r.line > after);
      const entries = rest.slice(0, size);
      const more = rest.length > size;
      return {
        entries,
        revision: revisions.shift() ?? 0,
        next: more ? (entries.at(-1)?.line ?? null) : null,
      };
    };
    return { ask, asked };
  }

  it("asks page after page until none is left, and merges them in line order", async () => {
    const worker = pages([row(1), row(2), row(3), row(4), row(5)], 2, [7, 8, 9]);
    const read = await readChanges({ revision: 0, entries: [] }, worker.ask);
    expect(worker.asked).toEqual([0, 2, 4]);
    expect(read.entries.map((r) => r.line)).toEqual([1, 2, 3, 4, 5]);
    // The first answer's revision: rows that changed while the later pages were asked for come again.
    expect(read.revision).toBe(7);
  });

  it("replaces the rows it had, and keeps its rows (the same array) when nothing changed", async () => {
    const before = { revision: 3, entries: [row(1), row(2), row(3)] };
    const changed = await readChanges(before, pages([row(2, 1)], 2, [4]).ask);
    expect(changed.entries.map((r) => [r.line, r.contract])).toEqual([
      [1, null],
      [2, 1],
      [3, null],
    ]);
    const same = await readChanges(before, pages([], 2, [3]).ask);
    expect(same.entries).toBe(before.entries);
    expect(same.revision).toBe(3);
  });
});
