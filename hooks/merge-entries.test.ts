import { describe, expect, it } from "vitest";
import type { RolloutIndexEntry } from "@/worker/protocol";
import { mergeEntries } from "./data";

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
