import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildTriageRun, PLAN, SCENARIO_CAUSE, TRIAGE_RUN_PATH } from "../../scripts/gen-triage-run";
import { verifyRollout } from "../verify";
import {
  isZeroReward,
  summarizeTriage,
  triageRollout,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
  type ZeroCause,
} from "./index";

const ROOT = join(import.meta.dirname, "..", "..");
const run = buildTriageRun();
const rows: unknown[] = run.text
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));

function row(line: number): Record<string, unknown> {
  const value = rows[line - 1];
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error(`line ${line}`);
  return { ...value };
}

function lineOf(scenario: string): number {
  const intent = run.intents.find((i) => i.scenario === scenario);
  if (!intent) throw new Error(scenario);
  return intent.line;
}

describe("the generated triage run", () => {
  it("is committed as generated", () => {
    expect(readFileSync(join(ROOT, TRIAGE_RUN_PATH), "utf8")).toBe(run.text);
  });

  it("holds every cause, some more than once, and passing rollouts", () => {
    const scenarios = PLAN.flat();
    for (const cause of ZERO_CAUSES)
      expect(scenarios.filter((s) => SCENARIO_CAUSE[s] === cause).length).toBeGreaterThanOrEqual(2);
    expect(scenarios.filter((s) => SCENARIO_CAUSE[s] === null).length).toBeGreaterThanOrEqual(5);
  });

  it("gives each line the cause it was built to show", () => {
    const got = rows.map((value, i) => ({ line: i + 1, cause: triageRollout(value)?.cause ?? null }));
    expect(got).toEqual(run.intents.map((i) => ({ line: i.line, cause: i.cause })));
  });

  it("summarizes counts and lines per cause, equal to the generator's tally", () => {
    const summary = summarizeTriage(rows.map((value, i) => ({ line: i + 1, triage: triageRollout(value) })));
    const expected: Record<ZeroCause, number[]> = {
      malformed: [],
      no_task_data: [],
      identity: [],
      no_tool_call: [],
      tool_failed: [],
      wrong_end_state: [],
    };
    for (const intent of run.intents) {
      const cause = ZERO_CAUSES.find((c) => c === intent.cause);
      if (cause) expected[cause].push(intent.line);
    }
    expect(summary.lines).toEqual(expected);
    expect(summary.total).toBe(rows.length);
    expect(summary.zero).toBe(run.intents.filter((i) => i.cause !== null).length);
    for (const cause of ZERO_CAUSES) expect(summary.counts[cause]).toBe(expected[cause].length);
  });
});

describe("triageRollout", () => {
  it("gives no cause when neither the recorded nor the recomputed reward is 0", () => {
    expect(triageRollout(row(lineOf("pass")))).toBeNull();
    expect(isZeroReward(1, 1)).toBe(false);
    expect(isZeroReward(null, 0)).toBe(true);
    expect(isZeroReward(0, null)).toBe(true);
    expect(isZeroReward(0.5, null)).toBe(false);
  });

  it("triages a recorded 1 that recomputes to 0", () => {
    const t = triageRollout(row(lineOf("wrong_end_state_recorded_one")));
    expect(t).toMatchObject({ cause: "wrong_end_state", recorded: 1, recomputed: 0, differs: ["crm_data"] });
  });

  it("triages a recorded 0 that recomputes to 1 as identity, from the contract policy", () => {
    const t = triageRollout(row(lineOf("identity_contract")));
    expect(t).toMatchObject({ cause: "identity", recorded: 0, recomputed: 1 });
    expect(t?.identity).toEqual({ kind: "contract", reward: 1 });
  });

  it("finds identity through the harness what-if when no map was recorded, and names the emitted harness", () => {
    const t = triageRollout(row(lineOf("identity_whatif")));
    expect(t).toMatchObject({ cause: "identity", recomputed: 0 });
    expect(t?.identity).toEqual({ kind: "whatif", harness: "hermes-legacy", reward: 1 });
  });

  it("without the what-if, the same names are calls the tool rejected", () => {
    const t = triageRollout(row(lineOf("identity_whatif")), { whatIf: false });
    expect(t?.cause).toBe("tool_failed");
    expect(t?.failed_calls?.length).toBeGreaterThan(0);
  });

  it("does not call a name that matches no harness identity: it is a tool the server does not have", () => {
    const t = triageRollout(row(lineOf("tool_failed_unknown")));
    expect(t).toMatchObject({ cause: "tool_failed", failed_calls: [0] });
  });

  it("puts malformed before no task data, and no task data before identity", () => {
    const both = row(lineOf("malformed_no_call_id"));
    delete both.ground_truth;
    expect(triageRollout(both)?.cause).toBe("malformed");
    const aliasesNoData = row(lineOf("identity_contract"));
    delete aliasesNoData.ground_truth;
    expect(triageRollout(aliasesNoData)?.cause).toBe("no_task_data");
  });

  it("puts a rejected call before the wrong end state it causes", () => {
    const line = lineOf("tool_failed_error");
    const verified = verifyRollout(row(line));
    expect(verified.reward).toBe(0);
    const t = triageRollout(row(line), { contract: verified });
    expect(t).toMatchObject({ cause: "tool_failed", failed_calls: [0] });
  });

  it("counts a read-only tool's refusal as no rejection: the end state decides", () => {
    const value = row(lineOf("wrong_end_state"));
    const response = { ...(value.response as Record<string, unknown>) };
    const output = [...(response.output as unknown[])];
    output.unshift({
      type: "function_call",
      call_id: "extra_read",
      name: "email_get_email_information_by_id",
      arguments: '{"email_id": "99999999", "field": "body"}',
    });
    response.output = output;
    value.response = response;
    const t = triageRollout(value);
    expect(t?.cause).toBe("wrong_end_state");
  });

  it("uses the chosen policy's reward for zero detection", () => {
    // Recorded 0, contract 1: a zero under both policies' view of the recording.
    const value = row(lineOf("identity_contract"));
    value.reward = 1;
    expect(triageRollout(value)).toBeNull();
    expect(triageRollout(value, { policy: "legacy" })?.cause).toBe("identity");
  });

  it("treats any value that is not a rollout as malformed, never throwing", () => {
    expect(triageRollout(null)?.cause).toBe("malformed");
    expect(triageRollout("text")?.cause).toBe("malformed");
    expect(triageRollout({ response: { output: "x" }, reward: 1 })?.cause).toBe("malformed");
  });

  it("has a label for every cause", () => {
    for (const cause of ZERO_CAUSES) {
      expect(ZERO_CAUSE_LABELS[cause]).toMatch(/\w/);
      expect(ZERO_CAUSE_HINTS[cause]).toMatch(/\w/);
    }
  });
});
