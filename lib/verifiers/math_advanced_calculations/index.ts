/**
 * math_advanced_calculations: reward 1 iff every ground-truth value appears among the tool results.
 * Re-implements Gym's verifier (commit 07d6b0d0). Tool names are not read, so canonicalization never
 * changes this reward.
 *
 * - ground_truth is a JSON string; `json.loads` of it is iterated (a list of numbers in practice).
 * - Each function_call_output contributes `float(json.loads(output)["solution"])`, or None when any step
 *   raises (not JSON, no "solution", not a number, a list-valued output...).
 * - `gt in predicted` is Python's `==`: 2 equals 2.0, NaN equals nothing, a string never equals a float.
 */
import { z } from "zod";
import { type PyValue, pyDictGet, pyEquals, pyFloat, pyFloatRepr, pyJsonLoads, pyRepr } from "../python";
import { narrow, RequestResponseSchema, refused } from "../request";
import type { Verifier, VerifierOutput, VerifyRequest } from "../types";

export const MATH_SERVER = "math_advanced_calculations";

const RequestSchema = z.looseObject({
  ground_truth: z.string(),
  response: RequestResponseSchema,
});

// A missing output counts as None, as an unparseable one does.
const OutputItem = z.looseObject({ type: z.literal("function_call_output"), output: z.unknown().optional() });

export interface MathDetails {
  /** The tag of lib/verify VerifierDetails. */
  readonly kind: typeof MATH_SERVER;
  /** The ground-truth values, as Python repr. */
  readonly ground_truth: readonly string[];
  /** One entry per function_call_output, in order: its float, or null where Gym records None. */
  readonly predicted: readonly (number | null)[];
  /** Ground-truth values (repr) not found among the predicted values. */
  readonly missing: readonly string[];
}

/** `float(json.loads(output)["solution"])`, or null where that raises. */
export function solutionOf(output: unknown): number | null {
  if (typeof output !== "string") return null;
  const parsed = pyJsonLoads(output);
  if (!parsed.ok) return null;
  const solution = pyDictGet(parsed.value, "solution");
  return solution === undefined ? null : pyFloat(solution);
}

/** What `for gt in json.loads(ground_truth)` iterates; null when Python cannot iterate it. */
function iterate(value: PyValue): PyValue[] | null {
  switch (value.kind) {
    case "list":
      return [...value.items];
    case "dict":
      return [...value.entries.keys()].map((key) => ({ kind: "str", value: key }));
    case "str":
      return [...value.value].map((ch) => ({ kind: "str", value: ch }));
    default:
      return null;
  }
}

function verify(request: VerifyRequest): VerifierOutput {
  const narrowed = narrow(RequestSchema, request);
  if (!narrowed.ok) return refused(MATH_SERVER, narrowed.error);
  const gtParsed = pyJsonLoads(narrowed.value.ground_truth);
  if (!gtParsed.ok) return refused(MATH_SERVER, `ground_truth is not JSON (${gtParsed.error})`);
  const groundTruth = iterate(gtParsed.value);
  if (groundTruth === null) return refused(MATH_SERVER, "ground_truth is not a JSON list");

  const predicted: (number | null)[] = [];
  for (const item of narrowed.value.response.output) {
    const output = OutputItem.safeParse(item);
    if (output.success) predicted.push(solutionOf(output.data.output));
  }
  const predictedValues: PyValue[] = predicted.map((p) =>
    p === null ? { kind: "none" } : { kind: "float", value: p },
  );
  const missing = groundTruth.filter((gt) => !predictedValues.some((p) => pyEquals(gt, p)));
  const reward = missing.length === 0 ? 1 : 0;

  const shown = predicted.map((p) => (p === null ? "None" : pyFloatRepr(p)));
  const explanation =
    reward === 1
      ? [`Every ground-truth value (${groundTruth.map(pyRepr).join(", ")}) is among the tool results.`]
      : [
          `Ground-truth value${missing.length > 1 ? "s" : ""} ${missing.map(pyRepr).join(", ")} never appeared as a tool ` +
            `result; the function_call_outputs gave ${shown.length > 0 ? `[${shown.join(", ")}]` : "nothing"}.`,
        ];
  const details: MathDetails = {
    kind: MATH_SERVER,
    ground_truth: groundTruth.map(pyRepr),
    predicted,
    missing: missing.map(pyRepr),
  };
  return { reward, explanation, details };
}

/** The server's tool routes (Gym `_function_map`). */
export const MATH_TOOLS: readonly string[] = [
  "add",
  "subtract",
  "multiply",
  "divide",
  "sin",
  "cos",
  "power",
  "log",
  "pi",
  "negate",
  "return_constant",
];

export const mathAdvancedCalculationsVerifier: Verifier = { server: MATH_SERVER, tools: MATH_TOOLS, verify };
