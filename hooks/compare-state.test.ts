import { describe, expect, it } from "vitest";
import {
  DEFAULT_COMPARE_STATE,
  parseCompareState,
  parseToolList,
  serializeCompareState,
  verdictRank,
} from "./compare-state";

describe("compare URL state", () => {
  it("defaults to the HTTP vs Hermes-without-provenance pair and writes nothing for defaults", () => {
    const state = parseCompareState(new URLSearchParams(""));
    expect(state).toEqual(DEFAULT_COMPARE_STATE);
    expect(serializeCompareState(state).toString()).toBe("");
  });

  it("round-trips every field", () => {
    const params = new URLSearchParams(
      "tab=repair&a=x.jsonl&b=y.jsonl&policy=legacy&verdict=identity-bug,same&sort=pair&pair=4&sample=s.jsonl&line=7&r=z.jsonl&harness=openclaw",
    );
    const state = parseCompareState(params);
    expect(state.tab).toBe("repair");
    expect(state.verdicts).toEqual(["identity-bug", "same"]);
    expect(state.pair).toBe(4);
    expect(state.harness).toBe("openclaw");
    expect(parseCompareState(serializeCompareState(state))).toEqual(state);
  });

  it("ignores unknown values instead of failing", () => {
    const state = parseCompareState(
      new URLSearchParams("tab=nope&policy=x&verdict=bogus&sort=z&pair=-1&line=1e3&harness=vim"),
    );
    expect(state.tab).toBe("runs");
    expect(state.policy).toBe("contract");
    expect(state.verdicts).toEqual([]);
    expect(state.sort).toBe("verdict");
    expect(state.pair).toBeNull();
    expect(state.line).toBeNull();
    expect(state.harness).toBe(DEFAULT_COMPARE_STATE.harness);
  });

  it("ranks identity bugs before different actions before parity", () => {
    expect(verdictRank("same actions, different reward")).toBeLessThan(verdictRank("different actions"));
    expect(verdictRank("different actions")).toBeLessThan(verdictRank("same actions, same reward"));
  });

  it("parses tool lists", () => {
    expect(parseToolList(" a, b ,,a,c ")).toEqual(["a", "b", "c"]);
    expect(parseToolList("")).toEqual([]);
  });
});
