/**
 * The comparison by task: with Gym's repeats (k rollouts of each task on each side), rollout k of A and
 * rollout k of B are two samples of one task, not one rollout run twice, so a reviewer compares each task's
 * passes on both sides. Pairs are grouped by their task (Gym's task index, else the key they were joined by:
 * a task input repeated), each side's rewards read on the pair's basis (recomputed when both sides have one).
 */
import type { CompareReport, PairReport } from "./compare";

export interface TaskSide {
  /** Rollouts with a reward above 0 (Gym's pass). */
  readonly passes: number;
  /** Rollouts with a reward on the pair's basis. */
  readonly scored: number;
  /** Mean of those rewards; null when none has one. */
  readonly mean: number | null;
}

export interface TaskComparison {
  /** Gym's task index, or null for a task joined by its input (or id). */
  readonly task_index: number | null;
  /** Position in report.pairs of each pair of the task, in report order. */
  readonly pairs: readonly number[];
  readonly a: TaskSide;
  readonly b: TaskSide;
  /** B's mean less A's; null when either side has no reward. */
  readonly delta: number | null;
}

export interface TaskCompareSummary {
  readonly tasks: number;
  /** Tasks with more than one pair: the ones whose passes the pairs alone do not show. */
  readonly repeated: number;
  /** Tasks whose mean reward is lower in B, higher in B, the same (null deltas counted in none). */
  readonly lower_in_b: number;
  readonly higher_in_b: number;
  readonly same: number;
}

/**
 * Means closer than this are the same: [0.1, 0.2, 0.3] and [0.3, 0.2, 0.1] differ by 5.6e-17 in floating
 * point, which a reviewer would read as "lower" (rewards are written with 4 decimals, MEAN_DECIMALS).
 */
const SAME_MEAN = 1e-9;

function sameOrDelta(delta: number): number {
  return Math.abs(delta) < SAME_MEAN ? 0 : delta;
}

function sideOf(rewards: readonly (number | null)[]): TaskSide {
  const scored = rewards.filter((r): r is number => r !== null);
  const sum = scored.reduce((total, r) => total + r, 0);
  return {
    passes: scored.filter((r) => r > 0).length,
    scored: scored.length,
    mean: scored.length === 0 ? null : sum / scored.length,
  };
}

/** The rewards a pair's verdict compares: recomputed when both sides have one, else recorded. */
function basisRewards(pair: PairReport): [number | null, number | null] {
  return pair.reward_basis === "recomputed"
    ? [pair.a.reward, pair.b.reward]
    : [pair.a.recorded_reward, pair.b.recorded_reward];
}

/**
 * Every task of the comparison, lower in B first (the largest drop first), then higher, then the same; tasks
 * in order of their first pair within each.
 */
export function compareTasks(report: Pick<CompareReport, "pairs">): {
  readonly tasks: readonly TaskComparison[];
  readonly summary: TaskCompareSummary;
} {
  const groups = new Map<number, { task_index: number | null; pairs: number[] }>();
  report.pairs.forEach((pair, position) => {
    const group = groups.get(pair.task_group);
    if (group) group.pairs.push(position);
    else groups.set(pair.task_group, { task_index: pair.task_index, pairs: [position] });
  });
  const tasks = [...groups.values()].map(({ task_index, pairs }): TaskComparison => {
    const rewards = pairs.flatMap((position) => {
      const pair = report.pairs[position];
      return pair === undefined ? [] : [basisRewards(pair)];
    });
    const a = sideOf(rewards.map(([x]) => x));
    const b = sideOf(rewards.map(([, y]) => y));
    const delta = a.mean === null || b.mean === null ? null : sameOrDelta(b.mean - a.mean);
    return { task_index, pairs, a, b, delta };
  });
  const order = (t: TaskComparison) => (t.delta === null ? 3 : t.delta < 0 ? 0 : t.delta > 0 ? 1 : 2);
  // Lower, then higher, each the largest change first; the same, then unscored. Array sort is stable: ties
  // keep the order of their first pair.
  const sorted = [...tasks].sort(
    (x, y) => order(x) - order(y) || Math.abs(y.delta ?? 0) - Math.abs(x.delta ?? 0),
  );
  return {
    tasks: sorted,
    summary: {
      tasks: tasks.length,
      repeated: tasks.filter((t) => t.pairs.length > 1).length,
      lower_in_b: tasks.filter((t) => t.delta !== null && t.delta < 0).length,
      higher_in_b: tasks.filter((t) => t.delta !== null && t.delta > 0).length,
      same: tasks.filter((t) => t.delta === 0).length,
    },
  };
}

/**
 * How a task is named: Gym's task index, else the line of its first rollout on side `side` ("A", "a"), which
 * the front end knows (`line`, null when it does not).
 */
export function taskLabel(
  task: Pick<TaskComparison, "task_index">,
  side: string,
  line: number | null,
): string {
  return task.task_index !== null ? `task ${task.task_index}` : `${side} line ${line ?? "?"}'s task`;
}

/** The comparison by task in one sentence, the sides named as the front end names them ("B", "b"). */
export function tasksText(summary: TaskCompareSummary, b: string): string {
  const unscored = summary.tasks - summary.lower_in_b - summary.higher_in_b - summary.same;
  return `${summary.tasks} ${summary.tasks === 1 ? "task" : "tasks"}, ${summary.repeated} with several rollouts paired: over the paired rollouts, ${b}'s mean reward is lower on ${summary.lower_in_b}, higher on ${summary.higher_in_b}, the same on ${summary.same}${unscored > 0 ? ` (${unscored} without a reward on a side)` : ""}.`;
}
