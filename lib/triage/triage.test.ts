import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildTriageRun,
  lineCause,
  PLAN,
  SCENARIO_CAUSE,
  TRIAGE_RUN_PATH,
} from "../../scripts/gen-triage-run";
import { matchesFilter, parseFilter, rowTask, runRow, withTaskWide } from "../run";
import { readRollout } from "../schemas";
import { asRollout } from "../schemas/test-helpers";
import { type VerifyOptions, verifyRollout } from "../verify";
import {
  addTriages,
  callBadges,
  fixedByMapText,
  isZeroReward,
  REPRODUCTION_TEXT,
  reproducedText,
  summarizeTriage,
  type TriageOptions,
  textCallsText,
  triageHeading,
  triageRollout,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
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
    // verifier_error is this project's port failing: a bug, which no line is built to produce.
    for (const cause of ZERO_CAUSES.filter((c) => c !== "verifier_error"))
      expect(scenarios.filter((s) => SCENARIO_CAUSE[s] === cause).length).toBeGreaterThanOrEqual(2);
    expect(scenarios.filter((s) => SCENARIO_CAUSE[s] === null).length).toBeGreaterThanOrEqual(5);
  });

  it("gives each line the cause it was built to show (alone, and in the run)", () => {
    const got = run.intents.map((i) => ({ line: i.line, cause: triage(rows[i.line - 1])?.cause ?? null }));
    expect(got).toEqual(run.intents.map((i) => ({ line: i.line, cause: lineCause(i.scenario) })));
    const inRun = withTaskWide(run.intents.map((i) => runRow(i.line, asRollout(rows[i.line - 1]))));
    expect(inRun.map((r) => ({ line: r.line, cause: r.cause }))).toEqual(
      run.intents.map((i) => ({ line: i.line, cause: i.cause })),
    );
    // task_wide keeps the rollout's own sentence after saying the whole task failed alike.
    const wide = inRun.find((r) => r.cause === "task_wide");
    expect(wide?.cause_sentence).toMatch(
      /^Every rollout of task 5 \(3\) failed the same way: 1 call rejected/,
    );
    expect(rowTask(wide ?? inRun[0]!)).toBe("5");
    // The line built without response.output is not a rollout: an unreadable line, never triaged.
    for (const u of run.unreadable) expect(readRollout(rows[u.line - 1]).ok).toBe(false);
    expect(run.unreadable.length + run.intents.length).toBe(rows.length);
  });

  it("summarizes the recorded zeros per cause by default, each policy's on request", () => {
    const inRun = withTaskWide(run.intents.map((i) => runRow(i.line, asRollout(rows[i.line - 1]))));
    const recorded = summarizeTriage(inRun);
    expect(recorded.view).toBe("recorded");
    // The headline is the run's own zeros: exactly the rows recorded 0.
    expect(recorded.zero).toBe(run.intents.filter((i) => i.recorded === 0).length);
    const expected = Object.fromEntries(ZERO_CAUSES.map((c) => [c, [] as number[]]));
    for (const r of inRun) if (r.recorded === 0 && r.cause !== null) expected[r.cause]?.push(r.line);
    expect(recorded.lines).toEqual(expected);
    expect(recorded.total).toBe(run.intents.length);
    // The recorded-1 drift is a recomputed zero, not a recorded one.
    const contract = summarizeTriage(inRun, "contract");
    expect(contract.zero).toBe(inRun.filter((r) => r.contract === 0).length);
    expect(contract.counts.drift).toBe(
      run.intents.filter((i) => i.scenario === "wrong_end_state_recorded_one").length,
    );
    expect(recorded.counts.drift).toBe(
      run.intents.filter((i) => i.scenario === "drift_recorded_zero").length,
    );
    // identity_contract is recorded as legacy scores it: the finding names legacy.
    expect(recorded.reproduced.legacy).toBe(
      run.intents.filter((i) => i.scenario === "identity_contract").length,
    );
  });
});

describe("triageRollout", () => {
  it("says when a response without any function_call wrote its call as text (never made: Gym reads function_call items)", () => {
    const line = row(lineOf("no_tool_call"));
    const plain = triage(line);
    expect(plain?.cause).toBe("no_tool_call");
    expect(plain?.sentence).toBe("The response makes no function_call at all.");
    const response = line.response as { output: unknown[] };
    const written = {
      ...line,
      response: {
        ...response,
        output: [
          ...response.output,
          {
            type: "message",
            role: "assistant",
            content: [
              {
                type: "output_text",
                text: '<tool_call>\n{"name": "email_reply_email", "arguments": {"email_id": "00000057"}}\n</tool_call>',
              },
            ],
          },
        ],
      },
    };
    const t = triage(written);
    expect(t?.cause).toBe("no_tool_call");
    expect(t?.signature).toBe("no_tool_call");
    expect(t?.text_call).toEqual({
      form: "<tool_call>",
      name: "email_reply_email",
      output_index: response.output.length,
    });
    expect(plain?.text_call).toBeUndefined();
    // The run row carries it, for the breakdown's count (RunTriage.text_calls).
    expect(runRow(1, asRollout(written)).text_call).toBe(true);
    expect(runRow(1, asRollout(line)).text_call).toBe(false);
    // is:text_call keeps it, in every front end (lib/run filter).
    const clauses = parseFilter("is:text_call");
    if (!clauses.ok) throw new Error(clauses.error);
    expect(matchesFilter(clauses.clauses, runRow(1, asRollout(written)))).toBe(true);
    expect(matchesFilter(clauses.clauses, runRow(1, asRollout(line)))).toBe(false);
    expect(t?.sentence).toBe(
      `The response makes no function_call at all. Its message (output ${response.output.length}) writes a tool call as text instead (<tool_call> naming "email_reply_email"): Gym's verifiers read function_call items only, so the call was never made (the model server's tool-call parser did not extract it).`,
    );
  });

  it("gives no cause when none of the recorded and recomputed rewards is 0", () => {
    expect(triage(row(lineOf("pass")))).toBeNull();
    expect(isZeroReward(1, 1)).toBe(false);
    expect(isZeroReward(null, 0)).toBe(true);
    expect(isZeroReward(0, null)).toBe(true);
    expect(isZeroReward(0.5, null)).toBe(false);
  });

  it("calls a recorded 1 that both policies recompute to 0 drift, with the cells that differ and whom to trust", () => {
    const t = triage(row(lineOf("wrong_end_state_recorded_one")));
    expect(t).toMatchObject({ cause: "drift", recorded: 1, recomputed: 0, reproduced_by: "neither" });
    expect(t?.drift).toMatch(
      /^Recorded 1; recomputed contract 0, legacy 0\. What differs: table cells: crm_data /,
    );
    expect(t?.drift).toMatch(/Trust the recomputed reward/);
    // The agent stopped one call short: the row was never removed, and the ground-truth action that removes it is named.
    expect(t?.traces?.length).toBeGreaterThan(0);
    expect(t?.traces?.every((trace) => trace.by === null && trace.expectedBy !== null)).toBe(true);
    expect(t?.drift).toMatch(
      /crm_data row 00000047 never removed; ground-truth action #\d+ customer_relationship_manager_delete_customer \(which removes it\) was not called/,
    );
    expect(t?.decisive).toEqual([]);
  });

  it("calls a recorded 0 that both policies recompute to 1 drift, never identity (all calls bare)", () => {
    const t = triage(row(lineOf("drift_recorded_zero")));
    expect(t).toMatchObject({
      cause: "drift",
      recorded: 0,
      contract: 1,
      legacy: 1,
      reproduced_by: "neither",
    });
    expect(t?.drift).toMatch(/scores it higher under both policies/);
  });

  it("gives identity when provenance decides: contract 1, legacy 0, and the recording is legacy's", () => {
    const t = triage(row(lineOf("identity_contract")));
    expect(t).toMatchObject({
      cause: "identity",
      recorded: 0,
      contract: 1,
      legacy: 0,
      reproduced_by: "legacy",
    });
    expect(t?.identity).toEqual({ kind: "policies", contract: 1, legacy: 0 });
    expect(t?.sentence).toMatch(/The recorded 0 is the legacy policy's\./);
    expect(t?.drift).toBeNull();
  });

  it("never gives identity to bare aliases without a map: the calls named no tool, and the what-if says what a map would do", () => {
    const t = triage(row(lineOf("aliases_no_map")));
    expect(t?.cause).toBe("tool_failed");
    // Not "rejected by the tool": no tool ever saw a call that named none.
    expect(t?.sentence).toMatch(
      /^\d+ calls? named no tool of workplace_assistant, so Gym skipped (it|them): call #0 /,
    );
    expect(t?.sentence).toMatch(
      /with a provenance map for its calls \(the hermes-legacy names it emitted\), it scores 1/,
    );
    expect(t?.decisive.map((d) => d.index)).toEqual(t?.failed_calls);
    // The names are exactly hermes-legacy's aliases: the run's breakdown counts it as a zero its map rescues.
    expect(t?.what_if_map).toBe("hermes-legacy");
    const without = triage(row(lineOf("aliases_no_map")), { whatIf: false });
    expect(without?.cause).toBe("tool_failed");
    expect(without?.sentence).not.toMatch(/what-if/);
    expect(without?.what_if_map).toBeUndefined();
  });

  it("counts a zero its map rescues where the verifier reads the calls instead of running them (example_multi_step)", () => {
    // Gym's example line, its calls renamed to Hermes' older aliases (no provenance map) and its reward 0.
    const dir = join(ROOT, "fixtures/gym-examples/resources_servers/example_multi_step/data");
    const [first] = readFileSync(join(dir, "example_rollouts.jsonl"), "utf8").split("\n");
    const [input] = readFileSync(join(dir, "example.jsonl"), "utf8").split("\n");
    const value = JSON.parse(first ?? "");
    for (const item of value.response.output)
      if (item.type === "function_call") item.name = `mcp_example_multi_step_${item.name}`;
    value.reward = 0;
    const options = { server: "example_multi_step", input: JSON.parse(input ?? "") };
    const t = triage(value, options);
    // No call is refused (the verifier runs none): the end state is what differs, and the names are why.
    expect(t?.cause).toBe("wrong_end_state");
    expect(t?.sentence).toMatch(
      /The names look like harness aliases: with a provenance map for its calls \(the hermes-legacy names it emitted\), it scores 1 \(harness what-if\)\.$/,
    );
    expect(t?.what_if_map).toBe("hermes-legacy");
    // The harness's doing, not the task's: never grouped as the same failure on every rollout of a task.
    expect(t?.signature).toBeNull();
    const without = triage(value, { ...options, whatIf: false });
    expect(without?.what_if_map).toBeUndefined();
    expect(without?.signature).not.toBeNull();
  });

  it("quotes calls that failed the same way once, naming each call", () => {
    const text = readFileSync(join(ROOT, "public/samples/compare-mcp-hermes-noprov.jsonl"), "utf8");
    const t = triage(JSON.parse(text.split("\n")[5]!));
    const name = "mcp_workplace_assistant_customer_relationship_manager_update_customer";
    expect(t?.failed_calls).toEqual([0, 1, 2]);
    expect(t?.sentence).toBe(
      `3 calls named no tool of workplace_assistant, so Gym skipped them: calls #0, #1 and #2 ${name} skipped: KeyError: '${name}'.`,
    );
  });

  it("gives at most three numbers of calls that failed the same way", () => {
    const text = readFileSync(join(ROOT, "public/samples/compare-mcp-hermes-noprov.jsonl"), "utf8");
    const line = JSON.parse(text.split("\n")[5]!);
    const call = line.response.output.find((item: { type: string }) => item.type === "function_call");
    // 200 calls of the same alias, each with its own call_id.
    line.response.output = Array.from({ length: 200 }, (_, i) => ({ ...call, call_id: `c${i}` }));
    const t = triage(line);
    expect(t?.failed_calls).toHaveLength(200);
    expect(t?.sentence).toMatch(
      /^200 calls named no tool of workplace_assistant, so Gym skipped them: 200 calls \(#0, #1, #2 and 197 more\) mcp_workplace_assistant_customer_relationship_manager_update_customer skipped: /,
    );
    expect(t?.sentence.length).toBeLessThan(400);
  });

  it("reads run health from the line: a failed model call, a cut-off response, no output tokens", () => {
    expect(triage(row(lineOf("model_error")))).toMatchObject({ cause: "model_error" });
    expect(triage(row(lineOf("model_error")))?.sentence).toMatch(
      /server_error: The model backend returned 503/,
    );
    const truncated = triage(row(lineOf("truncated")));
    expect(truncated?.cause).toBe("truncated");
    expect(truncated?.sentence).toMatch(/incomplete_details\.reason "max_output_tokens"/);
    expect(triage(row(lineOf("no_output")))?.cause).toBe("no_output");
    // Health comes before the verifier's view: without task data, a cut-off response is still truncated.
    const noData = row(lineOf("truncated"));
    delete noData.ground_truth;
    expect(triage(noData)?.cause).toBe("truncated");
  });

  it("never reads an empty response.output as the cause: Gym's swebench answers outside it, and scored 1 so", () => {
    // toolsandbox: no port here, its environment raised before a turn; the line says so beside its reward.
    for (const [server, file] of [
      ["toolsandbox", "toolsandbox/data/example_rollouts.jsonl"],
      ["swebench", "swebench/data/example_rollouts.jsonl"],
    ] as const) {
      const text = readFileSync(join(ROOT, "fixtures/gym-examples/resources_servers", file), "utf8");
      for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
        const rollout = asRollout(JSON.parse(line));
        expect(rollout.response.output).toEqual([]);
        const t = triageRollout(rollout, { server });
        if (t !== null) expect(t.cause, server).toBe("no_verifier_port");
      }
    }
  });

  it("does not call a name that matches no harness identity: it is a tool the server does not have", () => {
    const t = triage(row(lineOf("tool_failed_unknown")));
    expect(t).toMatchObject({ cause: "tool_failed", failed_calls: [0] });
    expect(t?.decisive).toEqual([{ index: 0, why: expect.stringMatching(/^skipped: KeyError/) }]);
    expect(t?.sentence).toMatch(
      /^1 call named no tool of workplace_assistant, so Gym skipped it: call #0 crm_bulk_reassign skipped: KeyError/,
    );
  });

  it("names the call whose write made each differing cell, or the ground-truth action never called", () => {
    const t = triage(row(lineOf("wrong_end_state")));
    expect(t?.cause).toBe("wrong_end_state");
    expect(t?.traces?.length).toBeGreaterThan(0);
    expect(t?.sentence).toMatch(
      /never written|never removed|written by call #|added by call #|removed by call #/,
    );
    for (const trace of t?.traces ?? []) {
      if (trace.by !== null) expect(t?.decisive.map((d) => d.index)).toContain(trace.by);
      else expect(trace.expectedBy).not.toBeNull();
    }
  });

  it("puts malformed before missing task data, and missing task data before drift and identity", () => {
    const both = row(lineOf("malformed_no_call_id"));
    delete both.ground_truth;
    expect(triage(both)?.cause).toBe("malformed");
    const aliasesNoData = row(lineOf("identity_contract"));
    delete aliasesNoData.ground_truth;
    expect(triage(aliasesNoData)?.cause).toBe("missing_task_data");
    expect(triage(aliasesNoData)?.sentence).toMatch(
      /task data workplace_assistant.s verifier needs is missing/,
    );
  });

  it("explains a negative reward as a failed rollout: blackjack's -1 for a loss gets a cause and is counted", () => {
    const text = readFileSync(
      join(ROOT, "fixtures/gym-examples/resources_servers/blackjack/data/example_rollouts.jsonl"),
      "utf8",
    );
    const lines = text
      .trim()
      .split("\n")
      .map((line) => asRollout(JSON.parse(line)));
    const recorded = lines.map((rollout) => rollout.reward);
    expect(recorded).toEqual([-1, 1, -1, 1, 1]);
    const rows = lines.map((rollout, i) => runRow(i + 1, rollout, { server: "blackjack" }));
    expect(rows.map((r) => r.cause)).toEqual(["no_verifier_port", null, "no_verifier_port", null, null]);
    expect(rows[0]?.cause_sentence).toBe(
      "This project has no port of blackjack's verifier: the recorded -1 is shown as Gym wrote it and cannot be re-checked here.",
    );
    const summary = summarizeTriage(rows);
    expect(summary).toMatchObject({ total: 5, scored: 5, zero: 2, negative: 2 });
    expect(summary.lines.no_verifier_port).toEqual([1, 3]);
    // Gym's 0 is unchanged: a 0 is a zero and not a negative one.
    expect(
      summarizeTriage(rows.map((r) => ({ ...r, recorded: r.recorded === -1 ? 0 : r.recorded }))),
    ).toMatchObject({
      zero: 2,
      negative: 0,
    });
    expect(isZeroReward(1, null, 0.5)).toBe(false);
    expect(isZeroReward(-0.49, null, null)).toBe(true);
  });

  it("tells a server without a verifier port here from missing task data and from no server", () => {
    // Gym's own code_gen rollouts, paired with their task rows: nothing is missing, only the port.
    const dir = join(ROOT, "fixtures/gym-examples/resources_servers/code_gen/data");
    const read = (file: string) =>
      readFileSync(join(dir, file), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const [first] = read("example_rollouts.jsonl");
    const [input] = read("example.jsonl");
    const noPort = triage(first, { server: "code_gen", input });
    expect(first?.reward).toBe(0);
    expect(noPort).toMatchObject({ cause: "no_verifier_port", recorded: 0, contract: null });
    expect(noPort?.sentence).toBe(
      "This project has no port of code_gen's verifier: the recorded 0 is shown as Gym wrote it and cannot be re-checked here.",
    );
    expect(ZERO_CAUSE_LABELS.no_verifier_port).toBe("Unverifiable here (no verifier port)");
    expect(ZERO_CAUSE_HINTS.no_verifier_port).not.toMatch(/materialized inputs/);
    // The same line with no server named anywhere: nothing chose the verifier.
    expect(triage(first)).toMatchObject({ cause: "no_server" });
    expect(ZERO_CAUSE_HINTS.no_server).not.toMatch(/materialized inputs/);
    expect(ZERO_CAUSE_HINTS.missing_task_data).toMatch(/materialized inputs/);
    // A cause that says this project could not re-check the reward is named so, never like an agent's failure.
    const unverifiable = ["no_server", "no_verifier_port", "missing_task_data", "verifier_error"] as const;
    for (const cause of ZERO_CAUSES)
      expect(ZERO_CAUSE_LABELS[cause].startsWith("Unverifiable"), cause).toBe(
        unverifiable.some((c) => c === cause),
      );
  });

  it("puts a rejected call before the wrong end state it causes", () => {
    const line = lineOf("tool_failed_error");
    const verified = verify(row(line));
    expect(verified.reward).toBe(0);
    const t = triage(row(line), { contract: verified });
    expect(t).toMatchObject({ cause: "tool_failed", failed_calls: [0] });
    expect(t?.sentence).toMatch(/^1 call rejected by the tool: call #0 /);
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

  it("triages a rollout when any of its three rewards is 0", () => {
    // Recorded 1 = contract 1, legacy 0: a zero only in the legacy view, and the names decided it.
    const value = row(lineOf("identity_contract"));
    value.reward = 1;
    expect(triage(value)).toMatchObject({ cause: "identity", reproduced_by: "contract", recomputed: 0 });
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

describe("callBadges", () => {
  it("badges each call with what it did in the verifier's replay", () => {
    const skipped = verify(row(lineOf("aliases_no_map")));
    const badges = callBadges(skipped, skipped.resolution.calls.length);
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) expect(badge).toMatchObject({ kind: "skipped", text: /^no tool named mcp_/ });

    const wrote = verify(row(lineOf("wrong_end_state")));
    expect(callBadges(wrote, wrote.resolution.calls.length)[0]).toMatchObject({
      kind: "wrote",
      text: /^emails\./,
    });

    const refused = verify(row(lineOf("tool_failed_refused")));
    expect(callBadges(refused, 1)[0]).toEqual({
      kind: "refused",
      text: "Event ID, field, or new value not provided.",
    });
    // A call the verifier never ran (beyond its list) is "not called".
    expect(callBadges(refused, refused.resolution.calls.length + 1).at(-1)).toMatchObject({
      kind: "not_called",
    });
  });

  it("says nothing about calls another verifier does not report", () => {
    const value = row(lineOf("pass"));
    const result = verify({ ...value, environment_name: "example_multi_step" });
    expect(callBadges(result, 2).every((badge) => badge === null || badge.kind === "judged")).toBe(true);
  });
});

describe("triageHeading", () => {
  it("says zero when a reward is 0, below zero when every one that needs a cause is negative", () => {
    expect(triageHeading({ recorded: 0, contract: 1, legacy: 0 })).toBe("Why zero");
    expect(triageHeading({ recorded: -1, contract: 0, legacy: null })).toBe("Why zero");
    expect(triageHeading({ recorded: -1, contract: -1, legacy: -1 })).toBe("Why below zero");
    expect(triageHeading({ recorded: -0.5, contract: null, legacy: 1 })).toBe("Why below zero");
  });
});

describe("reproducedText", () => {
  it("counts the rollouts no policy could be compared on, and says when legacy reproduces more", () => {
    let at = 0;
    const line = (recorded: number | null, contract: number | null, legacy: number | null) => ({
      line: ++at,
      recorded,
      contract,
      legacy,
      cause: null,
      what_if_map: null,
      text_call: false,
    });
    const text = reproducedText(
      summarizeTriage([line(1, 1, 1), line(0, 1, 0), line(0, 1, 0), line(1, null, null), line(null, 1, 1)]),
    );
    expect(text).toBe(
      `Recorded reward reproduced by both policies 1, contract only 0, legacy only 2, neither 0; not comparable 2 (no recorded reward, or neither policy verified it). Mostly legacy: ${REPRODUCTION_TEXT.legacy}.`,
    );
    expect(reproducedText(summarizeTriage([line(1, 1, 1)]))).toBe(
      "Recorded reward reproduced by both policies 1, contract only 0, legacy only 0, neither 0.",
    );
  });
});

describe("fixedByMapText", () => {
  const line = (n: number, reward: number | null, what_if_map: string | null) => ({
    line: n,
    // Contract and legacy scored it 0: it has a cause, whatever it recorded.
    cause: "tool_failed" as const,
    recorded: reward,
    contract: 0,
    legacy: 0,
    what_if_map,
    text_call: false,
  });

  it("counts the view's zeros a map rescues among its zeros, with the harnesses, and none is no sentence", () => {
    const some = summarizeTriage([line(1, 0, "hermes-legacy"), line(2, 0, null), line(3, 1, null)]);
    expect(fixedByMapText(some)).toBe(
      '1 of the 2 zeros (counted as "Call rejected or no such tool") scores above 0 with a provenance map for its calls (harness what-if, hermes-legacy): the tool names, not the agent, lost that reward. Repair derives that map from the harness\'s exact aliases.',
    );
    const one = summarizeTriage([line(1, 0, "openclaw"), line(2, 1, null)]);
    expect(fixedByMapText(one)).toMatch(
      /^The zero \(counted as "Call rejected or no such tool"\) scores above 0 with a provenance map for its calls \(harness what-if, openclaw\): .* lost that reward\./,
    );
    const all = summarizeTriage([line(1, 0, "hermes-legacy"), line(2, 0, "claude-code")]);
    expect(fixedByMapText(all)).toMatch(
      /^All 2 zeros \(counted as "Call rejected or no such tool"\) score above 0 .*\(harness what-if, claude-code, hermes-legacy\)/,
    );
    expect(fixedByMapText(summarizeTriage([line(1, 0, null)]))).toBeNull();
  });

  it("adds runs' breakdowns up to what one breakdown of all their rows counts (a folder's files)", () => {
    const rows = [
      line(1, 0, "hermes-legacy"),
      line(2, 0, null),
      line(3, 1, "openclaw"),
      line(4, -1, "claude-code"),
    ];
    const whole = summarizeTriage(rows);
    const added = addTriages([summarizeTriage(rows.slice(0, 2)), summarizeTriage(rows.slice(2))]);
    expect(added).toEqual({
      total: whole.total,
      scored: whole.scored,
      zero: whole.zero,
      negative: whole.negative,
      counts: whole.counts,
      drifted: whole.drifted,
      fixed_by_map: whole.fixed_by_map,
      text_calls: whole.text_calls,
    });
    expect(fixedByMapText(added)).toBe(fixedByMapText(whole));
  });

  it("counts the zeros that wrote their call as text, in one sentence, added up over a folder's files", () => {
    const rows = [line(1, 0, null), line(2, 0, null), line(3, 0, null), line(4, 1, null)].map((row, i) => ({
      ...row,
      text_call: i !== 1,
    }));
    const whole = summarizeTriage(rows);
    // Line 4 scored 1: no zero, whatever its text.
    expect(whole.text_calls).toEqual([1, 3]);
    expect(textCallsText(whole)).toBe(
      "2 of the 3 zeros write their tool call as text and make no function_call (<tool_call>, [TOOL_CALLS], a JSON call object…): Gym reads function_call items only, so the model server's tool-call parser did not extract them.",
    );
    expect(
      addTriages([summarizeTriage(rows.slice(0, 2)), summarizeTriage(rows.slice(2))]).text_calls,
    ).toEqual([1, 3]);
    expect(textCallsText(summarizeTriage(rows.slice(1, 2)))).toBeNull();
  });

  it("counts in the view chosen: a rollout recorded 1 is no recorded zero, though contract scored it 0", () => {
    const rows = [line(1, 1, "hermes-legacy"), line(2, 0, "hermes-legacy")];
    expect(summarizeTriage(rows, "recorded").fixed_by_map.lines).toEqual([2]);
    expect(summarizeTriage(rows, "contract").fixed_by_map.lines).toEqual([1, 2]);
  });
});
