/**
 * The verify pipeline (contract, "Verification"): rollout (+ its materialized-inputs row) -> verify request
 * -> resolution -> canonical copy -> the verifying server's verifier -> VerifyResult. Never throws and never
 * mutates its inputs: every failure is a result with reward null and an error.
 */
import { canonicalizeForVerification, restoreEmittedNames } from "../canonicalize";
import type { HarnessId } from "../harness/types";
import { DEFAULT_POLICY, resolveRollout } from "../identity";
import type { Policy, RolloutResolution } from "../identity/types";
import { NOT_A_ROLLOUT_OBJECT } from "../schemas";
import { defaultRegistry, type VerifierRegistry } from "./registry";
import type { VerifierOutput, VerifyResult } from "./types";

export { pairInputs, pairingKey } from "./pairing";
export {
  createRegistry,
  defaultRegistry,
  getVerifier,
  knownTools,
  type VerifierRegistry,
  verifierServers,
} from "./registry";
export type { Verifier, VerifierOutput, VerifyRequest, VerifyResult } from "./types";

export const PROVENANCE_KEY = "mcp_tool_call_provenance";

export interface VerifyOptions {
  /** The verifying server S; default the rollout's environment_name, then the input row's. */
  readonly server?: string;
  readonly policy?: Policy;
  /** The rollout's materialized-inputs row (see pairInputs); without it the rollout's own echoed task fields are used. */
  readonly input?: unknown;
  readonly registry?: VerifierRegistry;
  /** The harness that produced the rollout, when known (alias diagnostics only). */
  readonly harness?: HarnessId;
  /** S's tool list for the diagnostics; default the registered verifier's. */
  readonly tools?: readonly string[];
}

type JsonObject = Readonly<Record<string, unknown>>;

// A structural check on parsed JSON, not a trust decision: verifiers narrow what they read with zod.
function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function hasResponse(value: unknown): boolean {
  return isObject(value) && Object.hasOwn(value, "response");
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The verifying server for a rollout: explicit, else its environment_name, else the input row's. */
export function verifyingServer(
  rollout: unknown,
  options: Pick<VerifyOptions, "server" | "input"> = {},
): string | null {
  return (
    nonEmptyString(options.server) ??
    (isObject(rollout) ? nonEmptyString(rollout.environment_name) : undefined) ??
    (isObject(options.input) ? nonEmptyString(options.input.environment_name) : undefined) ??
    null
  );
}

/**
 * The verify request Gym would POST: the input row with the rollout's `response` (and its provenance map when
 * the rollout has the key), or without an input row the rollout itself, whose echoed task fields are what the
 * verifier reads. Shallow: canonicalization deep-copies it before anything changes.
 */
export function buildVerifyRequest(rollout: JsonObject, input?: JsonObject): JsonObject {
  if (input === undefined) return rollout;
  const request: Record<string, unknown> = { ...input, response: rollout.response };
  if (Object.hasOwn(rollout, PROVENANCE_KEY)) request[PROVENANCE_KEY] = rollout[PROVENANCE_KEY];
  return request;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function verifyRollout(rollout: unknown, options: VerifyOptions = {}): VerifyResult {
  const registry = options.registry ?? defaultRegistry;
  const policy = options.policy ?? DEFAULT_POLICY;
  const server = verifyingServer(rollout, options);
  const verifier = server === null ? undefined : registry.get(server);
  const resolution = resolveRollout(rollout, {
    server: server ?? "",
    policy,
    harness: options.harness,
    tools: options.tools ?? verifier?.tools,
  });
  const recorded = isObject(rollout) && typeof rollout.reward === "number" ? rollout.reward : null;
  const rejectReasons = resolution.findings.flatMap((f) => (f.kind === "gym_would_reject" ? f.reasons : []));
  const base = {
    server: server ?? "",
    policy,
    recorded_reward: recorded,
    resolution,
    ...(rejectReasons.length > 0 ? { gym_would_reject: rejectReasons } : {}),
  };
  const failed = (error: string): VerifyResult => ({ ...base, reward: null, explanation: [error], error });

  if (!isObject(rollout)) return failed(NOT_A_ROLLOUT_OBJECT);
  if (server === null) {
    return failed(
      "no verifying server: the rollout and its input row have no environment_name; name a server",
    );
  }
  if (verifier === undefined) return failed(`no verifier for ${server}`);
  if (options.input !== undefined && !isObject(options.input))
    return failed("the input row is not a JSON object");

  const request = buildVerifyRequest(rollout, options.input);
  let output: VerifierOutput;
  try {
    const canonical = canonicalizeForVerification(request, resolution);
    if (!isObject(canonical)) return failed("the verify request is not a JSON object");
    output = verifier.verify(canonical);
  } catch (error) {
    // A verifier must not throw; if one does, the rollout still gets a result instead of ending the run.
    return failed(`${server} verifier failed: ${errorMessage(error)}`);
  }
  return withOutput(base, output, resolution);
}

function withOutput(
  base: Omit<VerifyResult, "reward" | "explanation">,
  output: VerifierOutput,
  resolution: RolloutResolution,
): VerifyResult {
  // restoreEmittedNames rewrites only `details.response.output`; other details are returned as they are.
  const details =
    output.details === undefined
      ? {}
      : {
          details: hasResponse(output.details)
            ? restoreEmittedNames(output.details, resolution)
            : output.details,
        };
  if (output.error !== undefined) {
    return { ...base, reward: null, explanation: output.explanation, error: output.error, ...details };
  }
  return {
    ...base,
    reward: output.reward,
    ...(output.components === undefined ? {} : { components: output.components }),
    explanation: output.explanation,
    ...details,
  };
}
