import { z } from "zod";
import { formatIssues } from "./issues";
import { type FunctionCall, FunctionCallSchema, OutputItemSchema } from "./output-items";

/** The part of `response` this library needs; every other key (usage, id, incomplete_details, ...) is kept. */
export const ResponseSchema = z.looseObject(
  {
    output: z.array(OutputItemSchema, {
      error: "expected an array of output items (a rollout without response.output cannot be resolved)",
    }),
  },
  { error: "expected a Responses object with an output array" },
);

/**
 * One rollout line. Only `response.output` is required: old Gym fixtures carry little else, and unknown
 * keys are legal and kept (contract, "rollout"). The provenance map stays `unknown` here because its
 * shape decides the map state rather than the line's readability.
 */
export const RolloutSchema = z.looseObject(
  {
    response: ResponseSchema,
    responses_create_params: z.unknown().optional(),
    reward: z.unknown().optional(),
    mcp_tool_call_provenance: z.unknown().optional(),
  },
  { error: "the line is not a JSON object" },
);

/**
 * The one wording, in every front end, for a line whose JSON value is not an object (`42`, `[]`, `null`,
 * `"text"`): it is an unreadable line, never counted as a rollout. readRollout's error for such a value
 * has this message.
 */
export const NOT_A_ROLLOUT_OBJECT = "not a rollout: the line is not a JSON object";

/** True for a JSON object (not an array, not null): the only values that can be rollouts. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
export type Rollout = z.infer<typeof RolloutSchema>;

/**
 * Why a parsed JSON value is not a rollout: `not_an_object` (a number, array, string or null) or
 * `not_a_rollout` (an object that fails RolloutSchema). Either way the line is an unreadable line, never
 * counted as a rollout; `message` is the one wording every front end shows.
 */
export interface RolloutError {
  readonly kind: "not_an_object" | "not_a_rollout";
  /** Each reason with its path (`response.output.2.name: expected ...`). */
  readonly issues: readonly string[];
  /** `not a rollout: <issues>`. */
  readonly message: string;
}

export type ReadRolloutResult =
  | { readonly ok: true; readonly rollout: Rollout }
  | ({ readonly ok: false } & RolloutError);

/**
 * A type guard backed by the whole schema. It returns the value itself rather than zod's parsed copy: that
 * copy puts the schema's keys first and drops a `__proto__` key, while verifiers must see the line's keys
 * in their order (Python's repr of a dict follows it) and exports must stay lossless. RolloutSchema has
 * no transform, default or catch, so a value that passes is exactly of the output type.
 */
function passes(value: unknown, issues: string[]): value is Rollout {
  const parsed = RolloutSchema.safeParse(value);
  if (parsed.success) return true;
  issues.push(...formatIssues(parsed.error.issues));
  return false;
}

/**
 * Each parsed value is validated once: the detail view and both policies' verifications read the same
 * value (for a 100k-call rollout each read is a zod pass over 200k output items). Parsed values are never
 * mutated (canonicalization deep-copies), so a result stays valid while its value lives.
 */
const readResults = new WeakMap<object, ReadRolloutResult>();

/**
 * Parse once at the edge: narrows one parsed JSONL value to a Rollout, which every lib entry point takes,
 * or says why it is not one. Never throws.
 */
export function readRollout(value: unknown): ReadRolloutResult {
  if (!isJsonObject(value)) {
    return {
      ok: false,
      kind: "not_an_object",
      issues: ["the line is not a JSON object"],
      message: NOT_A_ROLLOUT_OBJECT,
    };
  }
  const known = readResults.get(value);
  if (known !== undefined) return known;
  const issues: string[] = [];
  const result: ReadRolloutResult = passes(value, issues)
    ? { ok: true, rollout: value }
    : { ok: false, kind: "not_a_rollout", issues, message: `not a rollout: ${issues.join("; ")}` };
  readResults.set(value, result);
  return result;
}

export interface IndexedFunctionCall {
  /** 0-based position among the rollout's function_calls. */
  readonly index: number;
  /** Position of the item in `response.output`. */
  readonly output_index: number;
  readonly call: FunctionCall;
}

/** One list per read rollout (each policy's resolution asks for it). */
const callLists = new WeakMap<Rollout, readonly IndexedFunctionCall[]>();

/** Every `function_call` item of `response.output`, in order. */
export function functionCalls(rollout: Rollout): readonly IndexedFunctionCall[] {
  const known = callLists.get(rollout);
  if (known !== undefined) return known;
  const calls: IndexedFunctionCall[] = [];
  rollout.response.output.forEach((item, output_index) => {
    if (item.type !== "function_call") return;
    // readRollout already checked every function_call item against this schema.
    const parsed = FunctionCallSchema.safeParse(item);
    if (parsed.success) calls.push({ index: calls.length, output_index, call: parsed.data });
  });
  callLists.set(rollout, calls);
  return calls;
}

/**
 * How many `function_call` items `response.output` has: functionCalls(rollout).length without narrowing
 * each call again (readRollout checked every one against FunctionCallSchema), for the list's index.
 */
export function functionCallCount(rollout: Rollout): number {
  let count = 0;
  for (const item of rollout.response.output) if (item.type === "function_call") count++;
  return count;
}

/** For values this project generated itself (scripts, benchmarks, tests): narrows, or throws why not. */
export function rolloutOrThrow(value: unknown): Rollout {
  const read = readRollout(value);
  if (!read.ok) throw new Error(read.message);
  return read.rollout;
}
