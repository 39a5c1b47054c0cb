import fc from "fast-check";
import type { Rollout } from "../schemas";
import { asRollout } from "../schemas/test-helpers";

/** Builders for small rollouts in identity and canonicalize tests. */

export interface CallSpec {
  readonly name: string;
  /** `undefined` leaves the key out; anything else is written as is. */
  readonly call_id?: unknown;
}

export function functionCallItem(spec: CallSpec, position: number): Record<string, unknown> {
  const item: Record<string, unknown> = {
    type: "function_call",
    name: spec.name,
    arguments: "{}",
    id: `fc_${position}`,
    status: "completed",
  };
  if ("call_id" in spec) item.call_id = spec.call_id;
  return item;
}

/** A rollout whose output interleaves each call with a message, so output positions differ from call indexes. */
export function rolloutWith(calls: readonly CallSpec[], provenance?: unknown): Rollout {
  const output: unknown[] = [{ type: "reasoning", id: "rs_0", summary: [] }];
  calls.forEach((spec, i) => {
    output.push(functionCallItem(spec, i));
    output.push({
      type: "function_call_output",
      call_id: typeof spec.call_id === "string" ? spec.call_id : "",
      output: "ok",
    });
  });
  output.push({
    type: "message",
    id: "msg_0",
    role: "assistant",
    content: [{ type: "output_text", text: "done" }],
  });
  const rollout: Record<string, unknown> = {
    responses_create_params: { input: [] },
    response: { id: "resp_0", output },
    reward: 0,
  };
  if (provenance !== undefined) rollout.mcp_tool_call_provenance = provenance;
  return asRollout(rollout);
}

/** Freezes a JSON value and everything inside it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const SERVERS = ["team store", "store", "workplace_assistant", "a__b"] as const;

/** Emitted names that exercise every row: legacy prefixes, other servers, other harness forms, plain names. */
function nameArb(server: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(`mcp__${server}__append`, `mcp__${server}__`, `mcp__${server}__ns__tool`, "raw_step"),
    fc.constantFrom("mcp__other__tool", `mcp_${server}_append`, `${server}__append`, "team-store__append"),
    fc.string({ maxLength: 12 }),
  );
}

const callIdArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("c0", "c1", "c2", "c3", "dup") },
  { weight: 1, arbitrary: fc.constantFrom("", null, 7, ["c0"]) },
);

function entryArb(server: string): fc.Arbitrary<unknown> {
  const serverName = fc.oneof(
    { weight: 3, arbitrary: fc.constant(server) },
    { weight: 2, arbitrary: fc.constantFrom("github", server.toUpperCase(), server.replace(/ /g, "-"), " ") },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );
  const toolName = fc.oneof(fc.constantFrom("append", "ns__tool", "", "\t"), fc.string({ maxLength: 6 }));
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ server_name: serverName, tool_name: toolName }) },
    { weight: 1, arbitrary: fc.record({ server_name: serverName, tool_name: toolName, note: fc.string() }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(null, "team store/append", [server, "append"], {}, { server_name: server }),
    },
  );
}

function mapArb(server: string): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, [], "map", 0, true) },
    {
      weight: 4,
      arbitrary: fc.dictionary(
        fc.constantFrom("c0", "c1", "c2", "c3", "dup", "orphan", ""),
        entryArb(server),
        {
          maxKeys: 6,
        },
      ),
    },
  );
}

export interface GeneratedCase {
  readonly server: string;
  readonly rollout: Rollout;
}

/** A rollout with 0-6 function_calls and any kind of provenance map, plus the verifying server. */
export const rolloutCaseArb: fc.Arbitrary<GeneratedCase> = fc.constantFrom(...SERVERS).chain((server) =>
  fc
    .record({
      calls: fc.array(
        fc
          .record({ name: nameArb(server), call_id: callIdArb, omitId: fc.boolean() })
          .map(({ name, call_id, omitId }): CallSpec => (omitId ? { name } : { name, call_id })),
        { maxLength: 6 },
      ),
      map: mapArb(server),
    })
    .map(({ calls, map }) => ({ server, rollout: rolloutWith(calls, map) })),
);

/** A valid provenance map whose entries only name servers other than `server`. */
export function foreignMapArb(server: string): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(
    fc.constantFrom("c0", "c1", "c2", "c3", "dup"),
    fc.record({
      server_name: fc
        .oneof(fc.constantFrom("github", server.toUpperCase(), `${server} `), fc.string({ minLength: 1 }))
        .filter((s) => s !== server && /\S/.test(s)),
      tool_name: fc.oneof(
        fc.constantFrom("append", "ns__tool"),
        fc.string({ minLength: 1 }).filter((s) => /\S/.test(s)),
      ),
    }),
    { maxKeys: 5 },
  );
}
