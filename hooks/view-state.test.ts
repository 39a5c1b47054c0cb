import { describe, expect, it } from "vitest";
import type { RolloutIndexEntry } from "@/worker/protocol";
import {
  DEFAULT_VIEW,
  parseViewState,
  rewardChanged,
  selectRollouts,
  serializeViewState,
  statusCounts,
  type ViewState,
} from "./view-state";

function entry(line: number, patch: Partial<RolloutIndexEntry> = {}): RolloutIndexEntry {
  return {
    line,
    task_index: line % 3,
    rollout_index: 0,
    task_id: String(line),
    agent: "a",
    environment: "workplace_assistant",
    server: "workplace_assistant",
    server_source: "environment_name",
    recorded: 1,
    contract: 1,
    legacy: 1,
    unverified: null,
    legacy_unverified: null,
    calls: 2,
    counts: { ambiguous: 0, mismatched: 0, external: 0, none: 2 },
    map_state: "authoritative",
    gym_would_reject: false,
    verify_error: null,
    paired: false,
    paired_by: "none",
    key: null,
    rewards: "done",
    ...patch,
  };
}

describe("URL state", () => {
  it("round-trips every field", () => {
    const state: ViewState = {
      sample: "workplace-edge-cases.jsonl",
      file: "b.jsonl",
      line: 12,
      call: "3",
      filters: ["changed", "external"],
      agent: "claude-code_agent",
      env: "workplace_assistant",
      q: "email reply",
      f: 'recorded:0 field:category="a b" cause:identity',
      sort: "contract",
      desc: true,
      server: "team store",
      harness: "hermes-legacy",
    };
    expect(parseViewState(serializeViewState(state))).toEqual(state);
  });

  it("writes nothing for the default view", () => {
    expect(serializeViewState(DEFAULT_VIEW).toString()).toBe("");
  });

  it("drops values it does not understand instead of guessing", () => {
    const state = parseViewState(
      new URLSearchParams("line=-4&filter=changed,bogus&sort=-nope&harness=vim&call=2"),
    );
    expect(state.line).toBeNull();
    expect(state.filters).toEqual(["changed"]);
    expect(state.sort).toBe("line");
    expect(state.desc).toBe(false);
    expect(state.harness).toBeNull();
    expect(state.call).toBe("2");
  });
});

describe("selectRollouts", () => {
  const rows = [
    entry(1, { recorded: 0, contract: 1, agent: "b" }),
    entry(2, { counts: { ambiguous: 1, mismatched: 0, external: 0, none: 1 } }),
    entry(3, { recorded: 0, contract: 0, counts: { ambiguous: 0, mismatched: 0, external: 2, none: 0 } }),
    entry(4, { contract: null, verify_error: "no verifier for x", environment: "x" }),
  ];
  const base = { filters: [], agent: null, env: null, sort: "line" as const, desc: false };

  it("AND-s the flag filters", () => {
    expect(selectRollouts(rows, { ...base, filters: ["zero"] }, null).map((r) => r.line)).toEqual([1, 3]);
    expect(selectRollouts(rows, { ...base, filters: ["zero", "changed"] }, null).map((r) => r.line)).toEqual([
      1,
    ]);
    expect(selectRollouts(rows, { ...base, filters: ["external"] }, null).map((r) => r.line)).toEqual([3]);
    expect(selectRollouts(rows, { ...base, filters: ["unverified"] }, null).map((r) => r.line)).toEqual([4]);
  });

  it("filters by agent, server and search hits", () => {
    expect(selectRollouts(rows, { ...base, agent: "b" }, null).map((r) => r.line)).toEqual([1]);
    expect(selectRollouts(rows, { ...base, env: "x" }, null).map((r) => r.line)).toEqual([4]);
    expect(selectRollouts(rows, base, new Set([2, 4])).map((r) => r.line)).toEqual([2, 4]);
  });

  it("sorts with nulls last and ties by line", () => {
    expect(selectRollouts(rows, { ...base, sort: "contract" }, null).map((r) => r.line)).toEqual([
      3, 1, 2, 4,
    ]);
    expect(selectRollouts(rows, { ...base, sort: "contract", desc: true }, null).map((r) => r.line)).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it("counts statuses over the whole file", () => {
    expect(statusCounts(rows)).toEqual({
      rollouts: 4,
      calls: 8,
      ambiguous: 1,
      mismatched: 0,
      external: 2,
      changed: 1,
      zero: 2,
      unverified: 1,
      rollouts_with: { ambiguous: 1, mismatched: 0, external: 1 },
    });
    expect(rewardChanged(rows[3]!)).toBe(false);
  });
});
