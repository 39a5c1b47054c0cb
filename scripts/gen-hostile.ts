/**
 * The hostile-input corpus of issue 10, generated (never committed as bytes) so every case is readable
 * here and the huge ones cost nothing in the repository:
 *
 *   npx tsx scripts/gen-hostile.ts OUTDIR        # writes every small case to OUTDIR, for probing by hand
 *
 * Tests (cli/hostile.test.ts, lib tests) import the builders below; the benchmark (bench/hostile.bench.ts)
 * builds the huge cases (16k- and 100k-call rollouts, megabytes of junk lines) at run time.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { aliasFor } from "../lib/harness";
import type { HarnessId } from "../lib/harness/types";
import { WORKPLACE_TOOLS as WORKPLACE_TOOL_NAMES } from "../lib/verifiers/workplace_assistant";

export const SERVER = "workplace_assistant";
const TOOLS = [
  "email_reply_email",
  "company_directory_find_email_address",
  "calendar_get_event_information_by_id",
];

export interface CallSpec {
  readonly name: string;
  readonly call_id?: string;
  readonly arguments?: string;
}

/** A minimal Gym-like rollout line (object) with the given function calls and extra top-level keys. */
export function rollout(
  calls: readonly CallSpec[],
  extra: Record<string, unknown> = {},
  task = 0,
): Record<string, unknown> {
  const output: unknown[] = [];
  calls.forEach((c, i) => {
    const callId = c.call_id ?? `call_${task}_${i}`;
    output.push({
      type: "function_call",
      call_id: callId,
      name: c.name,
      arguments: c.arguments ?? '{"email_id": "00000057", "body": "ok"}',
    });
    output.push({ type: "function_call_output", call_id: callId, output: "ok" });
  });
  return {
    _ng_task_index: task,
    _ng_rollout_index: 0,
    environment_name: SERVER,
    responses_create_params: { input: [{ role: "user", content: `task ${task}` }] },
    response: { output },
    reward: 1,
    ...extra,
  };
}

export const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const encode = (text: string) => new TextEncoder().encode(text);

/** `count` calls cycling through the workplace tools with a stride, so two strides differ throughout. */
export function manyCalls(count: number, stride: number, tag: string): CallSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    name: TOOLS[(i * stride) % TOOLS.length]!,
    call_id: `${tag}${i}`,
    arguments: `{"email_id": "${String(i % 50).padStart(8, "0")}", "body": "x"}`,
  }));
}

/** One rollout line with `count` calls (a 100k-call rollout is ~13 MB). */
export function longRolloutLine(count: number, stride: number, tag: string): string {
  return line(rollout(manyCalls(count, stride, tag)));
}

/**
 * What a long real run carries besides its calls (issue 23): every call a distinct call_id with its own
 * provenance entry, the harness's alias as the emitted name, the declared tools, a ground truth; and, for
 * the second shape, distinct arguments and outputs and a reasoning item before every call.
 */
export interface RealisticOptions {
  readonly harness: HarnessId;
  readonly distinctArguments: boolean;
  readonly reasoning: boolean;
}

/**
 * Workplace calls that replay without error, with their arguments (the i-th varies when asked). No search:
 * Gym's search scans the whole (growing) emails table per call, so a 100k-call rollout of searches is
 * quadratic in the verifier itself, in Gym as here.
 */
const REALISTIC_CALLS: readonly { tool: string; args: (i: number, distinct: boolean) => object }[] = [
  {
    tool: "email_reply_email",
    args: (i, d) => ({
      email_id: String(i % 50).padStart(8, "0"),
      body: d ? `Thanks for update ${i}; I will follow up on item ${(i * 7919) % 100_000} tomorrow.` : "ok",
    }),
  },
  {
    tool: "company_directory_find_email_address",
    args: (i, d) => ({ name: d ? `carl${i % 13}` : "carlos" }),
  },
  {
    tool: "calendar_get_event_information_by_id",
    args: (i, d) => ({ event_id: String(d ? i % 300 : 7).padStart(8, "0"), field: "event_name" }),
  },
];

/** A call_id shaped like a real one (`toolu_` + 24 base-36 characters), distinct per index. */
function realisticCallId(i: number): string {
  const a = ((i + 1) * 2_654_435_761) % 4_294_967_296;
  return `toolu_${a.toString(36).padStart(7, "0")}${i.toString(36).padStart(5, "0")}x${"0".repeat(11)}`.slice(
    0,
    30,
  );
}

/** One rollout (object) of `count` calls in the realistic shape above. */
export function realisticLongRollout(count: number, options: RealisticOptions): Record<string, unknown> {
  const output: unknown[] = [];
  const provenance: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const spec = REALISTIC_CALLS[i % REALISTIC_CALLS.length]!;
    const callId = realisticCallId(i);
    if (options.reasoning) {
      output.push({
        type: "reasoning",
        id: `rs_${i}`,
        summary: [
          {
            type: "summary_text",
            text: `Step ${i}: the last answer ${i % 3 === 0 ? "listed nothing new" : "named a thread"}, so ${spec.tool} next (attempt ${i % 17}).`,
          },
        ],
      });
    }
    output.push({
      type: "function_call",
      id: `fc_${i}`,
      call_id: callId,
      name: aliasFor(options.harness, SERVER, spec.tool),
      arguments: JSON.stringify(spec.args(i, options.distinctArguments)),
      status: "completed",
    });
    output.push({
      type: "function_call_output",
      call_id: callId,
      output: options.distinctArguments
        ? JSON.stringify({ ok: true, step: i, result: [`item ${i % 211}`, `thread ${(i * 31) % 1009}`] })
        : '{"ok": true}',
    });
    provenance[callId] = { server_name: SERVER, tool_name: spec.tool };
  }
  output.push({
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: "Done: every thread is answered." }],
  });
  return {
    _ng_task_index: 7,
    _ng_rollout_index: 0,
    agent_ref: { name: `${options.harness}_agent` },
    id: 7,
    category: "workplace_assistant_email",
    environment_name: SERVER,
    ground_truth: [
      { name: "email_search_emails", arguments: '{"query": "update", "page": 1, "page_size": 5}' },
      { name: "email_reply_email", arguments: '{"email_id": "00000057", "body": "ok"}' },
    ],
    responses_create_params: {
      input: [{ role: "user", content: "Answer every open thread." }],
      tools: WORKPLACE_TOOL_NAMES.map((tool) => ({
        type: "function",
        name: aliasFor(options.harness, SERVER, tool),
        description: `The ${SERVER} tool ${tool}.`,
        parameters: { type: "object", properties: {}, additionalProperties: true },
        strict: false,
      })),
    },
    response: { output },
    mcp_tool_call_provenance: provenance,
    reward: 0,
  };
}

/** Lines that are not JSON at all, `bytes` of them: the junk-line hot path. */
export function junkLines(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const junk = `junk line ${i} ${"#".repeat(i % 40)}\n`;
    parts.push(junk);
    size += junk.length;
  }
  return parts.join("");
}

/** Invisible, bidi-control and mixed-script spellings of the server name, each "looking like" it. */
export const SPOOFED_SERVERS = {
  zeroWidth: "workplace\u200b_assistant",
  bidi: "workplace_\u202eassistant",
  cyrillic: "w\u043erkplace_assistant",
} as const;

export const TERMINAL_ESCAPE = "\u001b[2J\u001b[31mOWNED\u0007\r";

/** Every small hostile case: file name -> bytes. */
export function hostileCorpus(): Record<string, Uint8Array> {
  const good = line(rollout([{ name: "email_reply_email" }], {}, 0));
  const good2 = line(
    rollout([{ name: "company_directory_find_email_address", arguments: '{"name": "carlos"}' }], {}, 1),
  );
  const plain = good + good2 + line(rollout([{ name: "email_reply_email" }], {}, 2));
  const gz = new Uint8Array(gzipSync(encode(plain)));
  const crc = gz.slice();
  crc[crc.length - 8] = crc[crc.length - 8]! ^ 0xff;
  const deep = `${'{"a":'.repeat(300_000)}0${"}".repeat(300_000)}`;
  return {
    "multi-member.jsonl.gz": concat(
      new Uint8Array(gzipSync(encode(good))),
      new Uint8Array(gzipSync(encode(good2))),
    ),
    "truncated.jsonl.gz": gz.subarray(0, Math.floor(gz.length * 0.7)),
    "bad-crc.jsonl.gz": crc,
    "bad-crc-no-final-newline.jsonl.gz": (() => {
      const g = new Uint8Array(gzipSync(encode(plain.slice(0, -1))));
      g[g.length - 8] = g[g.length - 8]! ^ 0xff;
      return g;
    })(),
    "deep-nesting.jsonl": encode(
      `${good}${JSON.stringify(rollout([{ name: "email_reply_email" }], {}, 1)).slice(0, -1)},"unrelated":${deep}}\n`,
    ),
    "non-rollout-lines.jsonl": encode(`42\n[]\nnull\n"text"\n${good}`),
    "output-item-without-type.jsonl": encode(
      line({
        ...rollout([{ name: "email_reply_email" }]),
        id: 0,
        category: "workplace_assistant_email",
        ground_truth: [{ name: "email_reply_email", arguments: "{}" }],
        response: { output: [{ call_id: "c0", name: "email_reply_email", arguments: "{}" }] },
      }),
    ),
    "terminal-escapes.jsonl": encode(
      line(
        rollout([{ name: `email_reply_email${TERMINAL_ESCAPE}` }], {
          environment_name: `${SERVER}${TERMINAL_ESCAPE}`,
        }),
      ),
    ),
    "spoofed-names.jsonl": encode(
      Object.values(SPOOFED_SERVERS)
        .map((server, i) =>
          line(
            rollout(
              [{ name: `mcp__${server}__email_reply_email`, call_id: `c\u200b${i}` }],
              {
                mcp_tool_call_provenance: {
                  [`c\u200b${i}`]: { server_name: server, tool_name: "email_reply_email" },
                },
              },
              i,
            ),
          ),
        )
        .join(""),
    ),
    "junk-lines.jsonl": encode(junkLines(64 * 1024)),
    "invalid-utf8.jsonl": concat(encode(good), new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a])),
    "prototype-keys.jsonl": encode(
      `{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}\n${good}`,
    ),
  };
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function main(argv: string[]): void {
  const [out] = argv;
  if (out === undefined) {
    process.stderr.write("usage: npx tsx scripts/gen-hostile.ts OUTDIR\n");
    process.exitCode = 2;
    return;
  }
  mkdirSync(out, { recursive: true });
  for (const [name, bytes] of Object.entries(hostileCorpus())) writeFileSync(join(out, name), bytes);
  process.stdout.write(`wrote ${Object.keys(hostileCorpus()).length} files to ${out}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main(process.argv.slice(2));
