import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUT_MS } from "@/lib/live";
import {
  currentRollout,
  linkedLine,
  pairingText,
  readPolicyChoice,
  readTimeout,
  shownCheck,
} from "./live-state";

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

describe("the task row a checked line paired with", () => {
  it("is named once: in the reason when it says it, else before it", () => {
    const byIndex = {
      paired_by: "index" as const,
      ambiguous: 0,
      row: "t.jsonl line 2",
      reason: "Paired with t.jsonl line 2 by (_ng_task_index, _ng_rollout_index) 1:0.",
    };
    expect(pairingText(byIndex)).toBe(` ${byIndex.reason}`);
    const byInput = {
      paired_by: "input" as const,
      ambiguous: 0,
      row: "t.jsonl line 4",
      reason: "Paired with the input row whose responses_create_params.input equals this line's.",
    };
    expect(pairingText(byInput)).toBe(` Task row: t.jsonl line 4. ${byInput.reason}`);
    expect(pairingText(undefined)).toBe("");
  });
});
