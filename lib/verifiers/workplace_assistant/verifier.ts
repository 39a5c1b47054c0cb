/**
 * The workplace_assistant Verifier: Gym's `/verify` (app.py) over a canonicalized verify request.
 * predicted = every function_call of response.output in order; reward = is_correct(...) * 1.0.
 */
import { z } from "zod";
import { describeIssues, narrow, RequestResponseSchema, refused, requestCalls } from "../request";
import type { Verifier, VerifierOutput, VerifyRequest } from "../types";
import { isCorrectActions, type WorkplaceDetails } from "./is-correct";
import { SERVER_NAME, WORKPLACE_TOOL_NAMES } from "./replay";

/**
 * WorkbenchVerifyRequest (app.py): `ground_truth: list[Dict[str, str]] | str`, `id: int`, `category: str`,
 * `environment_name: str`, plus the base `response`. Pydantic's lax mode accepts an integral float, a bool
 * or a numeric string for `id`; it never turns a number into a str.
 */
const GroundTruthSchema = z.union([z.string(), z.array(z.record(z.string(), z.string()))]);
const IdSchema = z.union([
  z.number().int(),
  z.boolean(),
  z.string().regex(/^\s*[+-]?\d+\s*$/, "expected an integer"),
]);
const WorkbenchVerifyRequestSchema = z.object({
  response: RequestResponseSchema,
  ground_truth: GroundTruthSchema,
  id: IdSchema,
  category: z.string(),
  environment_name: z.string(),
});

/** What the verifier reports (lib/verify VerifierDetails): table differences and what each call did. */
export type WorkplaceVerifierDetails = { readonly kind: typeof SERVER_NAME } & WorkplaceDetails;

const ProvenanceMap = z.record(z.string(), z.looseObject({ server_name: z.string(), tool_name: z.string() }));
const CallId = z.looseObject({ call_id: z.string() });

/**
 * Whether a call (by index among function_calls) has a provenance entry naming this server's tool under
 * another name than the one it carries: the map was there and was not followed (a legacy read). Gym's
 * verifier never reads the map; only the alias hints' advice does, so it is read on the first hint only.
 */
function recordedCalls(
  request: VerifyRequest,
  calls: readonly { readonly output_index: number; readonly name: string }[],
  output: readonly unknown[],
): (index: number) => boolean {
  let map: z.infer<typeof ProvenanceMap> | null | undefined;
  return (index) => {
    if (map === undefined) {
      const parsed = ProvenanceMap.safeParse(request.mcp_tool_call_provenance);
      map = parsed.success ? parsed.data : null;
    }
    const call = calls[index];
    if (map === null || call === undefined) return false;
    const id = CallId.safeParse(output[call.output_index]);
    if (!id.success || !Object.hasOwn(map, id.data.call_id)) return false;
    const entry = map[id.data.call_id];
    return entry?.server_name === SERVER_NAME && entry.tool_name !== call.name;
  };
}

function verifyWorkplace(request: VerifyRequest): VerifierOutput {
  if (request.ground_truth === undefined) {
    return refused(SERVER_NAME, "the request has no ground_truth (WorkbenchVerifyRequest requires it)");
  }
  const narrowed = narrow(WorkbenchVerifyRequestSchema, request);
  if (!narrowed.ok) return refused(SERVER_NAME, `invalid WorkbenchVerifyRequest: ${narrowed.error}`);
  const calls = requestCalls(narrowed.value.response.output);
  if (!calls.ok) return refused(SERVER_NAME, calls.error);

  const predicted = calls.value.map((c) => ({ name: c.name, arguments: c.arguments }));
  const result = isCorrectActions(
    predicted,
    narrowed.value.ground_truth,
    recordedCalls(request, calls.value, narrowed.value.response.output),
  );
  const details: WorkplaceVerifierDetails = { kind: SERVER_NAME, ...result.details };
  if (result.details.gymError) {
    return {
      reward: 0,
      error: `${SERVER_NAME} cannot score this request: ${result.details.gymError}`,
      explanation: result.explanation,
      details,
    };
  }
  return { reward: result.correct ? 1 : 0, explanation: result.explanation, details };
}

export const workplaceAssistantVerifier: Verifier = {
  server: SERVER_NAME,
  tools: WORKPLACE_TOOL_NAMES,
  verify(request) {
    try {
      return verifyWorkplace(request);
    } catch (error) {
      // A bug here must not take the pipeline down; report it as unscorable instead.
      const reason =
        error instanceof z.ZodError
          ? describeIssues(error)
          : error instanceof Error
            ? error.message
            : String(error);
      return refused(SERVER_NAME, `internal verifier error: ${reason}`);
    }
  },
};
