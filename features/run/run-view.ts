/**
 * The run view's data: one lib/run row per rollout of a dataset (rewards under both policies, the why-zero
 * cause, model and tokens), the breakdown, the metrics and the export, all from lib. Self-contained: it
 * reads a dataset through two functions (its rollouts, each with its paired input row) so it does not
 * depend on how the worker stores files.
 */
import { csvHeader, csvRow, jsonlRow } from "@/lib/export/csv";
import {
  type AgentInference,
  type EmittedNames,
  type HarnessChoice,
  type HarnessInference,
  inferByAgent,
  inferHarness,
} from "@/lib/harness";
import { type MetricsRow, type RunMetrics, runMetrics, type ShownTasks, shownTasks } from "@/lib/metrics";
import {
  breakdownClauses,
  evaluateFilter,
  type FilterClause,
  type LineCounts,
  metricsOf,
  needsRollout,
  parseFilter,
  type Reward,
  type RunRow,
  type RunRowOptions,
  recordedFieldsScope,
  runRow,
  textsOf,
  type UnverifiedByPolicy,
  unverifiedCounts,
  withTaskWide,
} from "@/lib/run";
import type { Rollout } from "@/lib/schemas";
import {
  causeCounts,
  type RecordedFieldsGroup,
  type RunTriage,
  recordedFieldsByVerifier,
  summarizeTriage,
  type ZeroCause,
} from "@/lib/triage";
import { knownTools, verifyBothPolicies } from "@/lib/verify";

export interface RunSource {
  /** Identifies the rows: the dataset, its server choice and its harness (cached while it is the same). */
  readonly key: string;
  readonly harness: HarnessChoice;
  /**
   * The run rows already computed elsewhere (the data service's rewards pass), in file order, with the
   * emitted names per verifying server. Without it the rows are computed from rollouts().
   */
  readonly rows?: () => Promise<PrecomputedRows> | PrecomputedRows;
  /** Every rollout in file order: its line, parsed value and how it is verified (input row, server choice). */
  rollouts(): Iterable<RunSourceLine> | AsyncIterable<RunSourceLine>;
  /** Lines that are not rollouts (not JSON, or JSON that is not a rollout): named, never in a total. */
  readonly unreadable: number;
  /** A followed file's last line still being written (no line break yet): 1, else 0; never in a total. */
  readonly waiting?: number;
  /** The lines whose raw bytes hold a text clause's text (the page's byte search); without it, none do. */
  textLines?(text: string): Promise<ReadonlySet<number>>;
}

export interface PrecomputedRows {
  readonly rows: readonly RunRow[];
  /** Each rollout's agent, verifying server and emitted call names (the harness inference, per agent). */
  readonly names: readonly EmittedNames[];
}

export interface RunSourceLine {
  readonly line: number;
  readonly value: Rollout;
  readonly options: Omit<RunRowOptions, "contract" | "legacy">;
}

export interface RunView {
  /** The filter text could not be read: why (no rows are filtered then). */
  readonly filter_error: string | null;
  /** The filter this view answers (the page keeps a previous answer while the next one computes). */
  readonly filter: string;
  /**
   * The breakdown per view (the recorded reward's zeros, the default, or a policy's), over the rows the
   * filter keeps with its cause clause left out (a cause click narrows the list, not the bars).
   */
  readonly triage: Readonly<Record<Reward, RunTriage>>;
  /** Rollouts the breakdown covers (the filter without its cause clauses). */
  readonly breakdown_rollouts: number;
  /** Of those, the rollouts not verified under the contract policy, by reason. */
  readonly unverified: UnverifiedByPolicy;
  /** The run's rollouts and its unreadable lines (lib/run lineCountsText words them). */
  readonly counts: LineCounts;
  /**
   * What Gym's verifier wrote on the zeros not verified here, per verifying server, over the rows the filter
   * keeps without its cause and `verifier:` clauses and the recorded zero clause (lib/run recordedFieldsScope:
   * choosing a value narrows the list, not these counts).
   */
  readonly recorded_fields: readonly RecordedFieldsGroup[];
  /**
   * Metrics over the rows the filter keeps (all without a filter); metrics.reward says which reward pass@k
   * reads. Its by-task rows are those lib/metrics shownTasks picks (by_task_shown says how many of how many).
   */
  readonly metrics: RunMetrics;
  readonly by_task_shown: Omit<ShownTasks, "tasks">;
  /** Lines the filter keeps, in file order; null without a filter. */
  readonly lines: readonly number[] | null;
  /** The harness the file's emitted names suggest: offered in the UI, never applied on its own. */
  readonly inferred: HarnessInference | null;
  /** The same per agent_ref.name (a run may mix harnesses): each offered for its agent only. */
  readonly inferred_by_agent: readonly AgentInference[];
}

interface Computed {
  readonly key: string;
  readonly rows: readonly RunRow[];
  /** Rollouts by line, for field clauses; null when the rows came precomputed (read when needed). */
  readonly values: ReadonlyMap<number, unknown> | null;
  readonly inferred: HarnessInference | null;
  readonly by_agent: readonly AgentInference[];
}

/** The last computed rows, by key; a request for the same key while it computes shares the work. */
let cache: { key: string; computed: Promise<Computed> } | null = null;

function compute(source: RunSource): Promise<Computed> {
  if (cache?.key === source.key) return cache.computed;
  const computed = computeRows(source);
  cache = { key: source.key, computed };
  // A failed computation is not kept.
  computed.catch(() => {
    if (cache?.computed === computed) cache = null;
  });
  return computed;
}

async function computeRows(source: RunSource): Promise<Computed> {
  if (source.rows) {
    const given = await source.rows();
    return {
      key: source.key,
      rows: withTaskWide(given.rows),
      values: null,
      inferred: inferFrom(given.names),
      by_agent: inferByAgent(given.names, knownTools),
    };
  }
  const rows: RunRow[] = [];
  const values = new Map<number, unknown>();
  const names: EmittedNames[] = [];
  for await (const { line, value, options } of source.rollouts()) {
    const { contract, legacy } = verifyBothPolicies(value, options);
    const row = runRow(line, value, { ...options, contract, legacy });
    rows.push(row);
    values.set(line, value);
    names.push({
      agent: row.agent,
      server: contract.server,
      emitted: contract.resolution.calls.map((c) => c.emitted),
    });
  }
  return {
    key: source.key,
    rows: withTaskWide(rows),
    values,
    inferred: inferFrom(names),
    by_agent: inferByAgent(names, knownTools),
  };
}

function inferFrom(rows: readonly EmittedNames[]): HarnessInference | null {
  const emitted = new Map<string, Set<string>>();
  for (const row of rows) {
    if (row.server === null) continue;
    const names = emitted.get(row.server) ?? new Set<string>();
    for (const name of row.emitted) names.add(name);
    emitted.set(row.server, names);
  }
  // The server with the most emitted names decides (a run verifies against one server as a rule).
  const [server, names] = [...emitted.entries()].sort((a, b) => b[1].size - a[1].size)[0] ?? ["", new Set()];
  const tools = knownTools(server);
  return tools === undefined ? null : inferHarness(names, server, tools);
}

async function filtered(
  source: RunSource,
  computed: Computed,
  clauses: readonly FilterClause[],
): Promise<RunRow[]> {
  if (clauses.length === 0) return [...computed.rows];
  let values = computed.values;
  if (values === null && needsRollout(clauses)) {
    // Field clauses read the rollout itself: parsed again for this filter, not kept.
    const read = new Map<number, unknown>();
    for await (const { line, value } of source.rollouts()) read.set(line, value);
    values = read;
  }
  const texts = new Map<string, ReadonlySet<number>>();
  for (const text of textsOf(clauses))
    if (!texts.has(text)) texts.set(text, (await source.textLines?.(text)) ?? new Set());
  return computed.rows.filter(
    (row) =>
      evaluateFilter(clauses, row, {
        rollout: values?.get(row.line),
        text: (needle) => texts.get(needle)?.has(row.line) ?? false,
      }) === true,
  );
}

export interface RunViewOptions {
  /** The run view's reward setting (lib/run reward.ts): the reward pass@k and "passed" read (default recorded). */
  readonly reward?: Reward;
}

export async function runView(
  source: RunSource,
  filter: string,
  options: RunViewOptions = {},
): Promise<RunView> {
  const computed = await compute(source);
  const parsed = parseFilter(filter);
  const clauses = parsed.ok ? parsed.clauses : [];
  const kept = await filtered(source, computed, clauses);
  const counted = breakdownClauses(clauses);
  const breakdown = counted.length === clauses.length ? kept : await filtered(source, computed, counted);
  // A recorded value chosen narrows the list, not its own counts (lib/run recordedFieldsScope).
  const recordedClauses = recordedFieldsScope(clauses);
  const recordedRows =
    recordedClauses.length === counted.length ? breakdown : await filtered(source, computed, recordedClauses);
  const metrics = runMetrics(
    kept.map((row) => metricsOf(row)),
    options.reward === undefined ? {} : { reward: options.reward },
  );
  // Sent to the page: a run's thousands of tasks are not (lib/metrics TASKS_SHOWN).
  const shown = shownTasks(metrics.by_task);
  return {
    filter_error: parsed.ok ? null : parsed.error,
    filter,
    counts: lineCounts(computed.rows.length, source.unreadable, source.waiting ?? 0),
    triage: triageViews(breakdown),
    breakdown_rollouts: breakdown.length,
    unverified: unverifiedCounts(breakdown),
    recorded_fields: recordedFieldsByVerifier(recordedRows),
    metrics: { ...metrics, by_task: shown.tasks },
    by_task_shown: { total: shown.total, order: shown.order },
    lines: clauses.length === 0 ? null : kept.map((row) => row.line),
    inferred: computed.inferred,
    inferred_by_agent: computed.by_agent,
  };
}

/** The breakdown in each view (lib/triage summarizeTriage). */
export function triageViews(rows: readonly RunRow[]): Record<Reward, RunTriage> {
  return {
    recorded: summarizeTriage(rows, "recorded"),
    contract: summarizeTriage(rows, "contract"),
    legacy: summarizeTriage(rows, "legacy"),
  };
}

export type ExportFormat = "csv" | "jsonl";

/**
 * The rows the filter keeps, exactly as the CLI's `triage FILE --format F --filter EXPR` writes them; of every
 * rollouts file of a folder (`file`: each one's path in it, in the order cli triage DIR walks them), as
 * `triage DIR` writes them, each row naming its file.
 */
export async function runExport(
  sources: readonly { readonly file: string | null; readonly source: RunSource }[],
  filter: string,
  format: ExportFormat,
): Promise<{ text: string; rows: number } | { error: string }> {
  const parsed = parseFilter(filter);
  if (!parsed.ok) return { error: parsed.error };
  const folder = sources.some(({ file }) => file !== null);
  const parts: string[] = format === "csv" ? [csvHeader(folder)] : [];
  let count = 0;
  for (const { file, source } of sources) {
    // A file alone is the one on screen, whose rows the view's cache keeps; a folder's are computed each,
    // as the whole folder's answer computes them (the cache holds one file).
    const computed = sources.length === 1 ? await compute(source) : await computeRows(source);
    const rows = await filtered(source, computed, parsed.clauses);
    const named = file ?? undefined;
    for (const row of rows) parts.push(format === "csv" ? csvRow(row, named) : jsonlRow(row, named));
    count += rows.length;
  }
  return { text: parts.join(""), rows: count };
}

/** One rollouts file of a folder as the whole folder's answer lists it, in each reward. */
export interface FolderFileLine {
  readonly dataset: string;
  /** Its path in the folder. */
  readonly file: string;
  readonly counts: LineCounts;
  /** Its zeros in each reward, and its rollouts with a reward in it. */
  readonly zero: Readonly<Record<Reward, number>>;
  /** Its rollouts of each cause in each reward (lib/triage causeCount: drift over the whole file). */
  readonly causes: Readonly<Record<Reward, Readonly<Record<ZeroCause, number>>>>;
  readonly scored: Readonly<Record<Reward, number>>;
  /** Its zeros in each reward that a harness's provenance map rescues (lib/triage fixed_by_map). */
  readonly fixed_by_map: Readonly<Record<Reward, number>>;
  /** The mean of each reward over its rollouts that have it (null: none has). */
  readonly mean: Readonly<Record<Reward, number | null>>;
}

/**
 * Every rollouts file of a folder summed, as `cli triage DIR` sums them: each file's rows as its own run
 * view has them (its tasks compared among themselves), the breakdown and the metrics in each reward (one
 * answer for the reward switch), each task named by its file (Gym's task 0 of one file is not another's).
 * No filter: a filter is a file's.
 */
export interface WholeFolderView {
  readonly folder: string;
  readonly files: readonly FolderFileLine[];
  readonly counts: LineCounts;
  readonly triage: Readonly<Record<Reward, RunTriage>>;
  readonly unverified: UnverifiedByPolicy;
  readonly recorded_fields: readonly RecordedFieldsGroup[];
  /** Each reward's metrics, without the by-task rows (the folder's answer shows its means and pass@k). */
  readonly metrics: Readonly<Record<Reward, Omit<RunMetrics, "by_task">>>;
}

/** A view's line counts; `waiting` only when a line is still being written (most files have none). */
function lineCounts(rollouts: number, unreadable: number, waiting: number): LineCounts {
  return waiting === 0 ? { rollouts, unreadable } : { rollouts, unreadable, waiting };
}

function perReward<T>(make: (reward: Reward) => T): Record<Reward, T> {
  return { recorded: make("recorded"), contract: make("contract"), legacy: make("legacy") };
}

export async function wholeFolderView(
  folder: string,
  sources: readonly { readonly dataset: string; readonly file: string; readonly source: RunSource }[],
): Promise<WholeFolderView> {
  const rows: RunRow[] = [];
  const fileOf = new Map<RunRow, string>();
  const metricsRows: MetricsRow[] = [];
  const files: FolderFileLine[] = [];
  let unreadable = 0;
  let waiting = 0;
  for (const { dataset, file, source } of sources) {
    // Not through the view's one-entry cache: the file on screen keeps its rows there.
    const computed = await computeRows(source);
    const triage = triageViews(computed.rows);
    // Tasks named by their file for the folder's pass@k; a file's means do not read the task.
    const own = computed.rows.map((row) => metricsOf(row, file));
    const means = runMetrics(own).mean;
    files.push({
      dataset,
      file,
      counts: lineCounts(computed.rows.length, source.unreadable, source.waiting ?? 0),
      zero: perReward((reward) => triage[reward].zero),
      causes: perReward((reward) => causeCounts(triage[reward])),
      scored: perReward((reward) => triage[reward].scored),
      fixed_by_map: perReward((reward) => triage[reward].fixed_by_map.lines.length),
      mean: perReward((reward) => means[reward]),
    });
    // One at a time: spreading a file's rows as arguments overflows the stack past ~125k of them.
    for (const row of computed.rows) {
      rows.push(row);
      fileOf.set(row, file);
    }
    for (const row of own) metricsRows.push(row);
    unreadable += source.unreadable;
    waiting += source.waiting ?? 0;
  }
  return {
    folder,
    files,
    counts: lineCounts(rows.length, unreadable, waiting),
    triage: triageViews(rows),
    unverified: unverifiedCounts(rows),
    recorded_fields: recordedFieldsByVerifier(rows, (row) => fileOf.get(row)),
    metrics: perReward((reward) => {
      const { by_task: _tasks, ...metrics } = runMetrics(metricsRows, { reward });
      return metrics;
    }),
  };
}
