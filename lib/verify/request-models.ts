/**
 * What each Gym server's verify request model requires, read from its app.py (Gym commit 07d6b0d0,
 * /work/shared/reference/gym-src). A request without a required field is refused (HTTP 422) before the
 * verifier runs, so the pipeline reports it unverified (`missing_field`) with what to open; a field with a
 * default is filled in by Gym, so the line is scored as Gym would score it and the explanation says which
 * default applied.
 *
 * Every server's request extends BaseVerifyRequest: `responses_create_params` and `response`.
 */

export interface RequestModel {
  /** Top-level fields without a default (pydantic "required"). */
  readonly required: readonly string[];
  /** Fields with a default, and how Gym's default reads (for the explanation). */
  readonly defaults: Readonly<Record<string, string>>;
}

const BASE = ["responses_create_params", "response"] as const;

export const REQUEST_MODELS: Readonly<Record<string, RequestModel>> = {
  // WorkbenchVerifyRequest: ground_truth, id, category, environment_name.
  workplace_assistant: {
    required: [...BASE, "ground_truth", "id", "category", "environment_name"],
    defaults: {},
  },
  // MultiVerseMathHardVerifyRequest: ground_truth, id, depth, breadth.
  math_advanced_calculations: { required: [...BASE, "ground_truth", "id", "depth", "breadth"], defaults: {} },
  // IPIVerifyRequest: injection; required_tools defaults to [].
  indirect_prompt_injection: { required: [...BASE, "injection"], defaults: { required_tools: "[]" } },
  // ToolCallMultiRewardVerifyRequest: expected_call defaults to {} (which never matches a call).
  example_tool_call_multireward: { required: [...BASE], defaults: { expected_call: "{}" } },
  // ExampleMCPWeatherVerifyRequest: verifier_metadata is optional; expected_city then defaults to "Paris".
  example_mcp_weather: {
    required: [...BASE],
    defaults: { verifier_metadata: 'None (expected_city "Paris")' },
  },
  // ExampleMultiStepVerifyRequest (from ExampleMultiStepRunRequest).
  example_multi_step: {
    required: [
      ...BASE,
      "id",
      "expected_synonym_values",
      "expected_synonyms",
      "minefield_label",
      "minefield_label_value",
    ],
    defaults: {},
  },
};

/** Required fields of S's request model that `request` lacks (absent or null), in model order. */
export function missingFields(server: string, request: Readonly<Record<string, unknown>>): string[] {
  const model = REQUEST_MODELS[server];
  if (model === undefined) return [];
  return model.required.filter((field) => !Object.hasOwn(request, field) || request[field] === null);
}

/**
 * Fields with a Gym default that `request` lacks: Gym scores the line with the default. (An explicit null
 * is not the default: each verifier narrows it as Gym's model types it.)
 */
export function defaultedFields(
  server: string,
  request: Readonly<Record<string, unknown>>,
): { field: string; value: string }[] {
  const model = REQUEST_MODELS[server];
  if (model === undefined) return [];
  return Object.entries(model.defaults)
    .filter(([field]) => !Object.hasOwn(request, field))
    .map(([field, value]) => ({ field, value }));
}
