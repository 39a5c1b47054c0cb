/**
 * Why-zero triage: every rollout whose recorded reward or either policy's recomputed reward is 0 or below
 * (isZeroOrBelow) gets exactly one cause, decided from what the library already computes (the rollout schema, the verify
 * result under both policies, the verifier's details and, when names may be at fault, the harness
 * what-if). Nothing here re-scores anything in a new way; it reads those results in a fixed order.
 * Precedence, evidence per cause and why this order: lib/triage/README.md (ZERO_CAUSES lists them in order).
 */

import type { HarnessId } from "../harness/types";
import type { Policy } from "../identity/types";
import type { Rollout } from "../schemas";
import { requestCalls } from "../verifiers/request";
import { knownTools, verifyBothPolicies } from "../verify";
import type { VerifyResult } from "../verify/types";
import { joinList, type UnverifiedCode } from "../verify/unverified";
import { harnessWhatIf } from "../whatif";
import {
  type CellTrace,
  type DecisiveCall,
  groundTruthNames,
  isFailedCall,
  judgedCalls,
  TRACES_PER_SENTENCE,
  tracesOf,
  traceText,
} from "./decisive";
import { readCallOutcomes } from "./details";
import { explainDrift, REPRODUCTION_TEXT, type Reproduction, reproducedBy } from "./drift";
import { readHealth } from "./health";
import { type TextToolCall, textToolCall, textToolCallText } from "./text-calls";

/** The causes, in precedence order (task_wide is decided over a run's rows: lib/triage/task-wide.ts). */
export const ZERO_CAUSES = [
  "malformed",
  "drift",
  "model_error",
  "truncated",
  "no_output",
  "no_server",
  "no_verifier_port",
  "missing_task_data",
  "verifier_error",
  "identity",
  "task_wide",
  "no_tool_call",
  "tool_failed",
  "wrong_end_state",
] as const;
export type ZeroCause = (typeof ZERO_CAUSES)[number];

/**
 * The causes the breakdown counts among the zeros, in precedence order; drift is counted apart (causeCount),
 * after them, in every front end (the page's panel, `cli triage`, the report).
 */
export const AGENT_CAUSES: readonly Exclude<ZeroCause, "drift">[] = ZERO_CAUSES.filter(
  (cause): cause is Exclude<ZeroCause, "drift"> => cause !== "drift",
);

/**
 * A cause's name in a list of causes. The four that say why this project could not re-check the reward,
 * not why the agent failed, begin "Unverifiable", as their hints do.
 */
export const ZERO_CAUSE_LABELS: Readonly<Record<ZeroCause, string>> = {
  malformed: "Malformed",
  drift: "Drift",
  model_error: "Model call failed",
  truncated: "Response truncated",
  no_output: "No output tokens",
  no_server: "Unverifiable (no verifying server)",
  no_verifier_port: "Unverifiable here (no verifier port)",
  missing_task_data: "Unverifiable (task data missing)",
  verifier_error: "Unverifiable (port failed here)",
  identity: "Identity",
  task_wide: "Same failure on every rollout of the task",
  no_tool_call: "No tool call",
  tool_failed: "Call rejected or no such tool",
  wrong_end_state: "Wrong end state",
};

/** One sentence per cause: what it means (the precedence is ZERO_CAUSES' order). */
export const ZERO_CAUSE_HINTS: Readonly<Record<ZeroCause, string>> = {
  malformed: "A request Gym itself would refuse: it could not have been scored.",
  model_error: "The model call failed (response.error, or response.status failed): the agent never answered.",
  truncated:
    "The model's response was cut off (response.status incomplete, incomplete_details.reason such as max_output_tokens).",
  no_output: "The model produced no output tokens (response.usage.output_tokens 0).",
  no_server: "Unverifiable: nothing names the server that verifies the line (choose the verifying server).",
  no_verifier_port:
    "Unverifiable here: this project has no port of the server's verifier, so the recorded reward is shown as Gym wrote it and cannot be re-checked (Gym's own /verify can, from /live).",
  missing_task_data:
    "Unverifiable: the verifier needs task fields (such as ground_truth) that neither the line nor its input row carries (open or pair the materialized inputs the run was made from).",
  verifier_error:
    "Unverifiable: this project's port of the verifier failed on the line, a bug here, not in the data; the recorded reward is shown as Gym wrote it.",
  drift:
    "The recorded reward matches neither policy's recomputation: the numbers disagree, so say which to trust before reading a cause.",
  identity:
    "The tool names decided the reward: a call's provenance or verifier name differs from what it emitted, and the reward differs between the policies or with provenance in the harness what-if.",
  task_wide:
    "Every rollout of this task failed the same way: look at the task (ground truth, environment) before the agent.",
  no_tool_call: "The response makes no function_call.",
  tool_failed:
    "A call that did nothing: it named no tool of the server, or it raised (Gym skipped it either way), or a table-changing tool refused it.",
  wrong_end_state: "Every call ran; the end state (tables) or a verifier component is wrong.",
};

/** The views a run's zeros are counted in: the run's own reward (default) or a policy's recomputation. */
export const ZERO_VIEWS = ["recorded", "contract", "legacy"] as const;
export type ZeroView = (typeof ZERO_VIEWS)[number];

/** How an identity cause was established. */
export type IdentityBasis =
  | { readonly kind: "policies"; readonly contract: number; readonly legacy: number }
  | { readonly kind: "whatif"; readonly harness: string; readonly reward: number };

export interface RolloutTriage {
  readonly cause: ZeroCause;
  /** One sentence a researcher can act on; "call #k" names a call (0-based among function_calls). */
  readonly sentence: string;
  readonly recorded: number | null;
  /** The recomputed reward the cause reads (the policy that scored 0 when one did; null: unverified). */
  readonly recomputed: number | null;
  readonly contract: number | null;
  readonly legacy: number | null;
  /** Which policy reproduces the recorded reward (null: nothing to compare). */
  readonly reproduced_by: Reproduction | null;
  /** When the recorded reward matches neither policy: what differs and which number to trust. */
  readonly drift: string | null;
  /** The calls that lost the reward, with why (call numbers, 0-based among function_calls). */
  readonly decisive: readonly DecisiveCall[];
  /** wrong_end_state / drift: every differing cell and row, traced to the call that wrote it. */
  readonly traces?: readonly CellTrace[];
  /** For identity: which computation showed the names mattered. */
  readonly identity?: IdentityBasis;
  /**
   * The harness whose aliases the calls' names are exactly and whose provenance map for them makes this zero
   * score above 0 (the harness what-if), when a call named no tool of the server: the names, not the agent,
   * lost the reward, and that harness's repair derives the map. Set on identity (what-if), and on tool_failed
   * and wrong_end_state (a verifier that reads the calls rather than running them), the causes of a run whose
   * calls are all bare (its names are the agent's own under the contract, so never identity); the run's
   * breakdown counts them (RunTriage.fixed_by_map). Drift is explained first and never carries it.
   */
  readonly what_if_map?: string;
  /**
   * For no_tool_call: the call the response's message writes as text instead (./text-calls.ts), which Gym
   * never reads; the run's breakdown counts them (RunTriage.text_calls).
   */
  readonly text_call?: TextToolCall;
  /** For tool_failed: the call indexes the tool rejected. */
  readonly failed_calls?: readonly number[];
  /** For wrong_end_state: the tables that differ, or the components at 0. */
  readonly differs?: readonly string[];
  /** What "the same failure" means for task_wide: equal for two rollouts that failed the same way. */
  readonly signature: string | null;
}

export interface TriageOptions {
  /** The verifying server; default the rollout's (verifyRollout's rule). */
  readonly server?: string;
  /** The rollout's materialized-inputs row. */
  readonly input?: unknown;
  readonly harness?: HarnessId;
  /** Precomputed verify results, to avoid verifying twice (they must be for the same server and input). */
  readonly contract?: VerifyResult;
  readonly legacy?: VerifyResult;
  /** Run the harness what-if when the evidence reward is 0 and a call names no tool of S (default true). */
  readonly whatIf?: boolean;
}

/**
 * A zero in triage's sense: a reward of 0 or below. A negative reward is a failed rollout too (blackjack
 * records -1 for a loss): the line pass@k draws (lib/metrics passes: above 0), so what fails pass@k is
 * explained here. A reward of 0 is one as Gym records it.
 */
export function isZeroOrBelow(reward: number | null): boolean {
  return reward !== null && reward <= 0;
}

/** A rollout needs a cause when any of its rewards (recorded, contract, legacy) is 0 or below. */
export function isZeroReward(...rewards: readonly (number | null)[]): boolean {
  return rewards.some(isZeroOrBelow);
}

/**
 * The heading of a rollout's triage: "Why zero" when one of its rewards is 0, else "Why below zero" (every
 * reward that needs a cause is negative, blackjack's -1 for a loss: calling it a zero would misread it).
 */
export function triageHeading(triage: Pick<RolloutTriage, "recorded" | "contract" | "legacy">): string {
  const { recorded, contract, legacy } = triage;
  return [recorded, contract, legacy].some((reward) => reward === 0) ? "Why zero" : "Why below zero";
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Whether the names could have changed the outcome: some call's verifier name under the contract policy
 * differs from the name it emitted, or it carries provenance. A rollout whose calls are all bare (no map)
 * is verified by the names it emitted under the contract, so its names are the agent's own actions.
 */
function namesMatter(contract: VerifyResult): boolean {
  return contract.resolution.calls.some(
    (call) => call.verifier_name !== call.emitted || call.provenance !== null,
  );
}

interface WhatIfRescue {
  readonly harness: string;
  readonly reward: number;
  /** The rescuing harness' aliases are exactly the emitted names. */
  readonly same: boolean;
}

function whatIfRescue(rollout: Rollout, evidence: VerifyResult, input: unknown): WhatIfRescue | null {
  const tools = evidence.server === null ? undefined : knownTools(evidence.server);
  const calls = evidence.resolution.calls;
  const unknownName =
    tools !== undefined &&
    calls.some((call) => !tools.includes(call.verifier_name) && call.status !== "external");
  if (!unknownName) return null;
  const report = harnessWhatIf(rollout, {
    ...(evidence.server === null ? {} : { server: evidence.server }),
    ...(input === undefined ? {} : { input }),
  });
  const emitted = calls.map((call) => call.emitted);
  const scoring = report.rows.filter((row) => row.withProvenance && row.reward !== null && row.reward > 0);
  // Prefer the harness whose aliases are exactly the emitted names: the same rollout, plus a map.
  const same = (names: readonly string[]) => names.every((name, i) => name === emitted[i]);
  const rescued = scoring.find((row) => same(row.emittedNames)) ?? scoring[0];
  if (rescued === undefined || rescued.reward === null) return null;
  return { harness: rescued.harness, reward: rescued.reward, same: same(rescued.emittedNames) };
}

function rescueText(rescue: WhatIfRescue): string {
  return (
    `with a provenance map for its calls${rescue.same ? ` (the ${rescue.harness} names it emitted)` : ` (re-emitted under ${rescue.harness})`}, ` +
    `it scores ${rescue.reward} (harness what-if)`
  );
}

/** The cause of each reason lib/verify gives for no reward (what Gym itself refuses is malformed, decided first). */
const UNVERIFIED_CAUSE: Readonly<Record<UnverifiedCode, ZeroCause>> = {
  no_server: "no_server",
  no_verifier: "no_verifier_port",
  ambiguous_input: "missing_task_data",
  missing_field: "missing_task_data",
  verifier_error: "verifier_error",
  gym_refuses: "malformed",
  not_a_rollout: "malformed",
};

/**
 * An unverifiable line's cause and what it means for the reward. What to do about it (choose a server,
 * verify through Gym's own /verify, open or pair the inputs) is lib/verify's message, which every front end
 * shows with the verification (the pane once, `cli triage`'s `error` column): the sentence does not repeat it.
 * A server without a port here is no fault of the line: its reward is Gym's as written.
 */
function unverifiedCause(
  contract: VerifyResult,
  recorded: number | null,
): { cause: ZeroCause; sentence: string } {
  const cause = UNVERIFIED_CAUSE[contract.unverified?.code ?? "missing_field"];
  const reward = recorded === null ? "the reward" : `the recorded ${recorded}`;
  const server = contract.server ?? "the server";
  const sentence: Readonly<Partial<Record<ZeroCause, string>>> = {
    no_server: `Nothing names the verifying server, so ${reward} cannot be re-checked here.`,
    no_verifier_port: `This project has no port of ${server}'s verifier: ${reward} is shown as Gym wrote it and cannot be re-checked here.`,
    missing_task_data: `The task data ${server}'s verifier needs is missing, so ${reward} cannot be re-checked here.`,
    verifier_error: `This project's ${server} verifier failed on the line (a bug here, not in the data), so ${reward} cannot be re-checked here.`,
  };
  return { cause, sentence: sentence[cause] ?? `Unverifiable, so ${reward} cannot be checked.` };
}

/**
 * The policy a zero's cause (and each call's badge) is read from: the one that scored 0, the contract's when
 * both or neither did.
 */
export function evidencePolicy(contract: VerifyResult, legacy: VerifyResult): Policy {
  return isZeroOrBelow(contract.reward) || !isZeroOrBelow(legacy.reward) ? "contract" : "legacy";
}

/** The recomputation of evidencePolicy. */
function evidenceOf(contract: VerifyResult, legacy: VerifyResult): VerifyResult {
  return evidencePolicy(contract, legacy) === "contract" ? contract : legacy;
}

/** Call numbers a tool_failed sentence gives for calls that failed the same way. */
const CALLS_PER_GROUP = 3;

/**
 * How a tool_failed sentence begins: a call that named no tool never reached one, so it is not said to be
 * rejected by the tool (a user read the old "rejected by the tool" of harness aliases as the tool refusing).
 */
function failedLead(failed: readonly { readonly outcome: string }[], server: string | null): string {
  const unknown = failed.filter((call) => call.outcome === "unknown_name").length;
  const none = `named no tool of ${server ?? "the server"}`;
  if (unknown === failed.length)
    return `${plural(unknown, "call")} ${none}, so Gym skipped ${unknown === 1 ? "it" : "them"}`;
  if (unknown === 0) return `${plural(failed.length, "call")} rejected by the tool`;
  return `${plural(failed.length, "call")} did nothing (${unknown} ${none}, ${failed.length - unknown} rejected by the tool)`;
}

/**
 * The one cause of a zero, or null when none of the recorded and recomputed rewards is 0. Never throws
 * for bad data.
 */
export function triageRollout(rollout: Rollout, options: TriageOptions = {}): RolloutTriage | null {
  const verifyOptions = {
    ...(options.server === undefined ? {} : { server: options.server }),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.harness === undefined ? {} : { harness: options.harness }),
  };
  const { contract, legacy } = verifyBothPolicies(rollout, verifyOptions, options);
  const recorded = contract.recorded_reward;
  if (!isZeroReward(recorded, contract.reward, legacy.reward)) return null;
  const evidence = evidenceOf(contract, legacy);
  const reproduction = reproducedBy(recorded, contract.reward, legacy.reward);
  const drift = explainDrift(rollout, contract, legacy, evidence);
  const base = {
    recorded,
    recomputed: evidence.reward,
    contract: contract.reward,
    legacy: legacy.reward,
    reproduced_by: reproduction,
    drift,
    decisive: [] as DecisiveCall[],
    signature: null,
  };

  // 1. malformed
  const items = requestCalls(rollout.response.output);
  if (!items.ok) {
    return {
      ...base,
      cause: "malformed",
      sentence: `Gym's request model refuses this response (${items.error}), so it cannot be scored.`,
    };
  }
  const rejected = contract.gym_would_reject ?? [];
  if (rejected.length > 0) {
    return {
      ...base,
      cause: "malformed",
      sentence: `Gym's request validation would reject this rollout: ${rejected.join("; ")}.`,
    };
  }
  const code = contract.unverified?.code;
  const why = contract.unverified?.message ?? contract.error ?? contract.explanation[0] ?? "no reward";
  // lib/verify's reason code decides: what Gym itself refuses is malformed, the rest cannot be checked.
  if (contract.reward === null && (code === "gym_refuses" || code === "not_a_rollout"))
    return { ...base, cause: "malformed", sentence: `Gym could not score it: ${why}` };

  const calls = contract.resolution.calls;
  const outcomes = readCallOutcomes(evidence.details);
  const failed = outcomes.filter(isFailedCall);
  const traces = tracesOf(evidence);

  // 2. drift: the recorded reward is reproduced by neither policy
  if (drift !== null) {
    const decisive = isZeroOrBelow(evidence.reward)
      ? decisiveOf(failed, traces, judgedCalls(evidence))
      : ([] as DecisiveCall[]);
    return { ...base, cause: "drift", sentence: drift, decisive, ...(traces.length > 0 ? { traces } : {}) };
  }

  // 3-5. run health, from what the line records about the model call
  const health = readHealth(rollout);
  if (health !== null) {
    const sentence =
      health.kind === "model_error"
        ? `The model call failed (${health.detail}): the agent never answered.`
        : health.kind === "truncated"
          ? `The model's response was cut off (${health.detail}): the rollout ended before the agent finished.`
          : `The model produced no output tokens (${health.detail}).`;
    return { ...base, cause: health.kind, sentence, signature: health.kind };
  }

  // 6. unverifiable: no server, no port of its verifier, missing task data, or the port failed
  if (contract.reward === null) return { ...base, ...unverifiedCause(contract, recorded) };

  // 7. identity: the names changed the outcome
  const rescue =
    isZeroOrBelow(evidence.reward) && options.whatIf !== false
      ? whatIfRescue(rollout, evidence, options.input)
      : null;
  if (namesMatter(contract)) {
    const renamed = calls
      .filter((call) => call.verifier_name !== call.emitted || call.provenance !== null)
      .map((call) => ({
        index: call.index,
        why: `emitted ${call.emitted}, verified as ${call.verifier_name}`,
      }));
    if (contract.reward !== legacy.reward && legacy.reward !== null) {
      const lost = isZeroOrBelow(contract.reward) ? "contract" : "legacy";
      return {
        ...base,
        cause: "identity",
        identity: { kind: "policies", contract: contract.reward, legacy: legacy.reward },
        decisive: renamed,
        sentence:
          `Scores ${contract.reward} under the contract policy (provenance followed) and ${legacy.reward} under legacy: ` +
          `the tool names, not the agent, decided the reward${lost === "legacy" ? " (legacy ignores the provenance map)" : ""}.` +
          (reproduction === "contract" || reproduction === "legacy"
            ? ` The recorded ${recorded} is the ${reproduction} policy's.`
            : ""),
      };
    }
    if (rescue !== null) {
      return {
        ...base,
        cause: "identity",
        identity: { kind: "whatif", harness: rescue.harness, reward: rescue.reward },
        ...(rescue.same ? { what_if_map: rescue.harness } : {}),
        decisive: renamed,
        sentence: `With ${rescueText(rescue).slice("with ".length)}: the emitted names were never mapped back to the server's tools.`,
      };
    }
  }

  // 8. no_tool_call
  if (calls.length === 0) {
    const written = textToolCall(rollout);
    return {
      ...base,
      ...(written === null ? {} : { text_call: written }),
      cause: "no_tool_call",
      sentence: `The response makes no function_call at all.${written === null ? "" : ` ${textToolCallText(written)}`}`,
      signature: "no_tool_call",
    };
  }

  // 9. tool_failed
  if (failed.length > 0) {
    // Calls that failed the same way are quoted once ("calls #0, #1 and #2 X skipped: ..."): a harness
    // alias repeated on every call read as the same long name six times.
    const groups = new Map<string, (typeof failed)[number][]>();
    for (const call of failed) {
      const key = JSON.stringify([call.name, call.outcome === "refused", call.message ?? call.outcome]);
      const group = groups.get(key);
      if (group) group.push(call);
      else groups.set(key, [call]);
    }
    const quoted = [...groups.values()].slice(0, TRACES_PER_SENTENCE);
    const shown = quoted.map((calls) => {
      const call = calls[0]!;
      // At most CALLS_PER_GROUP numbers: 200 calls of one alias made a sentence of every number.
      const numbers = calls.slice(0, CALLS_PER_GROUP).map((c) => `#${c.index}`);
      const rest = calls.length - numbers.length;
      const which =
        calls.length === 1
          ? `call #${call.index}`
          : rest === 0
            ? `calls ${joinList(numbers)}`
            : `${calls.length} calls (${numbers.join(", ")} and ${rest} more)`;
      return `${which} ${call.name || "(no name)"} ${call.outcome === "refused" ? "refused" : "skipped"}: ${(call.message ?? call.outcome).replace(/\.$/, "")}`;
    });
    const left = failed.length - quoted.reduce((n, calls) => n + calls.length, 0);
    const more = left > 0 ? `; and ${left} more` : "";
    const hint = rescue === null ? "" : ` The names look like harness aliases: ${rescueText(rescue)}.`;
    return {
      ...base,
      cause: "tool_failed",
      ...(rescue?.same ? { what_if_map: rescue.harness } : {}),
      failed_calls: failed.map((call) => call.index),
      decisive: failed.map((call) => ({
        index: call.index,
        why:
          call.outcome === "refused"
            ? `refused: ${call.message ?? ""}`
            : `skipped: ${call.message ?? call.outcome}`,
      })),
      sentence: `${failedLead(failed, evidence.server)}: ${shown.join("; ")}${more}.${hint}`,
      // Names no tool of the server knows are the harness's doing, not the task's: never task_wide.
      signature: failed.every((call) => call.outcome === "unknown_name")
        ? null
        : signatureOf("tool_failed", [...new Set(failed.map((c) => `${c.name}: ${c.message ?? c.outcome}`))]),
    };
  }

  // 10. wrong_end_state
  const tables = [...new Set(traces.map((trace) => trace.table))];
  const unequal =
    evidence.details?.kind === "workplace_assistant"
      ? evidence.details.tables.filter((t) => !t.equal).map((t) => t.table)
      : [];
  const zeroComponents = Object.entries(evidence.components ?? {})
    .filter(([, value]) => value === 0)
    .map(([name]) => name);
  const differs = unequal.length > 0 ? unequal : zeroComponents;
  const judged = judgedCalls(evidence);
  const names = groundTruthNames(evidence);
  const shown = traces.slice(0, TRACES_PER_SENTENCE).map((trace) => traceText(trace, names));
  const more = traces.length > TRACES_PER_SENTENCE ? `; and ${traces.length - TRACES_PER_SENTENCE} more` : "";
  const sentence =
    traces.length > 0
      ? `Every call ran, but the end state differs in ${tables.join(", ")}: ${shown.join("; ")}${more}.`
      : unequal.length > 0
        ? `Every call ran, but the end state differs from the expected one in ${unequal.join(", ")}${evidence.explanation[1] === undefined ? "" : `: ${evidence.explanation[1]}`}`
        : zeroComponents.length > 0
          ? `The verifier scored 0 on ${zeroComponents.join(", ")}${judged.length > 0 ? `; ${judged.map((j) => `call #${j.index} ${j.why}`).join("; ")}` : ""}.`
          : `The verifier scored 0: ${evidence.explanation[0] ?? "no explanation"}${judged.length > 0 ? ` (${judged.map((j) => `call #${j.index} ${j.why}`).join("; ")})` : ""}`;
  // A verifier that reads the calls rather than running them (example_multi_step) records no refused call:
  // names no tool of the server knows end here, and the what-if says whether a map rescues them.
  const hint = rescue === null ? "" : ` The names look like harness aliases: ${rescueText(rescue)}.`;
  return {
    ...base,
    cause: "wrong_end_state",
    ...(rescue?.same ? { what_if_map: rescue.harness } : {}),
    differs,
    decisive: decisiveOf([], traces, judged),
    ...(traces.length > 0 ? { traces } : {}),
    sentence: `${/[.!?]$/.test(sentence) ? sentence : `${sentence}.`}${hint}`,
    // Names a map rescues are the harness's doing, not the task's: never task_wide (as tool_failed's).
    signature:
      rescue?.same === true
        ? null
        : signatureOf(
            "wrong_end_state",
            traces.length > 0 ? traces.map((t) => `${t.table}.${t.key}.${t.column ?? t.what}`) : differs,
          ),
  };
}

/**
 * How many parts a failure signature keeps (with the count of all): enough to tell two failures apart, and
 * a run row stays small when a 100k-call rollout fails in 100k places.
 */
export const SIGNATURE_PARTS = 20;

function signatureOf(cause: ZeroCause, parts: readonly string[]): string {
  const sorted = [...parts].sort();
  return `${cause} ${sorted.length}: ${sorted.slice(0, SIGNATURE_PARTS).join(" | ")}`;
}

/** The failed calls, else the calls that wrote each differing cell, else the calls the verifier judged. */
function decisiveOf(
  failed: readonly { index: number; outcome: string; message?: string }[],
  traces: readonly CellTrace[],
  judged: readonly DecisiveCall[],
): DecisiveCall[] {
  if (failed.length > 0)
    return failed.map((call) => ({ index: call.index, why: `${call.outcome}: ${call.message ?? ""}` }));
  const byCall = new Map<number, string[]>();
  for (const trace of traces) {
    if (trace.by === null) continue;
    const what =
      trace.column === null
        ? `${trace.table} row ${trace.key}`
        : `${trace.table} ${trace.key}.${trace.column}`;
    byCall.set(trace.by, [...(byCall.get(trace.by) ?? []), what]);
  }
  if (byCall.size > 0) {
    return [...byCall.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, cells]) => ({ index, why: `wrote ${cells.join(", ")}` }));
  }
  return [...judged];
}

/** One rollout's triage in a run: its cause and its three rewards. */
export interface TriagedLine {
  readonly line: number;
  readonly cause: ZeroCause | null;
  readonly recorded: number | null;
  readonly contract: number | null;
  readonly legacy: number | null;
  /** RolloutTriage.what_if_map, or null. */
  readonly what_if_map: string | null;
  /** RolloutTriage.text_call was set: the response wrote its call as text. */
  readonly text_call: boolean;
}

export interface RunTriage {
  /** Which reward decides what a zero is. */
  readonly view: ZeroView;
  /** Rollouts seen. */
  readonly total: number;
  /** Rollouts with a reward in this view (a recorded reward, or a recomputed one under the policy). */
  readonly scored: number;
  /** Rollouts whose reward in this view is 0 or below (each has a cause). */
  readonly zero: number;
  /** Of those, the rollouts whose reward is below 0 (the headline names them). */
  readonly negative: number;
  readonly counts: Readonly<Record<ZeroCause, number>>;
  /** Lines per cause, in the order given. */
  readonly lines: Readonly<Record<ZeroCause, readonly number[]>>;
  /**
   * Every drifted rollout's line, whatever the view: drift is counted apart over the whole run, as the
   * sentence on which policy reproduces the recorded reward counts it and as the filter cause:drift keeps
   * it (a run recorded 1 and recomputed 0 is all drift, with no recorded zero).
   */
  readonly drifted: readonly number[];
  /** Over every rollout: which policy reproduces the recorded reward (the run's scoring, as a finding). */
  readonly reproduced: Readonly<Record<Reproduction, number>>;
  /**
   * The zeros of this view whose calls' names are a harness's aliases and that score above 0 with its
   * provenance map for them (RolloutTriage.what_if_map: identity, tool_failed or wrong_end_state rows): the
   * answer to "is it the MCP alias problem?" for a run that recorded no map, whose zeros are tool_failed, or
   * wrong_end_state where the verifier reads the calls (never identity: bare names are the agent's own under
   * the contract).
   */
  readonly fixed_by_map: {
    readonly lines: readonly number[];
    /** The harnesses whose maps do it, sorted. */
    readonly harnesses: readonly string[];
    /** The causes they are counted under (ZERO_CAUSES order): tool_failed or wrong_end_state in a run with no map. */
    readonly causes: readonly ZeroCause[];
  };
  /**
   * The zeros of this view whose response makes no function_call and writes its call as text instead
   * (RolloutTriage.text_call), whatever cause they end under (task_wide too): the model server's tool-call
   * parser did not extract them.
   */
  readonly text_calls: readonly number[];
}

/**
 * The run's scoring as one sentence, every front end's: "Recorded reward reproduced by both policies 3,
 * contract only 0, legacy only 2, neither 1; not comparable 5 (no recorded reward, or neither policy
 * verified it)." and, when legacy reproduces more than contract, what that means.
 */
export function reproducedText(triage: Pick<RunTriage, "reproduced" | "total">): string {
  const r = triage.reproduced;
  const apart = triage.total - (r.both + r.contract + r.legacy + r.neither);
  const rest =
    apart === 0 ? "" : `; not comparable ${apart} (no recorded reward, or neither policy verified it)`;
  const mostly = r.legacy > r.contract ? ` Mostly legacy: ${REPRODUCTION_TEXT.legacy}.` : "";
  return `Recorded reward reproduced by both policies ${r.both}, contract only ${r.contract}, legacy only ${r.legacy}, neither ${r.neither}${rest}.${mostly}`;
}

/**
 * The zeros a provenance map would rescue, as one sentence every front end shows under the breakdown (null
 * when none): "5 of the 10 zeros score above 0 with a provenance map for their calls (harness what-if,
 * hermes-legacy): the tool names, not the agent, lost those rewards. …"
 */
export function fixedByMapText(triage: Pick<RunTriage, "fixed_by_map" | "zero">): string | null {
  const { lines, harnesses, causes } = triage.fixed_by_map;
  if (lines.length === 0) return null;
  // Named by the causes they are counted under: a run with no map has them as "Call rejected or no such
  // tool" (never identity), and the sentence says which of those the names explain.
  const counted = ` (counted as ${causes.map((cause) => `"${ZERO_CAUSE_LABELS[cause]}"`).join(" and ")})`;
  return (
    `${zerosSubject(lines.length, triage.zero)}${counted} ` +
    `${lines.length === 1 ? "scores" : "score"} above 0 with a provenance map for ${lines.length === 1 ? "its" : "their"} calls ` +
    `(harness what-if, ${harnesses.join(", ")}): the tool names, not the agent, lost ${lines.length === 1 ? "that reward" : "those rewards"}. ` +
    "Repair derives that map from the harness's exact aliases."
  );
}

/** `n` of a view's `zero` zeros as a sentence's subject: "The zero", "All 5 zeros", "3 of the 5 zeros". */
function zerosSubject(n: number, zero: number): string {
  if (n !== zero) return `${n} of the ${zero} zeros`;
  return n === 1 ? "The zero" : `All ${n} zeros`;
}

/**
 * The zeros whose call was written as text, as one sentence every front end shows under the breakdown (null
 * when none).
 */
export function textCallsText(triage: Pick<RunTriage, "text_calls" | "zero">): string | null {
  const n = triage.text_calls.length;
  if (n === 0) return null;
  return (
    `${zerosSubject(n, triage.zero)} ` +
    `${n === 1 ? "writes its" : "write their"} tool call as text and ${n === 1 ? "makes" : "make"} no function_call ` +
    "(<tool_call>, [TOOL_CALLS], a JSON call object…): Gym reads function_call items only, so the model server's " +
    `tool-call parser did not extract ${n === 1 ? "it" : "them"}.`
  );
}

function emptyRecord<T>(make: () => T): Record<ZeroCause, T> {
  return {
    malformed: make(),
    drift: make(),
    model_error: make(),
    truncated: make(),
    no_output: make(),
    no_server: make(),
    no_verifier_port: make(),
    missing_task_data: make(),
    verifier_error: make(),
    identity: make(),
    task_wide: make(),
    no_tool_call: make(),
    tool_failed: make(),
    wrong_end_state: make(),
  };
}

/**
 * How many rollouts a cause counts in a run's breakdown, for every front end: the view's zeros per cause,
 * and for drift, counted apart, every drifted rollout of the run.
 */
export function causeCount(triage: Pick<RunTriage, "counts" | "drifted">, cause: ZeroCause): number {
  return cause === "drift" ? triage.drifted.length : triage.counts[cause];
}

/** Every cause's count in a run's breakdown (causeCount of each), e.g. one file's line in a folder's table. */
export function causeCounts(triage: Pick<RunTriage, "counts" | "drifted">): Record<ZeroCause, number> {
  const counts = emptyRecord<number>(() => 0);
  for (const cause of ZERO_CAUSES) counts[cause] = causeCount(triage, cause);
  return counts;
}

/**
 * Several runs' breakdowns in one view added up (a folder's files, each counted within itself): the zeros,
 * rollouts and the zeros a provenance map rescues, what a folder's headline and sentence read.
 */
export function addTriages(
  parts: readonly RunTriage[],
): Pick<
  RunTriage,
  "total" | "scored" | "zero" | "negative" | "counts" | "drifted" | "fixed_by_map" | "text_calls"
> {
  const sum = (pick: (part: RunTriage) => number) => parts.reduce((n, part) => n + pick(part), 0);
  const counts = emptyRecord<number>(() => 0);
  for (const cause of ZERO_CAUSES) counts[cause] = sum((part) => part.counts[cause]);
  return {
    total: sum((part) => part.total),
    counts,
    // Each part's own line numbers: counted (causeCount), never read as lines of one file.
    drifted: parts.flatMap((part) => part.drifted),
    scored: sum((part) => part.scored),
    zero: sum((part) => part.zero),
    negative: sum((part) => part.negative),
    fixed_by_map: {
      lines: parts.flatMap((part) => part.fixed_by_map.lines),
      harnesses: [...new Set(parts.flatMap((part) => part.fixed_by_map.harnesses))].sort(),
      causes: ZERO_CAUSES.filter((cause) => parts.some((part) => part.fixed_by_map.causes.includes(cause))),
    },
    text_calls: parts.flatMap((part) => part.text_calls),
  };
}

/** The breakdown of a run in one view: the rollouts whose reward in that view is 0 or below, per cause. */
export function summarizeTriage(items: Iterable<TriagedLine>, view: ZeroView = "recorded"): RunTriage {
  const lines = emptyRecord<number[]>(() => []);
  const reproduced: Record<Reproduction, number> = { both: 0, contract: 0, legacy: 0, neither: 0 };
  let total = 0;
  let scored = 0;
  let zero = 0;
  let negative = 0;
  const drifted: number[] = [];
  const fixed: number[] = [];
  const harnesses = new Set<string>();
  const fixedCauses = new Set<ZeroCause>();
  const textCalls: number[] = [];
  for (const item of items) {
    total++;
    if (item.cause === "drift") drifted.push(item.line);
    const reproduction = reproducedBy(item.recorded, item.contract, item.legacy);
    if (reproduction !== null) reproduced[reproduction]++;
    const reward = item[view];
    if (reward === null) continue;
    scored++;
    if (!isZeroOrBelow(reward) || item.cause === null) continue;
    zero++;
    if (reward < 0) negative++;
    lines[item.cause].push(item.line);
    if (item.text_call) textCalls.push(item.line);
    if (item.what_if_map !== null) {
      fixed.push(item.line);
      harnesses.add(item.what_if_map);
      fixedCauses.add(item.cause);
    }
  }
  const counts = emptyRecord(() => 0);
  for (const cause of ZERO_CAUSES) counts[cause] = lines[cause].length;
  const fixed_by_map = {
    lines: fixed,
    harnesses: [...harnesses].sort(),
    causes: ZERO_CAUSES.filter((cause) => fixedCauses.has(cause)),
  };
  return {
    view,
    total,
    scored,
    zero,
    negative,
    counts,
    lines,
    drifted,
    reproduced,
    fixed_by_map,
    text_calls: textCalls,
  };
}
