/**
 * example_multi_step: Gym's two-step synonym task (commit 07d6b0d0). The model looks up each synonym's
 * value with `get_synonym_value`, then reports them with `extract_synonym_values`; the reward is 1 iff the
 * last `extract_synonym_values` call's `synonym_values` equals the expected list (Python `==`: order
 * matters, 1 == 1.0 == True, "1" != 1).
 *
 * Where Gym's server fails instead of scoring (HTTP 422/500), this port refuses too: a request field its
 * model types differently, arguments that are not JSON or lack `synonym_values`, values that are not a list
 * of integers (the response model types them `List[int]`), or an empty expected list (division by zero in
 * set_overlap).
 */
import { z } from "zod";
import { type PyValue, pyDictGet, pyEquals, pyJsonLoads, pyRepr } from "../python";
import { narrow, RequestResponseSchema, refused, requestCalls } from "../request";
import type { Verifier, VerifierOutput, VerifyRequest } from "../types";

export const MULTI_STEP_SERVER = "example_multi_step";
export const EXTRACT_TOOL = "extract_synonym_values";
export const MULTI_STEP_TOOLS: readonly string[] = ["get_synonym_value", EXTRACT_TOOL];

/** Pydantic's lax int: an int, an integral float, a bool or a decimal-integer string. */
const INT_STRING = /^\s*[+-]?\d+\s*$/;
const LaxInt = z.union([
  z.number().int(),
  z.boolean().transform((b) => (b ? 1 : 0)),
  z
    .string()
    .regex(INT_STRING, "expected an integer")
    .transform((s) => Number.parseInt(s, 10)),
]);

const RequestSchema = z.looseObject({
  response: RequestResponseSchema,
  id: LaxInt,
  expected_synonym_values: z.array(LaxInt),
  expected_synonyms: z.array(z.string()),
  minefield_label: z.string(),
  minefield_label_value: LaxInt,
});

/** Whether a reported value passes the response model's `List[int]` item (lax). */
function isLaxInt(value: PyValue): boolean {
  switch (value.kind) {
    case "int":
    case "bool":
      return true;
    case "float":
      return Number.isInteger(value.value);
    case "str":
      return INT_STRING.test(value.value);
    default:
      return false;
  }
}

export interface MultiStepDetails {
  /** The tag of lib/verify VerifierDetails. */
  readonly kind: typeof MULTI_STEP_SERVER;
  /** Index of the function_call whose values were read (the last extract_synonym_values), or null. */
  readonly extract_call: number | null;
  readonly expected_synonym_values: readonly number[];
  /** The reported values, as Python repr. */
  readonly parsed_synonym_values: readonly string[];
  readonly accuracy: boolean;
  readonly set_overlap: number;
  readonly original_term_minefield_hit: boolean;
  readonly order_instruction_following_failure: boolean;
}

const intValue = (n: number): PyValue => ({ kind: "int", value: BigInt(n) });

function verify(request: VerifyRequest): VerifierOutput {
  const narrowed = narrow(RequestSchema, request);
  if (!narrowed.ok) return refused(MULTI_STEP_SERVER, narrowed.error);
  const task = narrowed.value;
  const calls = requestCalls(task.response.output);
  if (!calls.ok) return refused(MULTI_STEP_SERVER, calls.error);

  // The last extract_synonym_values call decides; none means [] (Gym's default).
  const extract = [...calls.value].reverse().find((c) => c.name === EXTRACT_TOOL);
  let actual: readonly PyValue[] = [];
  if (extract !== undefined) {
    const parsed = pyJsonLoads(extract.arguments);
    if (!parsed.ok) return refused(MULTI_STEP_SERVER, `the ${EXTRACT_TOOL} arguments are not JSON`);
    const values = pyDictGet(parsed.value, "synonym_values");
    if (values === undefined) {
      return refused(MULTI_STEP_SERVER, `the ${EXTRACT_TOOL} arguments have no "synonym_values"`);
    }
    if (values.kind !== "list" || !values.items.every(isLaxInt)) {
      return refused(MULTI_STEP_SERVER, "synonym_values is not a list of integers (Gym's List[int])");
    }
    actual = values.items;
  }
  const expected = task.expected_synonym_values.map(intValue);
  if (expected.length === 0) return refused(MULTI_STEP_SERVER, "expected_synonym_values is empty");

  const accuracy = pyEquals({ kind: "list", items: expected }, { kind: "list", items: actual });
  // len(set(actual) & set(expected)): distinct expected values (by Python equality) that were reported.
  const distinct = expected.filter((e, i) => expected.findIndex((x) => pyEquals(x, e)) === i);
  const overlap = distinct.filter((e) => actual.some((a) => pyEquals(a, e))).length / expected.length;
  const minefield =
    actual.some((a) => pyEquals(a, { kind: "str", value: task.minefield_label })) ||
    actual.some((a) => pyEquals(a, intValue(task.minefield_label_value)));
  const orderFailure = !accuracy && overlap === 1;

  const shown = `[${actual.map(pyRepr).join(", ")}]`;
  const want = `[${task.expected_synonym_values.join(", ")}]`;
  const explanation = accuracy
    ? [`The last ${EXTRACT_TOOL} call reported exactly ${want}.`]
    : [
        extract === undefined
          ? `No call reached ${EXTRACT_TOOL}, so nothing was reported (expected ${want}).`
          : orderFailure
            ? `The last ${EXTRACT_TOOL} call reported the right values in the wrong order: ${shown}, expected ${want}.`
            : `The last ${EXTRACT_TOOL} call reported ${shown}, expected ${want}.`,
      ];
  const details: MultiStepDetails = {
    kind: MULTI_STEP_SERVER,
    extract_call: extract?.index ?? null,
    expected_synonym_values: task.expected_synonym_values,
    parsed_synonym_values: actual.map(pyRepr),
    accuracy,
    set_overlap: overlap,
    original_term_minefield_hit: minefield,
    order_instruction_following_failure: orderFailure,
  };
  return { reward: accuracy ? 1 : 0, explanation, details };
}

export const exampleMultiStepVerifier: Verifier = {
  server: MULTI_STEP_SERVER,
  tools: MULTI_STEP_TOOLS,
  verify,
};
