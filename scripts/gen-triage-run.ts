/**
 * Generates e2e/fixtures/triage-run.jsonl: a workplace_assistant run over Gym's 5 example tasks with a known
 * mix of zero-reward causes, so the why-zero triage (lib/triage) and the run metrics (lib/metrics) can be
 * checked against what each line was built to be. Each line's scenario is decided here, from how the line
 * is written (names, provenance, arguments, fields left out), never by running the library.
 *
 *   npx tsx scripts/gen-triage-run.ts          writes the file
 *   npx tsx scripts/gen-triage-run.ts --check  exits 1 when the committed file is stale
 *
 * Deterministic: no clock, no randomness. Every line carries `response.model` and `response.usage`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const TRIAGE_RUN_PATH = "e2e/fixtures/triage-run.jsonl";
const TASKS_PATH = "fixtures/nemo-gym/resources_servers/workplace_assistant/data/example.jsonl";
const SERVER = "workplace_assistant";
/** A Gym server with no verifier port in this project (Gym ships its example rollouts in fixtures/gym-examples). */
const UNPORTED_SERVER = "code_gen";
const BASE_CREATED_AT = 1701388740;

/** What a line was built to show; `cause` is the one expected zero cause, null for a non-zero rollout. */
export type Scenario =
  | "pass"
  | "identity_contract"
  | "aliases_no_map"
  | "drift_recorded_zero"
  | "truncated"
  | "model_error"
  | "no_output"
  | "task_wide_error"
  | "missing_task_data"
  | "no_server"
  | "no_verifier_port"
  | "malformed_no_call_id"
  | "not_a_rollout"
  | "malformed_arguments"
  | "no_tool_call"
  | "tool_failed_error"
  | "tool_failed_unknown"
  | "tool_failed_refused"
  | "wrong_end_state"
  | "wrong_end_state_recorded_one";

export const SCENARIO_CAUSE: Readonly<Record<Scenario, string | null>> = {
  pass: null,
  identity_contract: "identity",
  // Harness aliases without a map: the names are the agent's own under the contract (all bare), so the
  // calls named no tool of the server; not identity (the what-if's rescue is said in the sentence).
  aliases_no_map: "tool_failed",
  // Gym's calls, recorded 0: both policies score 1, so the recording matches neither.
  drift_recorded_zero: "drift",
  truncated: "truncated",
  model_error: "model_error",
  no_output: "no_output",
  // Every rollout of its task makes the same rejected call (the line alone is tool_failed).
  task_wide_error: "task_wide",
  missing_task_data: "missing_task_data",
  // No environment_name and nothing else that names a server.
  no_server: "no_server",
  // A Gym server this project has no verifier port for: the recorded 0 cannot be re-checked here.
  no_verifier_port: "no_verifier_port",
  malformed_no_call_id: "malformed",
  // No response.output: not a rollout at all, so an unreadable line beside the run, never triaged.
  not_a_rollout: null,
  malformed_arguments: "malformed",
  no_tool_call: "no_tool_call",
  tool_failed_error: "tool_failed",
  tool_failed_unknown: "tool_failed",
  tool_failed_refused: "tool_failed",
  wrong_end_state: "wrong_end_state",
  // Recorded 1, both policies 0: the recording matches neither.
  wrong_end_state_recorded_one: "drift",
};

/** The cause triageRollout gives the line alone (task_wide is decided over the run's rows). */
export function lineCause(scenario: Scenario): string | null {
  return scenario === "task_wide_error" ? "tool_failed" : SCENARIO_CAUSE[scenario];
}

/** The run: per task, its rollouts' scenarios (rollout index = position). */
export const PLAN: readonly (readonly Scenario[])[] = [
  ["pass", "pass", "identity_contract", "wrong_end_state", "no_tool_call", "tool_failed_error", "truncated"],
  ["pass", "aliases_no_map", "missing_task_data", "malformed_no_call_id", "wrong_end_state", "model_error"],
  ["pass", "pass", "pass", "tool_failed_unknown", "identity_contract", "malformed_arguments", "no_output"],
  ["wrong_end_state", "wrong_end_state_recorded_one", "no_tool_call", "not_a_rollout", "drift_recorded_zero"],
  [
    "pass",
    "tool_failed_refused",
    "aliases_no_map",
    "missing_task_data",
    "truncated",
    "model_error",
    "no_output",
  ],
  ["task_wide_error", "task_wide_error", "task_wide_error"],
  ["pass", "drift_recorded_zero", "wrong_end_state_recorded_one"],
  ["no_verifier_port", "pass", "no_server", "no_verifier_port", "no_server"],
];

export interface LineIntent {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly task: number;
  readonly rollout: number;
  readonly scenario: Scenario;
  readonly cause: string | null;
  readonly agent: string;
  readonly model: string;
  readonly recorded: number | null;
  readonly input_tokens: number;
  readonly output_tokens: number;
}

const TaskSchema = z.looseObject({
  id: z.number().int(),
  responses_create_params: z.looseObject({ input: z.array(z.unknown()) }),
  ground_truth: z.array(z.object({ name: z.string(), arguments: z.string() })),
  category: z.string(),
});
type Task = z.infer<typeof TaskSchema>;

function loadTasks(): Task[] {
  return readFileSync(join(ROOT, TASKS_PATH), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => TaskSchema.parse(JSON.parse(line)));
}

interface Call {
  name: string;
  arguments: unknown;
  callId: string | null;
}

const hermesLegacy = (tool: string) => `mcp_${SERVER}_${tool}`;

function agentOf(scenario: Scenario): string {
  return scenario === "identity_contract" || scenario === "aliases_no_map" ? "hermes_agent" : "http_agent";
}

/** The calls a scenario makes, from the task's ground truth. */
function callsOf(task: Task, scenario: Scenario, prefix: string): Call[] {
  const truth = task.ground_truth.map((action, i) => ({
    name: action.name,
    arguments: action.arguments,
    callId: `${prefix}_${i}`,
  }));
  switch (scenario) {
    case "pass":
    case "missing_task_data":
    case "no_server":
    case "no_verifier_port":
    case "not_a_rollout":
    case "drift_recorded_zero":
      return truth;
    case "identity_contract":
    case "aliases_no_map":
      return truth.map((c) => ({ ...c, name: hermesLegacy(c.name) }));
    case "truncated":
    // Cut off while it was still thinking, before any call.
    case "model_error":
    case "no_output":
      return [];
    case "malformed_no_call_id":
      return truth.map((c, i) => (i === 0 ? { ...c, callId: null } : c));
    case "malformed_arguments":
      return truth.map((c, i) => (i === 0 ? { ...c, arguments: { not: "a string" } } : c));
    case "no_tool_call":
      return [];
    case "tool_failed_error":
    case "task_wide_error":
      // An unexpected keyword argument: the tool raises TypeError and Gym skips the call.
      return truth.map((c, i) =>
        i === 0 ? { ...c, arguments: '{"email_id": "00000057", "text": "hi"}' } : c,
      );
    case "tool_failed_unknown":
      // A tool no harness names this way: not an alias, just a tool that does not exist.
      return [{ name: "crm_bulk_reassign", arguments: "{}", callId: `${prefix}_0` }, ...truth.slice(1)];
    case "tool_failed_refused":
      // A table-changing tool refuses an empty id, so nothing changes.
      return [
        {
          name: "calendar_update_event",
          arguments: '{"event_id": "", "field": "event_name", "new_value": "x"}',
          callId: `${prefix}_0`,
        },
        ...truth.slice(1),
      ];
    case "wrong_end_state":
    case "wrong_end_state_recorded_one":
      return wrongArgument(truth);
  }
}

/**
 * A wrong but well-formed action: with several calls the agent stops one short (every call it made ran); with
 * one, the call's last argument gets " (edited)" appended, which the tool accepts.
 */
function wrongArgument(calls: Call[]): Call[] {
  if (calls.length > 1) return calls.slice(0, -1);
  return calls.map((c, i) => {
    if (i !== calls.length - 1 || typeof c.arguments !== "string") return c;
    const args = z.record(z.string(), z.string()).parse(JSON.parse(c.arguments));
    const keys = Object.keys(args);
    const last = keys[keys.length - 1];
    if (last !== undefined) args[last] = `${args[last]} (edited)`;
    return { ...c, arguments: JSON.stringify(args) };
  });
}

/** What Gym recorded: 1 for rollouts right under Gym before provenance, and the recorded-1 drift. */
function recordedOf(scenario: Scenario): number {
  return scenario === "pass" || scenario === "wrong_end_state_recorded_one" ? 1 : 0;
}

const SUMMARY_TEXT =
  "## Done\n\nI made the change **you asked for**. <b>Raw HTML stays text</b>.\n\n- checked the record\n- updated it\n";

function buildLine(task: Task, taskIndex: number, rolloutIndex: number, scenario: Scenario, n: number) {
  const prefix = `call_t${taskIndex}_r${rolloutIndex}`;
  const calls = callsOf(task, scenario, prefix);
  const output: unknown[] = [];
  for (const call of calls) {
    output.push({
      type: "function_call",
      ...(call.callId === null ? {} : { call_id: call.callId }),
      name: call.name,
      arguments: call.arguments,
      status: "completed",
    });
    if (call.callId !== null)
      output.push({ type: "function_call_output", call_id: call.callId, output: '{"output": "ok"}' });
  }
  // A failed call and an empty generation end without a final message; the others say they are done.
  if (scenario !== "model_error" && scenario !== "no_output" && scenario !== "truncated")
    output.push({
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: SUMMARY_TEXT }],
    });
  const model = n % 3 === 0 ? "model-b" : "model-a";
  const inputTokens = 1000 + 37 * n;
  const outputTokens = scenario === "no_output" || scenario === "model_error" ? 0 : 50 + 11 * n;
  const response =
    scenario === "not_a_rollout"
      ? { id: `resp_${n}`, model, usage: usage(inputTokens, outputTokens) }
      : {
          id: `resp_${n}`,
          created_at: BASE_CREATED_AT + n,
          model,
          object: "response",
          output,
          usage: usage(inputTokens, outputTokens),
          ...health(scenario),
        };
  const fields = { id: task.id, ground_truth: task.ground_truth, category: task.category };
  const taskFields =
    scenario === "missing_task_data"
      ? { environment_name: SERVER }
      : scenario === "no_server"
        ? fields
        : { ...fields, environment_name: scenario === "no_verifier_port" ? UNPORTED_SERVER : SERVER };
  const provenance =
    scenario === "identity_contract"
      ? {
          mcp_tool_call_provenance: Object.fromEntries(
            task.ground_truth.map((action, i) => [
              `${prefix}_${i}`,
              { server_name: SERVER, tool_name: action.name },
            ]),
          ),
        }
      : {};
  const line = {
    _ng_task_index: taskIndex,
    _ng_rollout_index: rolloutIndex,
    agent_ref: { name: agentOf(scenario) },
    ...taskFields,
    responses_create_params: { input: task.responses_create_params.input },
    response,
    reward: recordedOf(scenario),
    ...provenance,
  };
  const intent: LineIntent = {
    line: n,
    task: taskIndex,
    rollout: rolloutIndex,
    scenario,
    cause: SCENARIO_CAUSE[scenario],
    agent: agentOf(scenario),
    model,
    recorded: recordedOf(scenario),
    input_tokens: inputTokens,
    output_tokens: outputTokens,
  };
  return { text: JSON.stringify(line), intent };
}

/** What the Responses API records about a call that failed or stopped early. */
function health(scenario: Scenario) {
  switch (scenario) {
    case "truncated":
      return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
    case "model_error":
      return {
        status: "failed",
        error: { code: "server_error", message: "The model backend returned 503." },
      };
    default:
      return { status: "completed" };
  }
}

function usage(input: number, output: number) {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/**
 * The file and what each line was built to show: `intents` for the rollouts, `unreadable` for the lines
 * that are not rollouts (lib/run counts them beside the rollouts, in no total).
 */
export function buildTriageRun(): { text: string; intents: LineIntent[]; unreadable: LineIntent[] } {
  const tasks = loadTasks();
  const lines: string[] = [];
  const intents: LineIntent[] = [];
  const unreadable: LineIntent[] = [];
  PLAN.forEach((scenarios, taskIndex) => {
    // More tasks than Gym's examples reuse them in turn (each keeps its own _ng_task_index).
    const task = tasks[taskIndex % tasks.length];
    if (task === undefined) throw new Error(`${TASKS_PATH} has no task ${taskIndex}`);
    scenarios.forEach((scenario, rolloutIndex) => {
      const built = buildLine(task, taskIndex, rolloutIndex, scenario, lines.length + 1);
      lines.push(built.text);
      (scenario === "not_a_rollout" ? unreadable : intents).push(built.intent);
    });
  });
  return { text: `${lines.join("\n")}\n`, intents, unreadable };
}

function main(): void {
  const { text } = buildTriageRun();
  const path = join(ROOT, TRIAGE_RUN_PATH);
  if (process.argv.includes("--check")) {
    const current = readFileSync(path, "utf8");
    if (current !== text) {
      console.error(`${TRIAGE_RUN_PATH} is stale: run npx tsx scripts/gen-triage-run.ts`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(path, text);
  console.error(`wrote ${TRIAGE_RUN_PATH}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
