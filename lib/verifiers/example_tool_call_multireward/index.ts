/**
 * example_tool_call_multireward: one expected tool call, scored on three independent 0/1 components whose
 * sum is the reward. Re-implements Gym's verifier (commit 07d6b0d0).
 *
 * - format: exactly one function_call and no `message` item in the output.
 * - schema_valid: the first call's arguments parse to a JSON object holding every `required` parameter of
 *   the tool of that name in `responses_create_params.tools` (no such tool: nothing is required).
 * - correctness: some call has the expected name and, for every expected argument, an equal value
 *   (Python `==`: 1 equals 1.0, extra arguments are ignored). An empty expected_call never matches.
 */
import { z } from "zod";
import { type PyValue, pyEquals, pyFromJs, pyJsonLoads, pyToJs, pyTruthy } from "../python";
import { narrow, type RequestCall, RequestResponseSchema, refused, requestCalls } from "../request";
import type { Verifier, VerifierOutput, VerifyRequest } from "../types";

export const MULTIREWARD_SERVER = "example_tool_call_multireward";

const ToolSchema = z.looseObject({
  name: z.string().optional(),
  parameters: z.looseObject({ required: z.array(z.unknown()).nullish() }).nullish(),
});

const RequestSchema = z.looseObject({
  responses_create_params: z.looseObject({ tools: z.array(z.unknown()).nullish() }),
  expected_call: z.record(z.string(), z.unknown()).optional(),
  response: RequestResponseSchema,
});

export interface MultirewardDetails {
  /** The tag of lib/verify VerifierDetails. */
  readonly kind: typeof MULTIREWARD_SERVER;
  /** Each call's name and parsed arguments (`{}` when they are not a JSON object), as Gym echoes them. */
  readonly predicted_calls: readonly { readonly name: string; readonly arguments: unknown }[];
  /** Index of the first call that matched expected_call, or null. */
  readonly matching_call: number | null;
  /** Required parameters of the first call's tool that its arguments lack. */
  readonly missing_parameters: readonly string[];
}

/** json.loads of the arguments: the dict, or null when they are not a JSON object. */
function parseArguments(text: string): ReadonlyMap<string, PyValue> | null {
  const parsed = pyJsonLoads(text);
  return parsed.ok && parsed.value.kind === "dict" ? parsed.value.entries : null;
}

function requiredParams(tools: readonly unknown[], toolName: string): unknown[] {
  for (const tool of tools) {
    const parsed = ToolSchema.safeParse(tool);
    if (parsed.success && parsed.data.name === toolName) return parsed.data.parameters?.required ?? [];
  }
  return [];
}

function callMatches(call: RequestCall, expected: Readonly<Record<string, unknown>>): boolean {
  if (Object.keys(expected).length === 0) return false;
  if (call.name !== expected.name) return false;
  const args = parseArguments(call.arguments) ?? new Map<string, PyValue>();
  const expectedPy = pyFromJs(expected.arguments ?? null);
  // `expected.get("arguments", {}) or {}`: None or any other falsy value means "no argument constraint".
  if (expectedPy === null || expectedPy.kind !== "dict") return true;
  for (const [key, value] of expectedPy.entries) {
    const actual = args.get(key);
    // dict.get(key) is None for a missing key, so an expected null matches an absent argument.
    if (!pyEquals(actual ?? { kind: "none" }, value)) return false;
  }
  return true;
}

function verify(request: VerifyRequest): VerifierOutput {
  const narrowed = narrow(RequestSchema, request);
  if (!narrowed.ok) return refused(MULTIREWARD_SERVER, narrowed.error);
  const { response, responses_create_params: params } = narrowed.value;
  const expected = narrowed.value.expected_call ?? {};
  const expectedArgs = expected.arguments;
  // Gym calls .items() on a truthy non-dict and fails with HTTP 500.
  const argsPy = pyFromJs(expectedArgs ?? null);
  if (argsPy === null || (argsPy.kind !== "dict" && pyTruthy(argsPy))) {
    return refused(MULTIREWARD_SERVER, "expected_call.arguments is not an object");
  }
  const calls = requestCalls(response.output);
  if (!calls.ok) return refused(MULTIREWARD_SERVER, calls.error);
  const predicted = calls.value;

  const hasMessage = response.output.some(
    (item) => z.looseObject({ type: z.literal("message") }).safeParse(item).success,
  );
  const format = predicted.length === 1 && !hasMessage ? 1 : 0;

  let schemaValid = 0;
  let missingParameters: string[] = [];
  const first = predicted[0];
  if (first !== undefined) {
    const parsed = parseArguments(first.arguments);
    const required = requiredParams(params.tools ?? [], first.name);
    missingParameters = required.filter((k) => typeof k !== "string" || parsed?.has(k) !== true).map(String);
    schemaValid = parsed !== null && missingParameters.length === 0 ? 1 : 0;
  }

  const matching = predicted.find((call) => callMatches(call, expected));
  const correctness = matching === undefined ? 0 : 1;
  const components = { correctness, schema_valid: schemaValid, format };
  const reward = correctness + schemaValid + format;

  const explanation: string[] = [];
  if (correctness === 0) {
    explanation.push(
      Object.keys(expected).length === 0
        ? "correctness 0: the task has no expected_call."
        : `correctness 0: no call is ${String(expected.name)} with arguments ${JSON.stringify(expectedArgs ?? {})}` +
            (predicted.length > 0
              ? ` (calls: ${predicted.map((c) => `${c.name} ${c.arguments}`).join("; ")}).`
              : " (no call)."),
    );
  }
  if (schemaValid === 0) {
    explanation.push(
      first === undefined
        ? "schema_valid 0: there is no function_call."
        : parseArguments(first.arguments) === null
          ? `schema_valid 0: the first call's arguments ${first.arguments} are not a JSON object.`
          : `schema_valid 0: the first call (${first.name}) lacks required parameter(s) ${missingParameters.join(", ")}.`,
    );
  }
  if (format === 0) {
    explanation.push(
      predicted.length !== 1
        ? `format 0: ${predicted.length} function_calls instead of exactly one.`
        : "format 0: the output also has an assistant message.",
    );
  }
  if (explanation.length === 0)
    explanation.push("One correct, well-formed call and no extra text: every component is 1.");

  const details: MultirewardDetails = {
    kind: MULTIREWARD_SERVER,
    predicted_calls: predicted.map((c) => {
      const args = parseArguments(c.arguments);
      return { name: c.name, arguments: args === null ? {} : pyToJs({ kind: "dict", entries: args }) };
    }),
    matching_call: matching?.index ?? null,
    missing_parameters: missingParameters,
  };
  return { reward, components, explanation, details };
}

/** The server's one tool route (Gym's app.py: POST /get_weather). */
export const MULTIREWARD_TOOLS: readonly string[] = ["get_weather"];

export const exampleToolCallMultirewardVerifier: Verifier = {
  server: MULTIREWARD_SERVER,
  tools: MULTIREWARD_TOOLS,
  verify,
};
