import type { Policy, RolloutResolution } from "../identity/types";
import type { VerifierDetails } from "../verifiers/details";
import type { PairedBy } from "./pairing";
import type { ServerSource } from "./server";
import type { Unverified } from "./unverified";

export type { Verifier, VerifierOutput, VerifyRequest } from "../verifiers/types";

export interface GymAlone {
  /** Gym's reward for the line alone (null when Gym would refuse it). */
  readonly reward: number | null;
  /** One sentence saying what this figure is and is not. */
  readonly note: string;
}

export interface VerifyResult {
  /** The verifying server; null when nothing decides (then `unverified.code` is `no_server`). */
  readonly server: string | null;
  /** Which evidence chose the server (chooseServer). */
  readonly server_source: ServerSource;
  /** One sentence: why this server (or why none). */
  readonly server_reason: string;
  /** How the materialized-inputs row was found: by Gym's indices, by equal task input, or not at all. */
  readonly paired_by: PairedBy;
  readonly policy: Policy;
  /** null when no verifier exists for the server or the request could not be built. */
  readonly reward: number | null;
  readonly recorded_reward: number | null;
  readonly components?: Readonly<Record<string, number>>;
  readonly explanation: readonly string[];
  /** The verifier's details, tagged by server (`kind`). */
  readonly details?: VerifierDetails;
  /** Why no reward could be computed (e.g. "no verifier for <server>"); set exactly when reward is null. */
  readonly error?: string;
  /** Set exactly when reward is null: a stable reason code and one sentence saying what to do. */
  readonly unverified?: Unverified;
  /**
   * For an unpaired line lacking a task field that Gym's request model defaults (unverified
   * `missing_field`): what Gym's /verify would return for the line alone. Labelled; never a reward here,
   * never counted as a changed reward.
   */
  readonly gym_alone?: GymAlone;
  /** One sentence: how the line was paired with the open inputs, or why not (set when inputs are open). */
  readonly pairing_reason?: string;
  /** Task fields the paired row lacked that Gym fills with a default (the reward is Gym's for that request). */
  readonly defaults_applied?: readonly string[];
  /** Reasons Gym's strict request validation would reject this verify request. */
  readonly gym_would_reject?: readonly string[];
  readonly resolution: RolloutResolution;
}
