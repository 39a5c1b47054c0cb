/**
 * Recorded vs recomputed: which policy reproduces the run's own reward, and, when neither does (drift),
 * what differs and which number to trust.
 */
import { z } from "zod";
import type { Rollout } from "../schemas";
import type { VerifyResult } from "../verify/types";
import { groundTruthNames, isFailedCall, TRACES_PER_SENTENCE, tracesOf, traceText } from "./decisive";
import { readCallOutcomes } from "./details";

/** Which recomputation equals the recorded reward: a finding of its own (e.g. the run was scored as legacy). */
export type Reproduction = "both" | "contract" | "legacy" | "neither";

/** null when there is nothing to compare (no recorded reward, or neither policy recomputed one). */
export function reproducedBy(
  recorded: number | null,
  contract: number | null,
  legacy: number | null,
): Reproduction | null {
  if (recorded === null || (contract === null && legacy === null)) return null;
  const c = contract === recorded;
  const l = legacy === recorded;
  return c && l ? "both" : c ? "contract" : l ? "legacy" : "neither";
}

export const REPRODUCTION_TEXT: Readonly<Record<Reproduction, string>> = {
  both: "both policies reproduce the recorded reward",
  contract: "only the contract policy (provenance followed) reproduces the recorded reward",
  legacy:
    "only the legacy policy (Gym before provenance) reproduces the recorded reward: the run was scored without the map",
  neither: "neither policy reproduces the recorded reward (drift)",
};

const NumberFields = z.record(z.string(), z.unknown());

function format(value: number | null): string {
  return value === null ? "none" : String(value);
}

/**
 * What differs between the recorded reward and the recomputation, and which to trust: null unless the
 * recorded reward matches neither policy's (reproducedBy "neither"). `evidence` is the recomputation the
 * differences are read from (a policy that scored 0 when one did).
 */
export function explainDrift(
  rollout: Rollout,
  contract: VerifyResult,
  legacy: VerifyResult,
  evidence: VerifyResult,
): string | null {
  const recorded = contract.recorded_reward;
  if (reproducedBy(recorded, contract.reward, legacy.reward) !== "neither") return null;
  const parts: string[] = [];
  // Reward components the line records beside the reward (e.g. reward_safety) against the recomputed ones.
  const fields = NumberFields.safeParse(rollout);
  const line = fields.success ? fields.data : {};
  for (const [name, value] of Object.entries(evidence.components ?? {})) {
    const stored = line[name];
    if (typeof stored === "number" && stored !== value)
      parts.push(`component ${name}: recorded ${stored}, recomputed ${value}`);
  }
  const traces = tracesOf(evidence);
  if (traces.length > 0) {
    const names = groundTruthNames(evidence);
    const shown = traces.slice(0, TRACES_PER_SENTENCE).map((t) => traceText(t, names));
    const more =
      traces.length > TRACES_PER_SENTENCE ? `, and ${traces.length - TRACES_PER_SENTENCE} more` : "";
    parts.push(`table cells: ${shown.join("; ")}${more}`);
  }
  const skipped = readCallOutcomes(evidence.details).filter(isFailedCall);
  if (skipped.length > 0) {
    const first = skipped[0];
    parts.push(
      `${skipped.length} call${skipped.length === 1 ? "" : "s"} skipped or refused in the replay` +
        (first === undefined
          ? ""
          : ` (call #${first.index}: ${(first.message ?? first.outcome).replace(/\.$/, "")})`),
    );
  }
  const defaults = evidence.defaults_applied ?? [];
  if (defaults.length > 0) parts.push(`verifier default for ${defaults.join(", ")} (the line lacks it)`);
  const recomputed = `contract ${format(contract.reward)}, legacy ${format(legacy.reward)}`;
  const head = `Recorded ${format(recorded)}; recomputed ${recomputed}${parts.length > 0 ? `. What differs: ${parts.join("; ")}` : ""}.`;
  return `${head} ${trustSentence(recorded, evidence.reward, defaults.length > 0)}`;
}

function trustSentence(recorded: number | null, recomputed: number | null, defaulted: boolean): string {
  if (defaulted)
    return "Trust neither on its own: the recomputation filled a task field with Gym's default, and the run may have had the real one; open the materialized inputs.";
  if (recorded !== null && recomputed !== null && recomputed > recorded)
    return "Trust the recomputed reward for what the agent did: replaying this line's calls with Gym's verifier scores it higher under both policies; a recorded reward no policy reproduces means the run's verifier saw something this line does not hold (other task data, a failed verify request, another verifier version).";
  return "Trust the recomputed reward for what this line holds: replaying its calls with Gym's verifier under either policy does not earn the recorded reward, so the run scored something else (other task data or calls, another verifier version); check the run before counting it.";
}
