import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUT_MS } from "@/lib/live";
import { currentRollout, linkedLine, readPolicyChoice, readTimeout, shownCheck } from "./live-state";

describe("the live page's choices", () => {
  it("a policy choice is contract, legacy, or both for anything else", () => {
    expect(readPolicyChoice("legacy")).toBe("legacy");
    expect(readPolicyChoice("contract")).toBe("contract");
    expect(readPolicyChoice("bogus")).toBe("both");
  });

  it("a deadline is a positive integer, else the default", () => {
    expect(readTimeout("2500")).toBe(2500);
    expect(readTimeout("0")).toBe(DEFAULT_TIMEOUT_MS);
    expect(readTimeout("1.5")).toBe(DEFAULT_TIMEOUT_MS);
    expect(readTimeout("soon")).toBe(DEFAULT_TIMEOUT_MS);
  });

  it("a link's line is a positive integer, else none", () => {
    expect(linkedLine("7")).toBe(7);
    expect(linkedLine(null)).toBeNull();
    expect(linkedLine("0")).toBeNull();
    expect(linkedLine("x")).toBeNull();
  });

  it("the rollout on the chosen line, else the first", () => {
    const rollouts = [{ line: 2 }, { line: 5 }];
    expect(currentRollout(rollouts, 5)).toEqual({ line: 5 });
    expect(currentRollout(rollouts, 9)).toEqual({ line: 2 });
    expect(currentRollout([], 1)).toBeNull();
  });

  it("the check selected in the results, else the latest", () => {
    const checks = [
      { line: 2, policy: "contract" as const },
      { line: 2, policy: "legacy" as const },
    ];
    expect(shownCheck(checks, { line: 2, policy: "contract" })).toBe(checks[0]);
    expect(shownCheck(checks, null)).toBe(checks[1]);
    expect(shownCheck(checks, { line: 9, policy: "contract" })).toBe(checks[1]);
    expect(shownCheck([], null)).toBeNull();
  });
});
