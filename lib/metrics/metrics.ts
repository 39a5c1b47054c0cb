/**
 * Run metrics over per-rollout rows: mean reward by agent, task and server; pass@k over each task's
 * rollouts; the reward distribution; recorded vs recomputed per group; the change between policies; and
 * model and token usage from `response.model` / `response.usage`. Pure functions of the rows.
 *
 * A rollout "passes" when its reward is above 0 (the same line the why-zero triage draws), unless a
 * threshold is given. A null reward (unverified, or nothing recorded) is left out of means and pass@k and
 * counted separately, never read as 0.
 */
import { z } from "zod";

export type RewardSource = "recorded" | "contract" | "legacy";
export type GroupKey = "agent" | "task" | "server" | "model";

export interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
  readonly cached_tokens: number;
  readonly reasoning_tokens: number;
}

export interface MetricsRow {
  readonly line: number;
  readonly agent: string | null;
  /** The task the rollout counts toward (lib/run rowTask: `_ng_task_index` first, as Gym groups), as text. */
  readonly task: string | null;
  readonly server: string | null;
  readonly recorded: number | null;
  readonly contract: number | null;
  readonly legacy: number | null;
  readonly model: string | null;
  readonly usage: Usage | null;
}

const Count = z.number().finite().nonnegative();
const UsageSchema = z.looseObject({
  input_tokens: Count.optional().catch(undefined),
  output_tokens: Count.optional().catch(undefined),
  total_tokens: Count.optional().catch(undefined),
  input_tokens_details: z
    .looseObject({ cached_tokens: Count.nullish().catch(undefined) })
    .nullish()
    .catch(undefined),
  output_tokens_details: z
    .looseObject({ reasoning_tokens: Count.nullish().catch(undefined) })
    .nullish()
    .catch(undefined),
});
const ModelUsageSchema = z.looseObject({
  response: z
    .looseObject({
      model: z.string().optional().catch(undefined),
      usage: UsageSchema.nullish().catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/** `response.model` and `response.usage` (Responses API field names), when present and numeric. */
export function readModelUsage(rollout: unknown): { model: string | null; usage: Usage | null } {
  const parsed = ModelUsageSchema.safeParse(rollout);
  if (!parsed.success) return { model: null, usage: null };
  const response = parsed.data.response;
  // An empty name is no name (Gym's tau2 and swebench examples record ""): grouped with the lines without one.
  const model = response?.model === "" ? null : (response?.model ?? null);
  const u = response?.usage;
  if (u === undefined || u === null) return { model, usage: null };
  if (u.input_tokens === undefined && u.output_tokens === undefined && u.total_tokens === undefined)
    return { model, usage: null };
  const input = u.input_tokens ?? 0;
  const output = u.output_tokens ?? 0;
  return {
    model,
    usage: {
      input_tokens: input,
      output_tokens: output,
      total_tokens: u.total_tokens ?? input + output,
      cached_tokens: u.input_tokens_details?.cached_tokens ?? 0,
      reasoning_tokens: u.output_tokens_details?.reasoning_tokens ?? 0,
    },
  };
}

export interface PassOptions {
  /** A reward counts as a pass when it is strictly above this (default 0). */
  readonly above?: number;
}

export function passes(reward: number | null, options: PassOptions = {}): boolean {
  return reward !== null && reward > (options.above ?? 0);
}

/**
 * The unbiased pass@k estimator (Chen et al. 2021): 1 - C(n-c, k) / C(n, k), the chance that at least one
 * of k rollouts drawn without replacement from n, of which c pass, passes. Computed as a product so large n
 * does not overflow. Needs 0 <= c <= n and 1 <= k <= n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k))
    throw new RangeError("pass@k needs integers");
  if (c < 0 || c > n || k < 1 || k > n) throw new RangeError(`pass@k needs 0 <= c <= n and 1 <= k <= n`);
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

function rewardOf(row: MetricsRow, source: RewardSource): number | null {
  return row[source];
}

export interface GroupStats {
  /** The group's value; null gathers rows that have none. */
  readonly key: string | null;
  readonly n: number;
  /** Mean reward per source, over the rows that have one (null when none has). */
  readonly mean: Readonly<Record<RewardSource, number | null>>;
  /** Rows with a reward per source. */
  readonly scored: Readonly<Record<RewardSource, number>>;
  /** Recorded vs recomputed (contract): equal, different, or not comparable (either is null). */
  readonly recorded_vs_recomputed: {
    readonly equal: number;
    readonly differ: number;
    readonly incomparable: number;
  };
  /** Rows passing under the chosen reward (groupStats' options.reward; contract when none is given). */
  readonly passed: number;
  /**
   * Grouped by task: the task's own value, and its agent when the key names one (taskKeyOf), so the list
   * of a task's rollouts is asked for with both.
   */
  readonly task?: { readonly task: string; readonly agent: string | null; readonly scoped: boolean };
}

/**
 * By-task rows a view sends to the page at most. A run of 17,976 rollouts has ~4,500 tasks: all of them were
 * 2.6 MB of the run view's answer, 114 ms to deserialize in one task of the page, and a table no one scrolls.
 */
export const TASKS_SHOWN = 200;

export interface ShownTasks {
  readonly tasks: readonly GroupStats[];
  /** Tasks in all. */
  readonly total: number;
  /** All of them in task order, or the TASKS_SHOWN with the smallest share passing (then by task). */
  readonly order: "task" | "fewest_passing";
}

/** The by-task rows to show: all of a run with few tasks; else those whose rollouts pass least, first. */
export function shownTasks(byTask: readonly GroupStats[], max = TASKS_SHOWN): ShownTasks {
  if (byTask.length <= max) return { tasks: byTask, total: byTask.length, order: "task" };
  const share = (g: GroupStats) => (g.n === 0 ? 1 : g.passed / g.n);
  // Array sort is stable: ties keep task order.
  const tasks = [...byTask].sort((a, b) => share(a) - share(b)).slice(0, max);
  return { tasks, total: byTask.length, order: "fewest_passing" };
}

const SOURCES: readonly RewardSource[] = ["recorded", "contract", "legacy"];

/** Per-group means and recorded-vs-recomputed counts, groups ordered by key (null last). */
export function groupStats(
  rows: readonly MetricsRow[],
  by: GroupKey,
  options: PassOptions & { readonly reward?: RewardSource } = {},
): GroupStats[] {
  const groups = new Map<string | null, MetricsRow[]>();
  const taskKey = taskKeyOf(rows);
  // Grouped by identity, named by label: tasks of agents whose names would read alike stay apart.
  const labels = new Map<string | null, string | null>();
  for (const row of rows) {
    const task = by === "task" ? taskKey(row) : null;
    const key = by === "task" ? (task?.id ?? null) : row[by];
    const list = groups.get(key);
    if (list) list.push(row);
    else {
      groups.set(key, [row]);
      labels.set(key, by === "task" ? (task?.label ?? null) : key);
    }
  }
  const keys = [...groups.keys()].sort((a, b) => compareKeys(labels.get(a) ?? null, labels.get(b) ?? null));
  return keys.map((id) => {
    const key = labels.get(id) ?? null;
    const list = groups.get(id) ?? [];
    const first = list[0];
    const scoped = first === undefined ? false : (taskKey(first)?.scoped ?? false);
    const means: Record<RewardSource, number | null> = { recorded: null, contract: null, legacy: null };
    const scored: Record<RewardSource, number> = { recorded: 0, contract: 0, legacy: 0 };
    for (const source of SOURCES) {
      const values = list.map((r) => rewardOf(r, source)).filter((v): v is number => v !== null);
      means[source] = mean(values);
      scored[source] = values.length;
    }
    let equal = 0;
    let differ = 0;
    let incomparable = 0;
    for (const r of list) {
      if (r.recorded === null || r.contract === null) incomparable++;
      else if (r.recorded === r.contract) equal++;
      else differ++;
    }
    return {
      key,
      n: list.length,
      mean: means,
      scored,
      recorded_vs_recomputed: { equal, differ, incomparable },
      passed: list.filter((r) => passes(rewardOf(r, options.reward ?? "contract"), options)).length,
      ...(by === "task" && key !== null && first?.task != null
        ? { task: { task: first.task, agent: first.agent, scoped } }
        : {}),
    };
  });
}

/** Numeric keys in numeric order (task indexes), then text; null last. */
function compareKeys(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const na = Number(a);
  const nb = Number(b);
  if (a.trim() !== "" && b.trim() !== "" && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a < b ? -1 : 1;
}

export interface PassAtKResult {
  readonly k: number;
  /** Mean pass@k over the tasks with at least k scored rollouts; null when there is none. */
  readonly value: number | null;
  /** Tasks that counted. */
  readonly tasks: number;
  /** Tasks left out for having fewer than k scored rollouts. */
  readonly skipped: number;
}

/**
 * A rollout's task as metrics group it: its task, within its agent. Gym numbers each agent's task rows on
 * its own (`_ng_task_index` from 0 in each agent's dataset) and writes its group-level metrics per agent, so
 * task 1 of one agent is not task 1 of another. `id` tells groups apart (names cannot collide in it); `label`
 * names the agent only when the rows have tasks of several agents (a run of one agent keeps its task's name).
 */
export function taskKeyOf(
  rows: readonly MetricsRow[],
): (row: MetricsRow) => { readonly id: string; readonly label: string; readonly scoped: boolean } | null {
  const agents = new Set<string | null>();
  for (const row of rows) if (row.task !== null) agents.add(row.agent);
  const scoped = agents.size > 1;
  return (row) => {
    if (row.task === null) return null;
    if (!scoped) return { id: row.task, label: row.task, scoped };
    return {
      id: JSON.stringify([row.agent, row.task]),
      label: `${row.agent ?? "no agent"} / ${row.task}`,
      scoped,
    };
  };
}

/**
 * pass@k over each task's rollouts (rows without a task or a reward are left out), averaged over tasks; a
 * task is its agent's (taskKeyOf).
 */
export function runPassAtK(
  rows: readonly MetricsRow[],
  k: number,
  source: RewardSource = "contract",
  options: PassOptions = {},
): PassAtKResult {
  const byTask = new Map<string, { n: number; c: number }>();
  const taskKey = taskKeyOf(rows);
  for (const row of rows) {
    const reward = rewardOf(row, source);
    const task = taskKey(row)?.id ?? null;
    if (task === null || reward === null) continue;
    const t = byTask.get(task) ?? { n: 0, c: 0 };
    t.n++;
    if (passes(reward, options)) t.c++;
    byTask.set(task, t);
  }
  const values: number[] = [];
  let skipped = 0;
  for (const { n, c } of byTask.values()) {
    if (n < k) skipped++;
    else values.push(passAtK(n, c, k));
  }
  return { k, value: mean(values), tasks: values.length, skipped };
}

export interface DistributionBin {
  readonly reward: number;
  readonly count: number;
}

export interface RewardDistribution {
  /** Each distinct reward with its count, ascending (rewards are few distinct values in Gym environments). */
  readonly bins: readonly DistributionBin[];
  /** Rows with no reward from this source. */
  readonly missing: number;
}

export function rewardDistribution(rows: readonly MetricsRow[], source: RewardSource): RewardDistribution {
  const counts = new Map<number, number>();
  let missing = 0;
  for (const row of rows) {
    const reward = rewardOf(row, source);
    if (reward === null) missing++;
    else counts.set(reward, (counts.get(reward) ?? 0) + 1);
  }
  const bins = [...counts.entries()].sort(([a], [b]) => a - b).map(([reward, count]) => ({ reward, count }));
  return { bins, missing };
}

export interface PolicyChange {
  /** Rows whose contract reward is above the legacy one: provenance gained reward. */
  readonly gained: readonly number[];
  /** Rows whose contract reward is below the legacy one. */
  readonly lost: readonly number[];
  readonly same: number;
  /** Either policy gave no reward. */
  readonly incomparable: number;
  /** Mean of contract - legacy over comparable rows; null when none is. */
  readonly mean_delta: number | null;
}

export function policyChange(rows: readonly MetricsRow[]): PolicyChange {
  const gained: number[] = [];
  const lost: number[] = [];
  const deltas: number[] = [];
  let same = 0;
  let incomparable = 0;
  for (const row of rows) {
    if (row.contract === null || row.legacy === null) {
      incomparable++;
      continue;
    }
    deltas.push(row.contract - row.legacy);
    if (row.contract > row.legacy) gained.push(row.line);
    else if (row.contract < row.legacy) lost.push(row.line);
    else same++;
  }
  return { gained, lost, same, incomparable, mean_delta: mean(deltas) };
}

export interface UsageTotals {
  /** Rows that report usage. */
  readonly rollouts: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
  readonly cached_tokens: number;
  readonly reasoning_tokens: number;
  /** total_tokens / rollouts; null without any usage. */
  readonly mean_total_tokens: number | null;
}

/** The token line of every front end: what the rollouts reported, or that none did (not "0 tokens"). */
export function usageText(usage: UsageTotals, count: (n: number) => string = String): string {
  if (usage.rollouts === 0) return "no rollout reports its token usage (response.usage)";
  return `${count(usage.total_tokens)} total (${count(usage.input_tokens)} in · ${count(usage.output_tokens)} out) over ${count(usage.rollouts)} rollout${usage.rollouts === 1 ? "" : "s"} with usage`;
}

export function usageTotals(rows: readonly MetricsRow[]): UsageTotals {
  let rollouts = 0;
  let input = 0;
  let output = 0;
  let total = 0;
  let cached = 0;
  let reasoning = 0;
  for (const row of rows) {
    if (row.usage === null) continue;
    rollouts++;
    input += row.usage.input_tokens;
    output += row.usage.output_tokens;
    total += row.usage.total_tokens;
    cached += row.usage.cached_tokens;
    reasoning += row.usage.reasoning_tokens;
  }
  return {
    rollouts,
    input_tokens: input,
    output_tokens: output,
    total_tokens: total,
    cached_tokens: cached,
    reasoning_tokens: reasoning,
    mean_total_tokens: rollouts === 0 ? null : total / rollouts,
  };
}

export interface ModelUsage extends UsageTotals {
  readonly model: string | null;
  readonly n: number;
}

/** Usage per model (rows without a model gathered under null, last). */
export function usageByModel(rows: readonly MetricsRow[]): ModelUsage[] {
  const groups = new Map<string | null, MetricsRow[]>();
  for (const row of rows) {
    const list = groups.get(row.model);
    if (list) list.push(row);
    else groups.set(row.model, [row]);
  }
  return [...groups.keys()].sort(compareKeys).map((model) => {
    const list = groups.get(model) ?? [];
    return { model, n: list.length, ...usageTotals(list) };
  });
}

export interface RunMetrics {
  readonly rollouts: number;
  /** The reward pass@k, the per-group "passed" counts and the distribution read (RunMetricsOptions.reward). */
  readonly reward: RewardSource;
  readonly mean: Readonly<Record<RewardSource, number | null>>;
  readonly by_agent: readonly GroupStats[];
  readonly by_task: readonly GroupStats[];
  readonly by_server: readonly GroupStats[];
  readonly pass_at_k: readonly PassAtKResult[];
  /** Rollouts pass@k cannot count whatever k: no task to group them by, or no reward in its source. */
  readonly pass_left_out: { readonly no_task: number; readonly no_reward: number };
  /** A reward passes when it is strictly above this (PassOptions.above). */
  readonly pass_above: number;
  /** Rollouts pass@k counts whose reward is a partial score: above pass_above and below 1. */
  readonly pass_partial: number;
  readonly distribution: Readonly<Record<RewardSource, RewardDistribution>>;
  readonly policy_change: PolicyChange;
  readonly usage: UsageTotals;
  readonly by_model: readonly ModelUsage[];
}

/** Means and pass@k are written with this many decimals (cli triage, the whole folder's answer). */
export const MEAN_DECIMALS = 4;

function fixed(value: number | null): string {
  return value === null ? "n/a" : value.toFixed(MEAN_DECIMALS);
}

/**
 * Each mean over the rollouts that have that reward, every front end's words: "mean reward: recorded
 * 0.4000 (of 410), contract 0.5000 (of 15), legacy n/a".
 */
export function meanRewardsText(m: Pick<RunMetrics, "mean" | "rollouts" | "distribution">): string {
  const mean = (source: RewardSource) =>
    `${source} ${fixed(m.mean[source])}${m.mean[source] === null ? "" : ` (of ${m.rollouts - m.distribution[source].missing})`}`;
  return `mean reward: ${mean("recorded")}, ${mean("contract")}, ${mean("legacy")}`;
}

/** pass@k over the tasks, with what it counts: "pass@k (recorded, over tasks): pass@1 0.5000 (4 tasks), …". */
export function passAtKText(
  m: Pick<RunMetrics, "pass_at_k" | "pass_left_out" | "pass_above" | "reward" | "pass_partial">,
): string {
  return `pass@k (${m.reward}, over tasks): ${m.pass_at_k.map((p) => `pass@${p.k} ${fixed(p.value)} (${p.tasks} ${p.tasks === 1 ? "task" : "tasks"})`).join(", ")} (${passScopeText(m)})`;
}

/**
 * What pass@k counts and leaves out, every front end's words: "a pass is a reward above 0; left out: 3
 * rollouts without a task, 2 rollouts without a recorded reward".
 */
export function passScopeText(
  m: Pick<RunMetrics, "pass_left_out" | "pass_above" | "reward" | "pass_partial">,
): string {
  const { no_task, no_reward } = m.pass_left_out;
  const rollouts = (n: number) => `${n} ${n === 1 ? "rollout" : "rollouts"}`;
  const out = [
    ...(no_task === 0 ? [] : [`${rollouts(no_task)} without a task`]),
    ...(no_reward === 0 ? [] : [`${rollouts(no_reward)} without a ${m.reward} reward`]),
  ];
  // A score such as BLEU or a judge's 0.49 passes as surely as a 1: say so, or pass@1 1.000 reads as perfect.
  const partialText =
    m.pass_partial === 0
      ? ""
      : `; ${rollouts(m.pass_partial)} scored between ${m.pass_above} and 1 and each counts as a pass: these rewards are scores, not pass/fail, so read the means`;
  return `a pass is a reward above ${m.pass_above}${partialText}${out.length === 0 ? "" : `; left out: ${out.join(", ")}`}`;
}

/** The k values the run panel reports by default. */
export const DEFAULT_KS: readonly number[] = [1, 2, 4];

/** The run's own reward is the default: what the run recorded, not a recomputation, unless asked. */
export const DEFAULT_REWARD: RewardSource = "recorded";

export const REWARD_SOURCES: readonly RewardSource[] = SOURCES;

export function isRewardSource(x: string): x is RewardSource {
  return (SOURCES as readonly string[]).includes(x);
}

export interface RunMetricsOptions extends PassOptions {
  readonly ks?: readonly number[];
  /** The reward pass@k and "passed" read (default recorded); means are given for every source. */
  readonly reward?: RewardSource;
}

export function runMetrics(rows: readonly MetricsRow[], options: RunMetricsOptions = {}): RunMetrics {
  const reward = options.reward ?? DEFAULT_REWARD;
  const all = groupStats(
    rows.map((r) => ({ ...r, agent: "all" })),
    "agent",
    options,
  )[0];
  return {
    rollouts: rows.length,
    reward,
    mean: all?.mean ?? { recorded: null, contract: null, legacy: null },
    by_agent: groupStats(rows, "agent", { ...options, reward }),
    by_task: groupStats(rows, "task", { ...options, reward }),
    by_server: groupStats(rows, "server", { ...options, reward }),
    pass_at_k: (options.ks ?? DEFAULT_KS).map((k) => runPassAtK(rows, k, reward, options)),
    pass_above: options.above ?? 0,
    pass_partial: rows.filter((row) => {
      const r = rewardOf(row, reward);
      return row.task !== null && r !== null && r > (options.above ?? 0) && r < 1;
    }).length,
    pass_left_out: {
      no_task: rows.filter((row) => row.task === null && rewardOf(row, reward) !== null).length,
      no_reward: rows.filter((row) => rewardOf(row, reward) === null).length,
    },
    distribution: {
      recorded: rewardDistribution(rows, "recorded"),
      contract: rewardDistribution(rows, "contract"),
      legacy: rewardDistribution(rows, "legacy"),
    },
    policy_change: policyChange(rows),
    usage: usageTotals(rows),
    by_model: usageByModel(rows),
  };
}
