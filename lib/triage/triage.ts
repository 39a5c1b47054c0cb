/**
 * Why-zero triage: every rollout whose recorded or recomputed reward is 0 gets exactly one cause, decided
 * from what the library already computes (the rollout schema, the verify result under both policies, the
 * verifier's details and, when names may be at fault, the harness what-if). Nothing here re-scores
 * anything in a new way; it reads those results in a fixed order.
 *
 * Precedence (the first that holds wins; ZERO_CAUSES lists them in this order):
 *  1. malformed       an output item Gym's request model refuses, or a `gym_would_reject` finding: Gym
 *                     itself could not have scored it. (A line that is not a rollout at all is an unreadable
 *                     line, counted beside the rollouts and never triaged: lib/schemas readRollout.)
 *  2. no_task_data    no reward can be recomputed (no verifying server, no verifier, no task fields such as
 *                     ground_truth): the 0 cannot be checked. Open the materialized inputs to verify.
 *  3. identity        the tool names, not the agent, lost the reward: it scores above 0 under the contract
 *                     policy, or (no map recorded) under a harness what-if with provenance.
 *  4. no_tool_call    the response has no function_call at all.
 *  5. tool_failed     a call the tool rejected: it raised, named no tool of the server, or a tool that can
 *                     change a compared table refused it (the calls the verifier's own explanation cites).
 *  6. wrong_end_state everything ran, and the verifier scored 0: table differences, or a 0 component.
 *
 * Why this order: causes earlier in the list make the later ones meaningless (a malformed or unverifiable
 * line has no trustworthy end state; a name problem produces unknown-tool errors and a wrong end state as
 * its symptoms; with no call at all there is nothing to fail), so the earliest is the root cause.
 */

import type { HarnessId } from "../harness/types";
import type { Policy } from "../identity/types";
import type { Rollout } from "../schemas";
import { knownTools, verifyRollout } from "../verify";
import { functionCalls as requestFunctionCalls } from "../verify/request";
import type { VerifyResult } from "../verify/types";
import { harnessWhatIf } from "../whatif";
import { readCallOutcomes, readTableDiffs } from "./details";

/** The causes, in precedence order. */
export const ZERO_CAUSES = [
  "malformed",
  "no_task_data",
  "identity",
  "no_tool_call",
  "tool_failed",
  "wrong_end_state",
] as const;
export type ZeroCause = (typeof ZERO_CAUSES)[number];

export const ZERO_CAUSE_LABELS: Readonly<Record<ZeroCause, string>> = {
  malformed: "Malformed",
  no_task_data: "No task data",
  identity: "Identity",
  no_tool_call: "No tool call",
  tool_failed: "Tool refused/errored",
  wrong_end_state: "Wrong end state",
};

/** One sentence per cause: what it means (the precedence is ZERO_CAUSES' order). */
export const ZERO_CAUSE_HINTS: Readonly<Record<ZeroCause, string>> = {
  malformed: "A request Gym itself would refuse: it could not have been scored.",
  no_task_data: "Unverifiable: no server, no verifier or no task fields (open the materialized inputs).",
  identity:
    "The tool names lost the reward: it scores above 0 under the contract policy, or with provenance in the harness what-if.",
  no_tool_call: "The response makes no function_call.",
  tool_failed:
    "A call the tool rejected: it raised, named no tool of the server, or a table-changing tool refused it.",
  wrong_end_state: "Every call ran; the end state (tables) or a verifier component is wrong.",
};

/** How an identity cause was established. */
export type IdentityBasis =
  | { readonly kind: "contract"; readonly reward: number }
  | { readonly kind: "whatif"; readonly harness: HarnessId; readonly reward: number };

export interface RolloutTriage {
  readonly cause: ZeroCause;
  /** One sentence a researcher can act on. */
  readonly sentence: string;
  readonly recorded: number | null;
  /** The recomputed reward under the triage policy (null: unverified). */
  readonly recomputed: number | null;
  /** For identity: which computation scored above 0. */
  readonly identity?: IdentityBasis;
  /** For tool_failed: the call indexes (0-based among function_calls) the tool rejected. */
  readonly failed_calls?: readonly number[];
  /** For wrong_end_state: the tables that differ, or the components at 0. */
  readonly differs?: readonly string[];
}

export interface TriageOptions {
  /** The verifying server; default the rollout's (verifyRollout's rule). */
  readonly server?: string;
  /** The rollout's materialized-inputs row. */
  readonly input?: unknown;
  readonly harness?: HarnessId;
  /** Which recomputed reward counts as "the recomputed reward" for zero detection; default contract. */
  readonly policy?: Policy;
  /** Precomputed verify results, to avoid verifying twice (they must be for the same server and input). */
  readonly contract?: VerifyResult;
  readonly legacy?: VerifyResult;
  /** Run the harness what-if when the contract reward is 0 and a call names no tool of S (default true). */
  readonly whatIf?: boolean;
}

function recordedReward(rollout: Rollout): number | null {
  return typeof rollout.reward === "number" ? rollout.reward : null;
}

/** A rollout needs a cause when its recorded or its recomputed reward is exactly 0. */
export function isZeroReward(recorded: number | null, recomputed: number | null): boolean {
  return recorded === 0 || recomputed === 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The one cause of a zero reward, or null when neither the recorded nor the recomputed reward is 0.
 * Never throws for bad data.
 */
export function triageRollout(rollout: Rollout, options: TriageOptions = {}): RolloutTriage | null {
  const policy = options.policy ?? "contract";
  const verifyOptions = {
    ...(options.server === undefined ? {} : { server: options.server }),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.harness === undefined ? {} : { harness: options.harness }),
  };
  const contract = options.contract ?? verifyRollout(rollout, { ...verifyOptions, policy: "contract" });
  const chosen =
    policy === "contract"
      ? contract
      : (options.legacy ?? verifyRollout(rollout, { ...verifyOptions, policy: "legacy" }));
  const recorded = recordedReward(rollout);
  const recomputed = chosen.reward;
  if (!isZeroReward(recorded, recomputed)) return null;
  const base = { recorded, recomputed };

  // 1. malformed
  const items = requestFunctionCalls(rollout.response.output);
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

  // 2. no_task_data
  // lib/verify's reason code decides: what Gym itself refuses is malformed, the rest cannot be checked.
  if (contract.reward === null) {
    const code = contract.unverified?.code;
    const why = contract.unverified?.message ?? contract.error ?? contract.explanation[0] ?? "no reward";
    if (code === "gym_refuses" || code === "not_a_rollout")
      return { ...base, cause: "malformed", sentence: `Gym could not score it: ${why}` };
    return { ...base, cause: "no_task_data", sentence: `Unverifiable, so the 0 cannot be checked: ${why}` };
  }

  // 3. identity
  if (contract.reward > 0) {
    return {
      ...base,
      cause: "identity",
      identity: { kind: "contract", reward: contract.reward },
      sentence:
        `Scores ${contract.reward} under the contract policy (provenance followed): ` +
        "the tool names, not the agent, lost the reward.",
    };
  }
  const tools = contract.server === null ? undefined : knownTools(contract.server);
  const calls = contract.resolution.calls;
  const unknownName =
    tools !== undefined &&
    calls.some((call) => !tools.includes(call.verifier_name) && call.status !== "external");
  if (unknownName && options.whatIf !== false) {
    const report = harnessWhatIf(rollout, {
      ...(contract.server === null ? {} : { server: contract.server }),
      ...(options.input === undefined ? {} : { input: options.input }),
    });
    const emitted = calls.map((call) => call.emitted);
    const scoring = report.rows.filter((row) => row.withProvenance && row.reward !== null && row.reward > 0);
    // Prefer the harness whose aliases are exactly the emitted names: the same rollout, plus a map.
    const rescued =
      scoring.find((row) => row.emittedNames.every((name, i) => name === emitted[i])) ?? scoring[0];
    if (rescued !== undefined && rescued.reward !== null) {
      const same = rescued.emittedNames.every((name, i) => name === emitted[i]);
      return {
        ...base,
        cause: "identity",
        identity: { kind: "whatif", harness: rescued.harness, reward: rescued.reward },
        sentence:
          `With a provenance map for its calls${same ? ` (the ${rescued.harness} names it emitted)` : ` (re-emitted under ${rescued.harness})`}, ` +
          `it scores ${rescued.reward}: the emitted names were never mapped back to the server's tools (harness what-if).`,
      };
    }
  }

  // 4. no_tool_call
  if (calls.length === 0) {
    return { ...base, cause: "no_tool_call", sentence: "The response makes no function_call at all." };
  }

  // 5. tool_failed
  const outcomes = readCallOutcomes(contract.details);
  const failed = outcomes.filter(
    (call) =>
      call.outcome === "error" ||
      call.outcome === "unknown_name" ||
      (call.outcome === "refused" && call.mutates === true),
  );
  if (failed.length > 0) {
    const first = failed[0];
    return {
      ...base,
      cause: "tool_failed",
      failed_calls: failed.map((call) => call.index),
      sentence:
        `${plural(failed.length, "call")} rejected by the tool` +
        (first === undefined
          ? "."
          : `; first #${first.index} ${first.name || "(no name)"}: ${(first.message ?? first.outcome).replace(/\.$/, "")}.`),
    };
  }

  // 6. wrong_end_state
  const tables = readTableDiffs(contract.details)
    .filter((table) => !table.equal)
    .map((table) => table.table);
  const zeroComponents = Object.entries(contract.components ?? {})
    .filter(([, value]) => value === 0)
    .map(([name]) => name);
  const differs = tables.length > 0 ? tables : zeroComponents;
  return {
    ...base,
    cause: "wrong_end_state",
    differs,
    sentence:
      tables.length > 0
        ? `Every call ran, but the end state differs from the expected one in ${tables.join(", ")}.`
        : zeroComponents.length > 0
          ? `The verifier scored 0 on ${zeroComponents.join(", ")}.`
          : `The verifier scored 0: ${contract.explanation[0] ?? "no explanation"}`,
  };
}

/** One rollout's triage in a run. */
export interface TriagedLine {
  readonly line: number;
  readonly triage: Pick<RolloutTriage, "cause"> | null;
}

export interface RunTriage {
  /** Rollouts seen (including malformed lines handed in). */
  readonly total: number;
  /** Rollouts with a cause. */
  readonly zero: number;
  readonly counts: Readonly<Record<ZeroCause, number>>;
  /** Lines per cause, in the order given. */
  readonly lines: Readonly<Record<ZeroCause, readonly number[]>>;
}

function emptyRecord<T>(make: () => T): Record<ZeroCause, T> {
  return {
    malformed: make(),
    no_task_data: make(),
    identity: make(),
    no_tool_call: make(),
    tool_failed: make(),
    wrong_end_state: make(),
  };
}

/** The breakdown of a run: counts and lines per cause. */
export function summarizeTriage(items: Iterable<TriagedLine>): RunTriage {
  const lines = emptyRecord<number[]>(() => []);
  let total = 0;
  let zero = 0;
  for (const item of items) {
    total++;
    if (item.triage === null) continue;
    zero++;
    lines[item.triage.cause].push(item.line);
  }
  const counts = emptyRecord(() => 0);
  for (const cause of ZERO_CAUSES) counts[cause] = lines[cause].length;
  return { total, zero, counts, lines };
}
