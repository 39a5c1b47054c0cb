/**
 * Generates the bundled samples in public/samples/ from the project's copies of NeMo Gym data:
 * synthetic workplace_assistant rollouts over the Gym example tasks (every call status, the compare runs, a
 * no-echo run with its materialized inputs) and verbatim copies of Gym's own example rollouts.
 * Deterministic: no clock, no randomness. Run with `npm run samples`; `--check` exits 1 when a file is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { aliasFor } from "../lib/harness";
import type { HarnessId } from "../lib/harness/types";
import type { CallStatus } from "../lib/identity/types";
import { rolloutOrThrow } from "../lib/schemas";
import { workplaceAssistantVerifier } from "../lib/verifiers/workplace_assistant";
import { createRegistry, verifyRollout } from "../lib/verify";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SAMPLES_DIR = "public/samples";
const GYM = "fixtures/nemo-gym";
const WORKPLACE_TASKS = `${GYM}/resources_servers/workplace_assistant/data/example.jsonl`;
const SERVER = "workplace_assistant";
/** Fixed response timestamp (2023-11-30 23:59:00 UTC, the tasks' "today"), plus one second per line. */
const BASE_CREATED_AT = 1701388740;
const MODEL = "sample-model";

/** Gym's real example rollouts, copied byte for byte. */
const GYM_EXAMPLE_SERVERS = [
  "workplace_assistant",
  "math_advanced_calculations",
  "indirect_prompt_injection",
  "example_tool_call_multireward",
  "example_mcp_weather",
] as const;

const GroundTruthCallSchema = z.object({ name: z.string(), arguments: z.string() });
const TaskSchema = z.looseObject({
  id: z.number().int(),
  responses_create_params: z.looseObject({}),
  ground_truth: z.array(GroundTruthCallSchema),
  category: z.string(),
  environment_name: z.literal(SERVER),
});
type Task = z.infer<typeof TaskSchema>;

export interface SampleIndexEntry {
  readonly file: string;
  readonly title: string;
  readonly description: string;
  readonly server: string;
  readonly kind: "rollouts" | "inputs";
}

/** What one generated rollout is meant to show, checked by the test against lib/identity. */
export interface RolloutIntent {
  readonly file: string;
  /** 0-based line in the file. */
  readonly line: number;
  readonly scenario: string;
  readonly harness: HarnessId | null;
  /** Per function_call, the status the contract policy must give. */
  readonly statuses: readonly CallStatus[];
  readonly orphanKeys?: readonly string[];
}

export interface GeneratedSamples {
  /** path relative to the repository root -> exact file content */
  readonly files: ReadonlyMap<string, string>;
  readonly intents: readonly RolloutIntent[];
}

function readRepoFile(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

function loadTasks(): Task[] {
  return readRepoFile(WORKPLACE_TASKS)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      const parsed = TaskSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${WORKPLACE_TASKS} line ${i + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

// ---------------------------------------------------------------------------------------------------------
// Trajectories

/** One call the model makes: the raw identity it meant, how it was emitted, and its provenance entry. */
interface Call {
  /** Raw tool on `server` (for ground-truth calls, the workplace tool name). */
  readonly tool: string;
  readonly server: string;
  readonly arguments: string;
  /** Emitted name; default: the harness alias of (server, tool), or the bare tool for HTTP. */
  readonly emitted?: string;
  /** call_id; `null` leaves the key out. Default: a fresh id. */
  readonly callId?: string | null;
  /** The provenance entry for this call, verbatim; `undefined` means no entry. Default: {server, tool}. */
  readonly entry?: unknown;
  readonly status: CallStatus;
  /** Tool result text; default a success message for the tool. */
  readonly result?: string;
}

/** Marks a call that has a call_id but no provenance entry (a non-MCP call under an authoritative map). */
const NO_ENTRY = Symbol("no provenance entry");

type Naming = { readonly kind: "http" } | { readonly kind: "mcp"; readonly harness: HarnessId };

const HTTP: Naming = { kind: "http" };
const mcp = (harness: HarnessId): Naming => ({ kind: "mcp", harness });

/** Illustrative tool results; the samples only need them to look like Gym's `{"output": ...}` strings. */
const TOOL_RESULTS: Readonly<Record<string, string>> = {
  email_reply_email: "Email replied successfully.",
  email_send_email: "Email sent successfully.",
  calendar_update_event: "Event updated successfully.",
  customer_relationship_manager_update_customer: "Customer updated successfully.",
  customer_relationship_manager_delete_customer: "Customer deleted successfully.",
  email_search_emails: "[]",
  create_issue: "Created issue #128.",
};

const FINAL_TEXT: Readonly<Record<string, string>> = {
  workplace_assistant_email: "I replied to the email.",
  workplace_assistant_calendar: "The event is updated.",
  workplace_assistant_customer_relationship_manager: "The customer records are updated.",
};

/** Gym writes tool results with Python's json.dumps, which puts a space after the colon. */
function toolOutput(call: Call): string {
  return `{"output": ${JSON.stringify(call.result ?? TOOL_RESULTS[call.tool] ?? "ok")}}`;
}

function emittedName(naming: Naming, server: string, tool: string): string {
  return naming.kind === "http" ? tool : aliasFor(naming.harness, server, tool);
}

function agentName(naming: Naming): string {
  return naming.kind === "http" ? "http_agent" : `${naming.harness}_agent`;
}

/** The task's ground truth as calls of the verifying server. */
function groundTruthCalls(task: Task, status: CallStatus): Call[] {
  return task.ground_truth.map((g) => ({ tool: g.name, server: SERVER, arguments: g.arguments, status }));
}

/** Python json.dumps layout (", " and ": "), as Gym's ground-truth argument strings are written. */
function pythonJson(record: Readonly<Record<string, unknown>>): string {
  return `{${Object.entries(record)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(", ")}}`;
}

const ArgumentsSchema = z.record(z.string(), z.unknown());
const MISSING_ID = "00000000";

/** A wrong answer: the last call's first argument (an id in every example task) points at nothing. */
function withWrongArgument(calls: readonly Call[]): Call[] {
  const last = calls.at(-1);
  if (last === undefined) return [...calls];
  const args = ArgumentsSchema.parse(JSON.parse(last.arguments));
  const key = Object.keys(args)[0];
  if (key === undefined) return [...calls];
  args[key] = MISSING_ID;
  const wrong: Call = {
    ...last,
    arguments: pythonJson(args),
    result: `Error: ${key} ${MISSING_ID} not found.`,
  };
  return [...calls.slice(0, -1), wrong];
}

interface RolloutSpec {
  readonly task: Task;
  readonly taskIndex: number;
  readonly rolloutIndex: number;
  readonly naming: Naming;
  readonly calls: readonly Call[];
  /** `absent` leaves the key out; `fromCalls` builds {call_id: entry}; otherwise the value verbatim. */
  readonly provenance: "absent" | "fromCalls" | { readonly value: unknown };
  /** Extra map keys that match no call (orphans). */
  readonly orphans?: Readonly<Record<string, unknown>>;
  /** Echo the task fields on the rollout line, as Gym does (false for the no-echo sample). */
  readonly echo?: boolean;
  readonly scenario: string;
}

function buildRollout(spec: RolloutSpec, tag: string, line: number): Record<string, unknown> {
  const output: unknown[] = [];
  const provenance: Record<string, unknown> = {};
  spec.calls.forEach((call, k) => {
    const callId = call.callId === undefined ? `call_${tag}_${line}_${k}` : call.callId;
    const fc: Record<string, unknown> = { type: "function_call", id: `fc_${tag}_${line}_${k}` };
    if (callId !== null) fc.call_id = callId;
    fc.name = call.emitted ?? emittedName(spec.naming, call.server, call.tool);
    fc.arguments = call.arguments;
    fc.status = "completed";
    output.push(fc);
    const result: Record<string, unknown> = { type: "function_call_output" };
    if (callId !== null) result.call_id = callId;
    result.output = toolOutput(call);
    output.push(result);
    const entry = call.entry === undefined ? { server_name: call.server, tool_name: call.tool } : call.entry;
    if (callId !== null && entry !== NO_ENTRY) provenance[callId] = entry;
  });
  output.push({
    id: `msg_${tag}_${line}`,
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: FINAL_TEXT[spec.task.category] ?? "Done.", annotations: [] }],
  });

  const rollout: Record<string, unknown> = {
    _ng_task_index: spec.taskIndex,
    _ng_rollout_index: spec.rolloutIndex,
    agent_ref: { name: agentName(spec.naming) },
  };
  if (spec.echo !== false) {
    rollout.id = spec.task.id;
    rollout.ground_truth = spec.task.ground_truth;
    rollout.category = spec.task.category;
    rollout.environment_name = spec.task.environment_name;
  }
  rollout.responses_create_params = spec.task.responses_create_params;
  rollout.response = {
    id: `resp_${tag}_${line}`,
    object: "response",
    created_at: BASE_CREATED_AT + line,
    model: MODEL,
    output,
    parallel_tool_calls: false,
    tool_choice: "auto",
    tools: [],
    status: "completed",
  };
  if (spec.provenance === "fromCalls") rollout.mcp_tool_call_provenance = { ...provenance, ...spec.orphans };
  else if (spec.provenance !== "absent") rollout.mcp_tool_call_provenance = spec.provenance.value;
  return rollout;
}

/** Input row of the materialized inputs file: the task plus the Gym keys that pair it with its rollout. */
function inputRow(spec: RolloutSpec): Record<string, unknown> {
  return {
    _ng_task_index: spec.taskIndex,
    _ng_rollout_index: spec.rolloutIndex,
    agent_ref: { name: agentName(spec.naming) },
    id: spec.task.id,
    ground_truth: spec.task.ground_truth,
    category: spec.task.category,
    environment_name: spec.task.environment_name,
    responses_create_params: spec.task.responses_create_params,
  };
}

const registry = createRegistry([workplaceAssistantVerifier]);

/**
 * The reward a Gym run before provenance would have recorded: the workplace verifier under policy `legacy`
 * (the map ignored; only the exact `mcp__workplace_assistant__` prefix is stripped).
 */
function legacyReward(rollout: Record<string, unknown>, input?: Record<string, unknown>): number {
  let result = verifyRollout(rolloutOrThrow(rollout), { server: SERVER, policy: "legacy", registry, input });
  if (result.unverified?.code === "gym_refuses") {
    // Gym's request model refuses a function_call without a string call_id (422), so a real run records no
    // reward for such a line; the sample shows what the verifier gives its calls, with stand-in call_ids.
    result = verifyRollout(rolloutOrThrow(withCallIds(rollout)), {
      server: SERVER,
      policy: "legacy",
      registry,
      input,
    });
  }
  if (result.reward === null) throw new Error(`legacy verification failed: ${result.error ?? "no reward"}`);
  return result.reward;
}

/** A copy whose function_calls without a string call_id get a stand-in one (the legacy names do not change). */
function withCallIds(rollout: Record<string, unknown>): Record<string, unknown> {
  const copy = z
    .looseObject({ response: z.looseObject({ output: z.array(z.unknown()) }) })
    .parse(structuredClone(rollout));
  copy.response.output = copy.response.output.map((item, i) => {
    const call = z.looseObject({ type: z.literal("function_call") }).safeParse(item);
    return call.success && typeof call.data.call_id !== "string"
      ? { ...call.data, call_id: `standin_${i}` }
      : item;
  });
  return copy;
}

// ---------------------------------------------------------------------------------------------------------
// Scenarios

const ALL_GT = (task: Task, status: CallStatus) => groundTruthCalls(task, status);

/** The harness matrix: one rollout per (naming, task). */
const MATRIX: readonly { naming: Naming; provenance: boolean; status: CallStatus; scenario: string }[] = [
  { naming: HTTP, provenance: false, status: "bare", scenario: "HTTP, bare names" },
  { naming: mcp("claude-code"), provenance: false, status: "legacy", scenario: "Claude Code, no provenance" },
  { naming: mcp("claude-code"), provenance: true, status: "canonical", scenario: "Claude Code, provenance" },
  {
    naming: mcp("hermes-legacy"),
    provenance: false,
    status: "bare",
    scenario: "Hermes legacy, no provenance",
  },
  {
    naming: mcp("hermes-legacy"),
    provenance: true,
    status: "canonical",
    scenario: "Hermes legacy, provenance",
  },
  { naming: mcp("openclaw"), provenance: true, status: "canonical", scenario: "OpenClaw, provenance" },
];

function harnessMatrix(tasks: readonly Task[]): RolloutSpec[] {
  return MATRIX.flatMap((v, vi) =>
    tasks.map((task, taskIndex) => ({
      task,
      taskIndex,
      rolloutIndex: vi,
      naming: v.naming,
      calls: ALL_GT(task, v.status),
      provenance: v.provenance ? "fromCalls" : "absent",
      scenario: v.scenario,
    })),
  );
}

function edgeCases(tasks: readonly Task[]): RolloutSpec[] {
  const t = (i: number): Task => {
    const task = tasks[i];
    if (!task) throw new Error(`the workplace example has no task ${i}`);
    return task;
  };
  const claude = mcp("claude-code");
  // Task 2 has three ground-truth calls, task 3 four: room for a mix of statuses in one rollout.
  const [a, b, c] = groundTruthCalls(t(2), "canonical");
  const [d, e, f, g] = groundTruthCalls(t(3), "canonical");
  if (!a || !b || !c || !d || !e || !f || !g) throw new Error("tasks 2 and 3 changed shape");
  const specs: Omit<RolloutSpec, "rolloutIndex">[] = [
    {
      scenario: "External github server exposing a tool with the same bare name as a workplace tool",
      task: t(0),
      taskIndex: 0,
      naming: claude,
      provenance: "fromCalls",
      calls: [
        {
          tool: "email_search_emails",
          server: "github",
          arguments: '{"query": "Task Update"}',
          status: "external",
        },
        { tool: "create_issue", server: "github", arguments: '{"title": "Reply sent"}', status: "external" },
        ...ALL_GT(t(0), "canonical"),
      ],
    },
    {
      scenario: "Near-miss server names (workplace-assistant, Workplace Assistant)",
      task: t(2),
      taskIndex: 2,
      naming: claude,
      provenance: "fromCalls",
      calls: [
        { ...a, server: "workplace-assistant", status: "external" },
        { ...b, server: "Workplace Assistant", status: "external" },
        c,
      ],
    },
    {
      scenario: "Duplicate call_ids",
      task: t(2),
      taskIndex: 2,
      naming: claude,
      provenance: "fromCalls",
      calls: [
        a,
        { ...b, callId: "call_dup", status: "duplicate" },
        { ...c, callId: "call_dup", status: "duplicate" },
      ],
    },
    {
      scenario: "Malformed provenance entries (missing tool_name, whitespace-only server_name)",
      task: t(3),
      taskIndex: 3,
      naming: mcp("hermes-legacy"),
      provenance: "fromCalls",
      calls: [
        d,
        { ...e, entry: { server_name: SERVER }, status: "malformed" },
        { ...f, entry: { server_name: "   ", tool_name: f.tool }, status: "malformed" },
        { ...g, entry: "workplace_assistant", status: "malformed" },
      ],
    },
    {
      scenario: "Provenance map that is not an object (every call malformed)",
      task: t(1),
      taskIndex: 1,
      naming: claude,
      provenance: { value: [{ server_name: SERVER, tool_name: "calendar_update_event" }] },
      calls: ALL_GT(t(1), "malformed"),
    },
    {
      scenario: "Empty {} map: authoritative, so every call is non-MCP",
      task: t(0),
      taskIndex: 0,
      naming: claude,
      provenance: { value: {} },
      calls: ALL_GT(t(0), "non_mcp"),
    },
    {
      scenario: "A call without call_id, and a non-MCP call next to MCP ones",
      task: t(3),
      taskIndex: 3,
      naming: mcp("openclaw"),
      provenance: "fromCalls",
      calls: [
        d,
        { ...e, callId: null, status: "uncorrelated" },
        { ...f, emitted: f.tool, entry: NO_ENTRY, status: "non_mcp" },
        g,
      ],
    },
    {
      scenario: "Orphan provenance keys (entries that match no call)",
      task: t(1),
      taskIndex: 1,
      naming: claude,
      provenance: "fromCalls",
      orphans: {
        call_orphan_0: { server_name: SERVER, tool_name: "calendar_search_events" },
        call_orphan_1: { server_name: "github", tool_name: "create_issue" },
      },
      calls: ALL_GT(t(1), "canonical"),
    },
    {
      scenario: "null map: a historical trajectory (legacy fallback for Claude Code names)",
      task: t(4),
      taskIndex: 4,
      naming: claude,
      provenance: { value: null },
      calls: ALL_GT(t(4), "legacy"),
    },
  ];
  // Rollout indices continue after the harness matrix's six per task.
  const nextIndex = new Map<number, number>();
  return specs.map((s) => {
    const rolloutIndex = nextIndex.get(s.taskIndex) ?? MATRIX.length;
    nextIndex.set(s.taskIndex, rolloutIndex + 1);
    return { ...s, rolloutIndex };
  });
}

/** The same trajectories for the compare view: two per task, the second with one wrong argument. */
function compareRun(
  tasks: readonly Task[],
  naming: Naming,
  provenance: boolean,
  status: CallStatus,
): RolloutSpec[] {
  return tasks.flatMap((task, taskIndex) =>
    [0, 1].map((rolloutIndex) => {
      const calls = ALL_GT(task, status);
      return {
        task,
        taskIndex,
        rolloutIndex,
        naming,
        calls: rolloutIndex === 0 ? calls : withWrongArgument(calls),
        provenance: provenance ? "fromCalls" : "absent",
        scenario: `${naming.kind === "http" ? "HTTP" : naming.harness}${provenance ? " with provenance" : ""}, rollout ${rolloutIndex}`,
      } satisfies RolloutSpec;
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Files

function jsonl(rows: readonly unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join("");
}

function specKey(spec: RolloutSpec): string {
  return `${spec.taskIndex}/${spec.rolloutIndex}`;
}

function intentOf(file: string, line: number, spec: RolloutSpec): RolloutIntent {
  return {
    file,
    line,
    scenario: spec.scenario,
    harness: spec.naming.kind === "http" ? null : spec.naming.harness,
    statuses: spec.calls.map((c) => c.status),
    ...(spec.orphans ? { orphanKeys: Object.keys(spec.orphans) } : {}),
  };
}

function rolloutFile(
  file: string,
  tag: string,
  specs: readonly RolloutSpec[],
  intents: RolloutIntent[],
  inputs?: ReadonlyMap<string, Record<string, unknown>>,
): string {
  const rows = specs.map((spec, line) => {
    const rollout = buildRollout(spec, tag, line);
    const input = inputs?.get(specKey(spec));
    rollout.reward = legacyReward(rollout, input);
    intents.push(intentOf(file, line, spec));
    return rollout;
  });
  return jsonl(rows);
}

const SOURCE_MD = `# Bundled samples

Generated by \`npm run samples\` (\`scripts/make-samples.ts\`); do not edit by hand. \`scripts/make-samples.test.ts\`
checks that regenerating gives these exact bytes and that the samples cover every call status.

## Gym example rollouts (verbatim)

\`gym-<server>-example_rollouts.jsonl\` are byte-for-byte copies of
\`resources_servers/<server>/data/example_rollouts.jsonl\` from NVIDIA-NeMo/Gym
(https://github.com/NVIDIA-NeMo/Gym) at commit \`07d6b0d07b22fcf530b4c211dae2ee23100428e4\`, taken from the
project copies in \`fixtures/nemo-gym/\`. NeMo Gym is licensed under Apache-2.0; \`LICENSE\` here is its license
text. Caveats (see \`fixtures/nemo-gym/SOURCE.md\`): the workplace_assistant example rollouts carry no ground truth
and do not match the example tasks, and the example_mcp_weather rollouts are hand-written by Gym.

## Synthetic workplace_assistant rollouts

Built over the 5 tasks of Gym's \`resources_servers/workplace_assistant/data/example.jsonl\` (Apache-2.0). Each
trajectory is the task's ground-truth calls, emitted under one naming scheme, sometimes with one deliberate
mistake or one extra call. Tool results and final messages are illustrative, not what Gym's tools return.
Each rollout echoes the task fields (\`id\`, \`ground_truth\`, \`category\`, \`environment_name\`) except in
\`workplace-noecho.jsonl\`, whose task fields are only in \`workplace_materialized_inputs.jsonl\` (pair them by
\`(_ng_task_index, _ng_rollout_index)\`; the inputs are in reverse order on purpose). \`agent_ref.name\` is
\`<harness>_agent\` (\`http_agent\` for bare HTTP names). \`responses_create_params\` is the task's, with bare tool
names, as Gym stores it.

The recorded \`reward\` is what a Gym run before provenance would have recorded: the project's re-implementation
of the workplace_assistant verifier (\`lib/verifiers/workplace_assistant\`) under policy \`legacy\`, where the
provenance map is ignored and only an exact \`mcp__workplace_assistant__\` prefix is stripped. So Claude Code
names score like HTTP names, while Hermes legacy (\`mcp_workplace_assistant_…\`) and OpenClaw
(\`workplace_assistant__…\`) names score 0 unless provenance is honoured.

Emitted names come from \`lib/harness\` (\`aliasFor\`), so they follow each harness's real rule: OpenClaw, for
one, cuts \`workplace_assistant__customer_relationship_manager_delete_customer\` to its 64-character budget
(\`…_delete_custom\`). \`index.json\` describes each file.
`;

export function generateSamples(): GeneratedSamples {
  const tasks = loadTasks();
  const files = new Map<string, string>();
  const intents: RolloutIntent[] = [];
  const index: SampleIndexEntry[] = [];
  const add = (entry: SampleIndexEntry, content: string) => {
    files.set(`${SAMPLES_DIR}/${entry.file}`, content);
    index.push(entry);
  };

  add(
    {
      file: "workplace-harnesses.jsonl",
      title: "workplace_assistant: HTTP names and MCP harness aliases",
      description:
        "The 5 Gym example tasks solved correctly, emitted as bare HTTP names, Claude Code aliases with and without provenance, Hermes legacy aliases with and without provenance, and OpenClaw aliases with provenance. Recorded rewards are Gym's before provenance.",
      server: SERVER,
      kind: "rollouts",
    },
    rolloutFile("workplace-harnesses.jsonl", "h", harnessMatrix(tasks), intents),
  );
  add(
    {
      file: "workplace-edge-cases.jsonl",
      title: "workplace_assistant provenance edge cases",
      description:
        "An external github server, near-miss server names, duplicate call_ids, malformed entries, a non-object map, an empty {} map, a call without call_id, a non-MCP call, orphan provenance keys and a null map.",
      server: SERVER,
      kind: "rollouts",
    },
    rolloutFile("workplace-edge-cases.jsonl", "e", edgeCases(tasks), intents),
  );

  const compare: [string, string, string, Naming, boolean, CallStatus][] = [
    ["compare-http.jsonl", "Compare: HTTP run", "bare tool names", HTTP, false, "bare"],
    [
      "compare-mcp-claude.jsonl",
      "Compare: MCP run, Claude Code with provenance",
      "mcp__workplace_assistant__<tool> names with mcp_tool_call_provenance",
      mcp("claude-code"),
      true,
      "canonical",
    ],
    [
      "compare-mcp-hermes-noprov.jsonl",
      "Compare: MCP run, Hermes legacy without provenance",
      "mcp_workplace_assistant_<tool> names and no provenance map, so Gym scored them 0",
      mcp("hermes-legacy"),
      false,
      "bare",
    ],
  ];
  for (const [file, title, naming, scheme, provenance, status] of compare) {
    add(
      {
        file,
        title,
        description: `The same 10 trajectories (5 tasks x 2 rollouts, the second with one wrong argument) with ${naming}. Pairs with the other compare-*.jsonl files by (_ng_task_index, _ng_rollout_index).`,
        server: SERVER,
        kind: "rollouts",
      },
      rolloutFile(
        file,
        file.replace(/^compare-|\.jsonl$/g, ""),
        compareRun(tasks, scheme, provenance, status),
        intents,
      ),
    );
  }

  const noecho = compareRun(tasks, mcp("claude-code"), true, "canonical").map((s) => ({
    ...s,
    echo: false,
    scenario: `no echo: ${s.scenario}`,
  }));
  const inputRows = noecho.map(inputRow);
  const pairedInputs = new Map(noecho.map((spec, i) => [specKey(spec), inputRows[i] ?? inputRow(spec)]));
  add(
    {
      file: "workplace-noecho.jsonl",
      title: "workplace_assistant without echoed task fields",
      description:
        "Claude Code rollouts with provenance that carry no id, ground_truth, category or environment_name; open workplace_materialized_inputs.jsonl with them to verify.",
      server: SERVER,
      kind: "rollouts",
    },
    rolloutFile("workplace-noecho.jsonl", "n", noecho, intents, pairedInputs),
  );
  add(
    {
      file: "workplace_materialized_inputs.jsonl",
      title: "Materialized inputs for workplace-noecho.jsonl",
      description:
        "The task rows of workplace-noecho.jsonl, keyed by (_ng_task_index, _ng_rollout_index), in reverse order.",
      server: SERVER,
      kind: "inputs",
    },
    jsonl([...inputRows].reverse()),
  );

  for (const server of GYM_EXAMPLE_SERVERS) {
    add(
      {
        file: `gym-${server}-example_rollouts.jsonl`,
        title: `Gym example rollouts: ${server}`,
        description: `NeMo Gym's own resources_servers/${server}/data/example_rollouts.jsonl, verbatim (Apache-2.0).`,
        server,
        kind: "rollouts",
      },
      readRepoFile(`${GYM}/resources_servers/${server}/data/example_rollouts.jsonl`),
    );
  }

  files.set(`${SAMPLES_DIR}/index.json`, `${JSON.stringify(index, null, 2)}\n`);
  files.set(`${SAMPLES_DIR}/LICENSE`, readRepoFile(`${GYM}/LICENSE`));
  files.set(`${SAMPLES_DIR}/SOURCE.md`, SOURCE_MD);
  return { files, intents };
}

function main(args: readonly string[]): number {
  const { files } = generateSamples();
  const check = args.includes("--check");
  let stale = 0;
  for (const [path, content] of files) {
    const full = join(ROOT, path);
    let current: string | null = null;
    try {
      current = readFileSync(full, "utf8");
    } catch {
      current = null;
    }
    if (current === content) continue;
    stale++;
    if (check) console.error(`stale: ${path}`);
    else writeFileSync(full, content);
  }
  console.log(check ? `${stale} stale file(s) of ${files.size}` : `wrote ${stale} of ${files.size} file(s)`);
  return check && stale > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
