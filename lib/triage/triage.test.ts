import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildTriageRun, PLAN, SCENARIO_CAUSE, TRIAGE_RUN_PATH } from "../../scripts/gen-triage-run";
import { readRollout } from "../schemas";
import { asRollout } from "../schemas/test-helpers";
import { type VerifyOptions, verifyRollout } from "../verify";
import {
  isZeroReward,
  summarizeTriage,
  type TriageOptions,
  triageRollout,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
  type ZeroCause,
} from "./index";

const ROOT = join(import.meta.dirname, "..", "..");
// Every entry point takes a Rollout narrowed at the edge; these tests build plain JSON and narrow it here.
const triage = (value: unknown, options?: TriageOptions) => triageRollout(asRollout(value), options);
const verify = (value: unknown, options?: VerifyOptions) => verifyRollout(asRollout(value), options);
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
    const got = run.intents.map((i) => ({ line: i.line, cause: triage(rows[i.line - 1])?.cause ?? null }));
    expect(got).toEqual(run.intents.map((i) => ({ line: i.line, cause: i.cause })));
    // The line built without response.output is not a rollout: an unreadable line, never triaged.
    for (const u of run.unreadable) expect(readRollout(rows[u.line - 1]).ok).toBe(false);
    expect(run.unreadable.length + run.intents.length).toBe(rows.length);
  });

  it("summarizes counts and lines per cause, equal to the generator's tally", () => {
    const summary = summarizeTriage(
      run.intents.map((i) => ({ line: i.line, triage: triage(rows[i.line - 1]) })),
    );
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
    expect(summary.total).toBe(run.intents.length);
    expect(summary.zero).toBe(run.intents.filter((i) => i.cause !== null).length);
    for (const cause of ZERO_CAUSES) expect(summary.counts[cause]).toBe(expected[cause].length);
  });
});

describe("triageRollout", () => {
  it("gives no cause when neither the recorded nor the recomputed reward is 0", () => {
    expect(triage(row(lineOf("pass")))).toBeNull();
    expect(isZeroReward(1, 1)).toBe(false);
    expect(isZeroReward(null, 0)).toBe(true);
    expect(isZeroReward(0, null)).toBe(true);
    expect(isZeroReward(0.5, null)).toBe(false);
  });

  it("triages a recorded 1 that recomputes to 0", () => {
    const t = triage(row(lineOf("wrong_end_state_recorded_one")));
    expect(t).toMatchObject({ cause: "wrong_end_state", recorded: 1, recomputed: 0, differs: ["crm_data"] });
  });

  it("triages a recorded 0 that recomputes to 1 as identity, from the contract policy", () => {
    const t = triage(row(lineOf("identity_contract")));
    expect(t).toMatchObject({ cause: "identity", recorded: 0, recomputed: 1 });
    expect(t?.identity).toEqual({ kind: "contract", reward: 1 });
  });

  it("finds identity through the harness what-if when no map was recorded, and names the emitted harness", () => {
    const t = triage(row(lineOf("identity_whatif")));
    expect(t).toMatchObject({ cause: "identity", recomputed: 0 });
    expect(t?.identity).toEqual({ kind: "whatif", harness: "hermes-legacy", reward: 1 });
  });

  it("without the what-if, the same names are calls the tool rejected", () => {
    const t = triage(row(lineOf("identity_whatif")), { whatIf: false });
    expect(t?.cause).toBe("tool_failed");
    expect(t?.failed_calls?.length).toBeGreaterThan(0);
  });

  it("does not call a name that matches no harness identity: it is a tool the server does not have", () => {
    const t = triage(row(lineOf("tool_failed_unknown")));
    expect(t).toMatchObject({ cause: "tool_failed", failed_calls: [0] });
  });

  it("puts malformed before no task data, and no task data before identity", () => {
    const both = row(lineOf("malformed_no_call_id"));
    delete both.ground_truth;
    expect(triage(both)?.cause).toBe("malformed");
    const aliasesNoData = row(lineOf("identity_contract"));
    delete aliasesNoData.ground_truth;
    expect(triage(aliasesNoData)?.cause).toBe("no_task_data");
  });

  it("puts a rejected call before the wrong end state it causes", () => {
    const line = lineOf("tool_failed_error");
    const verified = verify(row(line));
    expect(verified.reward).toBe(0);
    const t = triage(row(line), { contract: verified });
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
    const t = triage(value);
    expect(t?.cause).toBe("wrong_end_state");
  });

  it("uses the chosen policy's reward for zero detection", () => {
    // Recorded 0, contract 1: a zero under both policies' view of the recording.
    const value = row(lineOf("identity_contract"));
    value.reward = 1;
    expect(triage(value)).toBeNull();
    expect(triage(value, { policy: "legacy" })?.cause).toBe("identity");
  });

  it("never sees a value that is not a rollout: the edge reads it as an unreadable line with a kind", () => {
    expect(readRollout(null)).toMatchObject({ ok: false, kind: "not_an_object" });
    expect(readRollout("text")).toMatchObject({ ok: false, kind: "not_an_object" });
    expect(readRollout({ response: { output: "x" }, reward: 1 })).toMatchObject({
      ok: false,
      kind: "not_a_rollout",
    });
  });

  it("has a label for every cause", () => {
    for (const cause of ZERO_CAUSES) {
      expect(ZERO_CAUSE_LABELS[cause]).toMatch(/\w/);
      expect(ZERO_CAUSE_HINTS[cause]).toMatch(/\w/);
    }
  });
});
