/**
 * Writes a large synthetic NeMo Gym workplace_assistant rollouts file, to prove that readers stream it
 * with flat memory:
 *
 *   npx tsx scripts/gen-big-rollouts.ts OUT.jsonl --bytes 1e9 [--seed 1]
 *
 * An OUT ending in ".gz" is gzip-compressed (--bytes then counts uncompressed bytes). Each line is one
 * Gym-like rollout of 20-90 KiB: tools, response.output with function_call / function_call_output pairs
 * under a harness alias (bare, mcp__workplace_assistant__..., mcp_workplace_assistant_..., ...), a
 * provenance map on some MCP rollouts, a Python `NaN` token on a few, and a response cut off at
 * max_output_tokens on every TRUNCATED_EVERY-th. The output is deterministic for
 * a seed. Memory stays one rollout: each line is written with back-pressure before the next is built.
 */
import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { createGzip } from "node:zlib";
import { createRng, pick, type Rng } from "./rng";

// bench/hostile.bench.ts builds its inputs with this generator and its PRNG.
export { createRng, type Rng };

const MIN_ROLLOUT_BYTES = 20 * 1024;
const MAX_ROLLOUT_BYTES = 90 * 1024;
const DEFAULT_TARGET_BYTES = 1e9;
/** Share of MCP-style rollouts that carry an mcp_tool_call_provenance map. */
const PROVENANCE_RATE = 0.6;
/** One rollout in this many gets a Python NaN token (Gym's json.dumps writes them). */
const NAN_EVERY = 97;
/**
 * One rollout in this many was cut off by the model's output limit (response.status "incomplete",
 * incomplete_details.reason "max_output_tokens", no final message), as the Responses API records it.
 */
export const TRUNCATED_EVERY = 53;
const SERVER = "workplace_assistant";

const TOOLS: Array<[name: string, params: string[]]> = [
  ["company_directory_find_email_address", ["name"]],
  ["email_get_email_information_by_id", ["email_id", "field"]],
  ["email_search_emails", ["query", "date_min", "date_max", "page", "page_size"]],
  ["email_send_email", ["recipient", "subject", "body"]],
  ["email_delete_email", ["email_id"]],
  ["email_forward_email", ["email_id", "recipient"]],
  ["email_reply_email", ["email_id", "body"]],
  ["calendar_get_event_information_by_id", ["event_id", "field"]],
  ["calendar_search_events", ["query", "time_min", "time_max", "page", "page_size"]],
  ["calendar_create_event", ["event_name", "participant_email", "event_start", "duration"]],
  ["calendar_delete_event", ["event_id"]],
  ["calendar_update_event", ["event_id", "field", "new_value"]],
  ["analytics_get_visitor_information_by_id", ["visitor_id"]],
  ["analytics_create_plot", ["time_min", "time_max", "value_to_plot", "plot_type"]],
  ["analytics_total_visits_count", ["time_min", "time_max"]],
  ["analytics_engaged_users_count", ["time_min", "time_max"]],
  ["analytics_traffic_source_count", ["time_min", "time_max", "traffic_source"]],
  ["analytics_get_average_session_duration", ["time_min", "time_max"]],
  ["project_management_get_task_information_by_id", ["task_id", "field"]],
  ["project_management_search_tasks", ["task_name", "assigned_to_email", "list_name", "due_date", "board"]],
  ["project_management_create_task", ["task_name", "assigned_to_email", "list_name", "due_date", "board"]],
  ["project_management_delete_task", ["task_id"]],
  ["project_management_update_task", ["task_id", "field", "new_value"]],
  ["customer_relationship_manager_search_customers", ["customer_name", "status", "page", "page_size"]],
  ["customer_relationship_manager_update_customer", ["customer_id", "field", "new_value"]],
  ["customer_relationship_manager_add_customer", ["customer_name", "assigned_to_email", "status"]],
  ["customer_relationship_manager_delete_customer", ["customer_id"]],
];

/** How each harness shows a bare tool name to the model (docs/harness-aliases.md). */
const ALIAS_STYLES: Array<{ harness: string; mcp: boolean; alias: (tool: string) => string }> = [
  { harness: "http", mcp: false, alias: (t) => t },
  { harness: "claude_code", mcp: true, alias: (t) => `mcp__${SERVER}__${t}` },
  { harness: "codex", mcp: true, alias: (t) => `mcp_${SERVER}_${t}` },
  { harness: "openclaw", mcp: true, alias: (t) => `${SERVER}__${t}` },
];

const WORDS =
  "meeting update project budget review quarterly customer email follow up design backend frontend deadline report visits analytics task board lead proposal invoice schedule team sync launch".split(
    " ",
  );

const words = (rng: Rng, n: number): string => Array.from({ length: n }, () => pick(rng, WORDS)).join(" ");
const id8 = (rng: Rng): string => String(Math.floor(rng() * 500)).padStart(8, "0");

function toolSchema([name, params]: [string, string[]], alias: string) {
  const properties: Record<string, unknown> = {};
  for (const p of params) {
    properties[p] = {
      type: p === "page" || p === "page_size" ? "integer" : "string",
      description: `The ${p.replaceAll("_", " ")}. ${name.replaceAll("_", " ")} uses it.`,
    };
  }
  return {
    name: alias,
    parameters: { type: "object", properties, required: params.slice(0, 1), additionalProperties: false },
    strict: false,
    type: "function",
    description: `${name.replaceAll("_", " ")}: workplace tool.`,
  };
}

function searchResult(rng: Rng): Record<string, string> {
  return {
    email_id: id8(rng),
    inbox: "user@atlas.com",
    sender: `${pick(rng, WORDS)}.${pick(rng, WORDS)}@atlas.com`,
    subject: words(rng, 5),
    sent_datetime: `2023-11-${String(1 + Math.floor(rng() * 29)).padStart(2, "0")} 10:00:00`,
    body: words(rng, 40),
  };
}

/** One synthetic rollout line (without "\n"), between MIN_ROLLOUT_BYTES and MAX_ROLLOUT_BYTES long. */
export function makeRolloutLine(index: number, rng: Rng): string {
  const target = MIN_ROLLOUT_BYTES + Math.floor(rng() * (MAX_ROLLOUT_BYTES - MIN_ROLLOUT_BYTES));
  const style = pick(rng, ALIAS_STYLES);
  const output: unknown[] = [];
  const provenance: Record<string, { server_name: string; tool_name: string }> = {};
  const groundTruth: Array<{ name: string; arguments: string }> = [];
  const response: Record<string, unknown> = {
    id: `resp_${index}`,
    object: "response",
    model: "synthetic",
    status: "completed",
    output,
  };
  const rollout: Record<string, unknown> = {
    _ng_task_index: Math.floor(index / 4),
    _ng_rollout_index: index % 4,
    agent_ref: { name: `${style.harness}_agent` },
    id: index,
    category: `workplace_assistant_${pick(rng, ["email", "calendar", "analytics", "project_management", "crm"])}`,
    environment_name: SERVER,
    responses_create_params: {
      input: [
        {
          role: "system",
          type: "message",
          content: "Today's date is Thursday, 2023-11-30. Meetings 9am-6pm.",
        },
        { role: "user", type: "message", content: `Please ${words(rng, 12)}` },
      ],
      tools: TOOLS.map((tool) => toolSchema(tool, style.alias(tool[0]))),
      parallel_tool_calls: false,
      temperature: 1,
    },
    response,
    ground_truth: groundTruth,
  };
  let size = JSON.stringify(rollout).length;
  for (let call = 0; size < target; call++) {
    const tool = pick(rng, TOOLS);
    const callId = `call_${index}_${call}`;
    const args = JSON.stringify(Object.fromEntries(tool[1].map((p) => [p, words(rng, 2)])));
    const results = Array.from({ length: 1 + Math.floor(rng() * 6) }, () => searchResult(rng));
    const items = [
      { type: "reasoning", id: `rs_${callId}`, summary: [{ type: "summary_text", text: words(rng, 30) }] },
      {
        type: "function_call",
        call_id: callId,
        name: style.alias(tool[0]),
        arguments: args,
        status: "completed",
      },
      { type: "function_call_output", call_id: callId, output: JSON.stringify({ output: results }) },
    ];
    output.push(...items);
    provenance[callId] = { server_name: SERVER, tool_name: tool[0] };
    if (call === 0) groundTruth.push({ name: tool[0], arguments: args });
    size += JSON.stringify(items).length + 200;
  }
  const message = {
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: words(rng, 25), annotations: [] }],
  };
  // The text is drawn either way, so the seeded sequence (and every other line) does not change.
  if (index % TRUNCATED_EVERY === TRUNCATED_EVERY - 1) {
    response.status = "incomplete";
    response.incomplete_details = { reason: "max_output_tokens" };
  } else output.push(message);
  if (style.mcp && rng() < PROVENANCE_RATE) rollout.mcp_tool_call_provenance = provenance;
  rollout.reward = rng() < 0.5 ? 1.0 : 0.0;
  const line = JSON.stringify(rollout);
  // JSON.stringify cannot write NaN; splice the Python token in textually, outside any string.
  return index % NAN_EVERY === NAN_EVERY - 1 ? `${line.slice(0, -1)}, "judge_score": NaN}` : line;
}

/**
 * Whole rollout lines (each ending in "\n") of the seeded generator until at least `minBytes`, as UTF-8,
 * in memory: the benchmarks' inputs.
 */
export function makeRolloutsBytes(seed: number, minBytes: number): Uint8Array<ArrayBuffer> {
  const rng = createRng(seed);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < minBytes; i++) {
    const line = `${makeRolloutLine(i, rng)}\n`;
    lines.push(line);
    size += line.length;
  }
  return new TextEncoder().encode(lines.join(""));
}

function write(stream: Writable, chunk: string): Promise<void> {
  if (stream.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      stream.off("error", reject);
      resolve();
    };
    stream.once("drain", onDrain);
    stream.once("error", reject);
  });
}

export async function generate(
  out: string,
  targetBytes: number,
  seed: number,
): Promise<{ lines: number; bytes: number }> {
  const file = createWriteStream(out);
  const gzip = out.endsWith(".gz") ? createGzip() : null;
  if (gzip) gzip.pipe(file);
  const sink: Writable = gzip ?? file;
  const rng = createRng(seed);
  let bytes = 0;
  let lines = 0;
  while (bytes < targetBytes) {
    const line = `${makeRolloutLine(lines, rng)}\n`;
    await write(sink, line);
    bytes += Buffer.byteLength(line);
    lines++;
  }
  await new Promise<void>((resolve, reject) => {
    file.once("finish", resolve);
    file.once("error", reject);
    sink.end();
  });
  return { lines, bytes };
}

function parseArgs(argv: string[]): { out: string; bytes: number; seed: number } {
  let out: string | undefined;
  let bytes = DEFAULT_TARGET_BYTES;
  let seed = 1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--bytes" || arg === "--seed") {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value < 0) throw new Error(`${arg} needs a non-negative number`);
      if (arg === "--bytes") bytes = value;
      else seed = value;
    } else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`);
    else if (out === undefined) out = arg;
    else throw new Error(`unexpected argument ${arg}`);
  }
  if (out === undefined)
    throw new Error("usage: npx tsx scripts/gen-big-rollouts.ts OUT.jsonl[.gz] --bytes 1e9 [--seed N]");
  return { out, bytes, seed };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { out, bytes, seed } = parseArgs(process.argv.slice(2));
    const started = performance.now();
    const result = await generate(out, bytes, seed);
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `wrote ${result.lines} rollouts, ${result.bytes} bytes to ${out} in ${seconds.toFixed(1)} s\n`,
    );
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
