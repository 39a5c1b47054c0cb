/**
 * Gym's own numbers beside ours, each difference named. `example_metrics.json` describes a dataset (the
 * task rows of `jsonl_fpath`): its example count and per-row figures are recomputed from the task rows
 * open beside it. `*_aggregate_metrics.json` holds each agent's metrics from its resources server's
 * /aggregate_metrics: the mean reward (under the names Gym's servers use) is set beside the mean of the
 * agent's recorded and recomputed rewards; every other figure is listed as not recomputed here.
 */
import { z } from "zod";
import { isJsonObject } from "../schemas";
import type { GymMetrics } from "./metrics";

/**
 * Gym writes dataset metrics rounded to 2 decimals (`round(x, 2)`), so figures within half the last digit
 * agree.
 */
export const METRIC_TOLERANCE = 0.005;

/** Names under which Gym's resources servers report an agent's mean reward in /aggregate_metrics. */
export const MEAN_REWARD_METRICS: readonly string[] = [
  "mean/reward",
  "avg_reward",
  "reward/mean",
  "mean_reward",
];

export interface MetricComparison {
  /** Gym's name for the figure, e.g. `Number of examples`, `Number of tools Average`, `avg_reward`. */
  readonly metric: string;
  /** What it is about: the dataset file, or `agent NAME`. */
  readonly scope: string;
  readonly gym: number;
  /** Our figure; null when it cannot be recomputed from what is open. */
  readonly ours: number | null;
  readonly same: boolean;
  /** The difference named: `the same`, `differs by 0.2` (ours minus Gym's), or `not recomputed`. */
  readonly verdict: string;
  /** Where our figure comes from (or why there is none). */
  readonly source: string;
  /** One sentence naming both figures and where ours comes from. */
  readonly sentence: string;
}

export interface MetricsReport {
  readonly comparisons: readonly MetricComparison[];
  /** Gym figures not recomputed here (their names), so nothing is silently skipped. */
  readonly not_recomputed: readonly string[];
  /** One sentence: how many agree, and each difference. */
  readonly summary: string;
}

const Params = z.looseObject({
  responses_create_params: z.looseObject({ tools: z.unknown().optional(), input: z.unknown().optional() }),
});

interface Series {
  n: number;
  sum: number;
  min: number;
  max: number;
}

const emptySeries = (): Series => ({
  n: 0,
  sum: 0,
  min: Number.POSITIVE_INFINITY,
  max: Number.NEGATIVE_INFINITY,
});

function push(series: Series, value: number): void {
  series.n++;
  series.sum += value;
  series.min = Math.min(series.min, value);
  series.max = Math.max(series.max, value);
}

/** User turns of a task input: a string is one turn; otherwise the user messages. */
function userTurns(input: unknown): number {
  if (typeof input === "string") return 1;
  if (!Array.isArray(input)) return 0;
  return input.filter((item) => isJsonObject(item) && item.role === "user").length;
}

/** A value Gym's dataset metrics observe as a number: numbers, and booleans as 0/1 (Python's int(bool)). */
function observed(value: unknown): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Per-row figures of a dataset, fed row by row (the rows stream; nothing is kept). */
export class DatasetTally {
  examples = 0;
  private readonly series = new Map<string, Series>();

  private add(name: string, value: number): void {
    let s = this.series.get(name);
    if (s === undefined) {
      s = emptySeries();
      this.series.set(name, s);
    }
    push(s, value);
  }

  /**
   * One task row, as Gym's train_data_utils observes it: tools only when the row declares them (not null),
   * turns only when it has a user message, and every other top-level number (a boolean as 0/1, each number of
   * a list); its "Total # non-null values" is then the count of rows observed, not of rows.
   */
  row(value: unknown): void {
    this.examples++;
    const params = Params.safeParse(value);
    const tools = params.success ? params.data.responses_create_params.tools : undefined;
    if (Array.isArray(tools)) this.add("Number of tools", tools.length);
    const turns = params.success ? userTurns(params.data.responses_create_params.input) : 0;
    if (turns > 0) this.add("Number of turns", turns);
    if (!isJsonObject(value)) return;
    for (const [key, v] of Object.entries(value)) {
      if (key === "responses_create_params" || key === "response") continue;
      for (const item of Array.isArray(v) ? v : [v]) {
        const x = observed(item);
        if (x !== null) this.add(key, x);
      }
    }
  }

  stat(name: string): Series | undefined {
    return this.series.get(name);
  }
}

/** A figure as the comparisons write it (three decimals at most). */
export const formatFigure = (x: number): string => String(Math.round(x * 1000) / 1000);
const fmt = formatFigure;

function comparison(
  metric: string,
  scope: string,
  gym: number,
  ours: number | null,
  source: string,
): MetricComparison {
  const same = ours !== null && Math.abs(gym - ours) <= METRIC_TOLERANCE;
  const verdict = ours === null ? "not recomputed" : same ? "the same" : `differs by ${fmt(ours - gym)}`;
  const sentence =
    ours === null
      ? `${metric} (${scope}): Gym ${fmt(gym)}; ${source}.`
      : `${metric} (${scope}): Gym ${fmt(gym)}, recomputed ${fmt(ours)} from ${source}: ${verdict}.`;
  return { metric, scope, gym, ours, same, verdict, source, sentence };
}

function report(comparisons: MetricComparison[], notRecomputed: string[], what: string): MetricsReport {
  const compared = comparisons.filter((c) => c.ours !== null);
  const differ = compared.filter((c) => !c.same);
  const summary =
    compared.length === 0
      ? `${what}: nothing open to recompute its figures from.`
      : `${what}: ${compared.length - differ.length} of ${compared.length} recomputed figures agree${differ.length === 0 ? "." : `; ${differ.map((c) => c.sentence).join(" ")}`}`;
  return { comparisons, not_recomputed: notRecomputed, summary };
}

/** Gym's dataset metrics against the task rows they describe (`tally`, from `source`, a file name). */
export function compareDataset(
  gym: Extract<GymMetrics, { kind: "dataset" }>,
  tally: DatasetTally | null,
  source: string,
): MetricsReport {
  const scope = gym.jsonl_fpath ?? "the dataset";
  if (tally === null) {
    return report(
      [comparison("Number of examples", scope, gym.examples, null, "no task rows are open beside it")],
      gym.stats.map((s) => s.field),
      `Gym's dataset metrics of ${scope}`,
    );
  }
  const out: MetricComparison[] = [
    comparison("Number of examples", scope, gym.examples, tally.examples, source),
  ];
  const skipped: string[] = [];
  for (const stat of gym.stats) {
    const ours = tally.stat(stat.field);
    if (ours === undefined) {
      skipped.push(stat.field);
      continue;
    }
    // How many rows Gym observed the figure in: the rows that declare tools, that have a user message.
    if (stat.count !== undefined)
      out.push(comparison(`${stat.field} rows`, scope, stat.count, ours.n, source));
    if (stat.average !== undefined)
      out.push(
        comparison(
          `${stat.field} Average`,
          scope,
          stat.average,
          ours.n === 0 ? null : ours.sum / ours.n,
          source,
        ),
      );
    if (stat.min !== undefined)
      out.push(comparison(`${stat.field} Min`, scope, stat.min, ours.n === 0 ? null : ours.min, source));
    if (stat.max !== undefined)
      out.push(comparison(`${stat.field} Max`, scope, stat.max, ours.n === 0 ? null : ours.max, source));
  }
  return report(out, skipped, `Gym's dataset metrics of ${scope}`);
}

export interface AgentRewards {
  /** The line's agent_ref.name (null: none). */
  readonly agent: string | null;
  readonly recorded: number | null;
  readonly recomputed: number | null;
}

/**
 * A verified row's rewards as Gym's aggregate metrics are compared with them: recomputed is the contract
 * policy's (`cli verify`'s default), for the page and `cli triage`, which verify under both.
 */
export function rowRewards(row: {
  readonly agent: string | null;
  readonly recorded: number | null;
  readonly contract: number | null;
}): AgentRewards {
  return { agent: row.agent, recorded: row.recorded, recomputed: row.contract };
}

/** Gym's aggregate metrics against the mean rewards of each agent's lines. */
export function compareAggregate(
  gym: Extract<GymMetrics, { kind: "aggregate" }>,
  lines: readonly AgentRewards[],
): MetricsReport {
  const out: MetricComparison[] = [];
  const skipped: string[] = [];
  for (const { agent, numbers } of gym.agents) {
    const mine = lines.filter((l) => l.agent === agent);
    const mean = (values: (number | null)[]) => {
      const xs = values.filter((v): v is number => v !== null);
      return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    const scope = `agent ${agent}`;
    for (const [name, value] of Object.entries(numbers)) {
      if (!MEAN_REWARD_METRICS.includes(name)) {
        skipped.push(`${agent}/${name}`);
        continue;
      }
      const recorded = mean(mine.map((l) => l.recorded));
      const recomputed = mean(mine.map((l) => l.recomputed));
      out.push(
        comparison(
          `${name} (recorded)`,
          scope,
          value,
          recorded,
          recorded === null
            ? `no line of agent ${agent} carries a recorded reward`
            : `the recorded rewards of its ${mine.length} lines`,
        ),
      );
      out.push(
        comparison(
          `${name} (recomputed)`,
          scope,
          value,
          recomputed,
          recomputed === null ? `no line of agent ${agent} was recomputed` : "the rewards recomputed here",
        ),
      );
    }
  }
  return report(out, skipped, `Gym's aggregate metrics (${gym.agents.length} agents)`);
}

/** One metrics file of a run, with what its figures are recomputed from. */
export interface MetricsSource {
  readonly metrics: GymMetrics;
  /** The recomputed dataset figures (dataset metrics whose task rows are open), else null. */
  readonly tally: DatasetTally | null;
  /** The task-row file the tally was read from (how sentences name it), else null. */
  readonly dataset: string | null;
}

/**
 * Gym's figures of one metrics file beside ours, each difference named: the one comparison `cli verify`,
 * `cli triage` and the page show. `lines`: every rollout of the run with its agent and rewards.
 */
export function compareMetrics(source: MetricsSource, lines: readonly AgentRewards[]): MetricsReport {
  return source.metrics.kind === "dataset"
    ? compareDataset(source.metrics, source.tally, source.dataset ?? "the open task rows")
    : compareAggregate(source.metrics, lines);
}

/** How a metrics file's comparison reads on one line (stderr of `cli verify DIR` and `cli triage DIR`). */
export function metricsSummaryLine(path: string, report: MetricsReport): string {
  const skipped = report.not_recomputed.length;
  return `${path}: ${report.summary}${skipped > 0 ? ` (${skipped} figures not recomputed here)` : ""}`;
}
