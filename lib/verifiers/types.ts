/**
 * The contract every verifier implements (a pure function of the verify request), apart from the pipeline
 * that calls it (lib/verify): the verifiers import only this folder, so lib/verify can list them.
 */
import type { VerifierDetails } from "./details";

/**
 * What a verifier receives: the paired input row (or the rollout's own task fields) plus `response`
 * and `mcp_tool_call_provenance`, deep-copied, with every function_call name set to its verifier name.
 * It is `unknown`-shaped JSON: each verifier narrows what it needs with zod.
 */
export type VerifyRequest = Readonly<Record<string, unknown>>;

export interface VerifierOutput {
  readonly reward: number;
  /** Reward components, where the environment has them (e.g. reward_safety, reward_utility). */
  readonly components?: Readonly<Record<string, number>>;
  /** Sentences that explain the score, most important first. A 0 always has at least one. */
  readonly explanation: readonly string[];
  /** Structured, verifier-specific detail (e.g. workplace table differences), tagged by server. */
  readonly details?: VerifierDetails;
  /**
   * Set when the request is one the Gym server would refuse (HTTP 422/500) instead of scoring; `reward` is
   * then meaningless and the pipeline reports reward null with this message.
   */
  readonly error?: string;
}

/** A verifier is a pure function of the verify request. Registered by server name. */
export interface Verifier {
  readonly server: string;
  /** The server's tool names, when the verifier knows them (feeds unknown_tool / alias_guess). */
  readonly tools?: readonly string[];
  verify(request: VerifyRequest): VerifierOutput;
}
