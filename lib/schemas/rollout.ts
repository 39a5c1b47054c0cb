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
 * `"text"`): it is an unreadable line, never counted as a rollout. readRollout's issue for such a value
 * gives the same text after "not a rollout: ".
 */
export const NOT_A_ROLLOUT_OBJECT = "not a rollout: the line is not a JSON object";

/** True for a JSON object (not an array, not null): the only values that can be rollouts. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
export type Rollout = z.infer<typeof RolloutSchema>;

export type ReadRolloutResult = { ok: true; rollout: Rollout } | { ok: false; issues: string[] };

/**
 * Each parsed value is validated once: the detail view and both policies' verifications read the same
 * value (for a 100k-call rollout each read is a zod pass over 200k output items). Parsed values are never
 * mutated (canonicalization deep-copies), so a result stays valid while its value lives.
 */
const readResults = new WeakMap<object, ReadRolloutResult>();

/** Validates one parsed JSONL value as a rollout. Never throws; issues name the path and the reason. */
export function readRollout(value: unknown): ReadRolloutResult {
  const known = typeof value === "object" && value !== null ? readResults.get(value) : undefined;
  if (known !== undefined) return known;
  const parsed = RolloutSchema.safeParse(value);
  const result: ReadRolloutResult = parsed.success
    ? { ok: true, rollout: parsed.data }
    : { ok: false, issues: formatIssues(parsed.error.issues) };
  if (typeof value === "object" && value !== null) readResults.set(value, result);
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
