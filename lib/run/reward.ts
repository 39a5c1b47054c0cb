/**
 * The one reward setting of a run view: which reward the why-zero headline and breakdown count zeros in,
 * the zero tile counts and filters, pass@k, "passed" and the distribution read, the chosen mean stands
 * out in, and every scope statement names. The run's own (recorded) reward by default, or a policy's
 * recomputation. The page keeps it in the URL as `?reward=` (REWARD_PARAM), the worker's run requests
 * carry it, and `cli triage|report --reward` take it; all read it with parseReward.
 */
import { DEFAULT_REWARD, REWARD_SOURCES, type RewardSource } from "../metrics";
import { ZERO_VIEWS, type ZeroView } from "../triage";
import { choosesInBreakdown, type FilterClause, type RewardField } from "./filter";

export type Reward = RewardField;

/** The settings, in the order the UI offers them. */
export const REWARDS: readonly Reward[] = ["recorded", "contract", "legacy"];

export { DEFAULT_REWARD };

/** The URL parameter that holds the setting (links from before it governed the breakdown read the same). */
export const REWARD_PARAM = "reward";

// One union under three names (the filter's reward fields, lib/metrics' sources, lib/triage's views):
// checked here at compile time both ways, so none can gain a member the others lack.
const sameAsSources: readonly RewardSource[] = REWARDS;
const sameAsViews: readonly ZeroView[] = REWARDS;
const fromSources: readonly Reward[] = REWARD_SOURCES;
const fromViews: readonly Reward[] = ZERO_VIEWS;
void [sameAsSources, sameAsViews, fromSources, fromViews];

export function isReward(text: string): text is Reward {
  return (REWARDS as readonly string[]).includes(text);
}

export type ParsedReward =
  | { readonly ok: true; readonly reward: Reward }
  | { readonly ok: false; readonly error: string };

/** The setting from its text: absent or empty is the default; anything else must name one. */
export function parseReward(text: string | null | undefined): ParsedReward {
  if (text === null || text === undefined || text === "") return { ok: true, reward: DEFAULT_REWARD };
  if (isReward(text)) return { ok: true, reward: text };
  return { ok: false, error: `the reward is one of ${REWARDS.join(", ")}, not "${text}"` };
}

/** The setting a link carries: an unreadable value falls back to the default (a link is never refused). */
export function rewardOfParams(params: URLSearchParams): Reward {
  const parsed = parseReward(params.get(REWARD_PARAM));
  return parsed.ok ? parsed.reward : DEFAULT_REWARD;
}

/**
 * A zero in this reward: 0 or below, as lib/triage counts them (a negative reward is a failed rollout too):
 * the clause the zero tile and a cause click add, `recorded:..0`.
 */
export function zeroClause(reward: Reward): FilterClause {
  return { kind: "range", field: reward, min: null, max: 0 };
}

/** Whether the clause is the zero clause of some reward (or `recorded:0`, what links said before negatives counted). */
export function isZeroClause(clause: FilterClause): clause is FilterClause & { kind: "range" } {
  return clause.kind === "range" && clause.max === 0 && (clause.min === null || clause.min === 0);
}

/**
 * The clauses the recorded fields' counts follow (lib/triage summarizeRecordedFields), every front end's: the
 * filter without its cause and `verifier:` clauses and the recorded reward's zero clause (what choosing a
 * value adds), so a value chosen there narrows the list, not the counts it was chosen from.
 */
export function recordedFieldsScope(clauses: readonly FilterClause[]): FilterClause[] {
  return clauses.filter(
    (c) => !choosesInBreakdown(c) && c.kind !== "verifier" && !(isZeroClause(c) && c.field === "recorded"),
  );
}

/**
 * The clauses after the setting moves from `from` to `to`: the zero clause of `from` becomes that of `to`
 * ("the zeros" follow the setting, so the list, the zero tile and the headline keep counting the same
 * rollouts); every other clause, a zero clause of a third reward included, is kept as written.
 */
export function moveZeros(clauses: readonly FilterClause[], from: Reward, to: Reward): FilterClause[] {
  if (from === to) return [...clauses];
  const target = (c: FilterClause) => isZeroClause(c) && c.field === to;
  const moved = clauses.map((c) => (isZeroClause(c) && c.field === from ? zeroClause(to) : c));
  // Never twice the same clause: a zero clause of `to` already there absorbs the moved one.
  const first = moved.findIndex(target);
  return moved.filter((c, i) => !target(c) || i === first);
}

const REWARD_NAME: Readonly<Record<Reward, string>> = {
  recorded: "the recorded reward",
  contract: "the reward recomputed under contract",
  legacy: "the reward recomputed under legacy",
};

/** "the recorded reward" / "the reward recomputed under contract": how scope statements name the setting. */
export function rewardName(reward: Reward): string {
  return REWARD_NAME[reward];
}
