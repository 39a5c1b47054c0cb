import { describe, expect, it } from "vitest";
import { formatFilter, parseFilter } from "./filter";
import { isZeroClause, moveZeros, parseReward, REWARDS, rewardOfParams, zeroClause } from "./reward";

function clauses(text: string) {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.clauses;
}

describe("the one reward setting", () => {
  it("reads each reward, the recorded one when absent or empty, and refuses anything else", () => {
    for (const reward of REWARDS) expect(parseReward(reward)).toEqual({ ok: true, reward });
    expect(parseReward(undefined)).toEqual({ ok: true, reward: "recorded" });
    expect(parseReward(null)).toEqual({ ok: true, reward: "recorded" });
    expect(parseReward("")).toEqual({ ok: true, reward: "recorded" });
    const bad = parseReward("Contract");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain("recorded, contract, legacy");
  });

  it("a link's ?reward= applies; an unreadable one falls back to the recorded reward", () => {
    expect(rewardOfParams(new URLSearchParams("reward=legacy"))).toBe("legacy");
    expect(rewardOfParams(new URLSearchParams("f=recorded:0"))).toBe("recorded");
    expect(rewardOfParams(new URLSearchParams("reward=zero"))).toBe("recorded");
  });

  it("a zero is 0 or below in that reward (a negative reward failed too), written as the filter writes it", () => {
    expect(formatFilter([zeroClause("contract")])).toBe("contract:..0");
    expect(clauses("legacy:..0")).toEqual([zeroClause("legacy")]);
    // An older link's exact zero is still read as the zero clause, so a switch or a cause click moves it.
    const [old] = clauses("legacy:0");
    expect(old !== undefined && isZeroClause(old)).toBe(true);
    const [range] = clauses("legacy:-1..0");
    expect(range !== undefined && isZeroClause(range)).toBe(false);
  });

  it("a switch moves the old reward's zero clause to the new one and keeps every other clause", () => {
    const moved = (text: string, from: "recorded" | "contract" | "legacy", to: typeof from) =>
      formatFilter(moveZeros(clauses(text), from, to));
    expect(moved("agent:a recorded:..0 cause:tool_failed", "recorded", "contract")).toBe(
      "agent:a contract:..0 cause:tool_failed",
    );
    // A range that is not a zero, and a third reward's zero, are the researcher's own: kept.
    expect(moved("recorded:0..0.5 legacy:0", "recorded", "contract")).toBe("recorded:0..0.5 legacy:0");
    // The new reward's zero already there absorbs the moved one.
    expect(moved("recorded:..0 contract:..0 agent:a", "recorded", "contract")).toBe("contract:..0 agent:a");
    expect(moved("recorded:0", "recorded", "recorded")).toBe("recorded:0");
  });
});
