/**
 * The inspector page's decisions, as plain functions of its inputs (no React): which file is shown, what a
 * reload restores, when rewards are recomputed, where j/k and n/p go, and when the workspace is ready. The
 * hooks beside the page (use-*.ts) apply them; these are unit tested without rendering.
 */
import { filterClauses, type SortKey } from "@/features/run/list";
import { pairedInputsSample } from "@/hooks/samples";
import type { DatasetSummary, RolloutIndexEntry, Sample, Source } from "@/hooks/types";
import {
  breakdownScopeText,
  choosesInBreakdown,
  type FilterClause,
  formatClause,
  formatFilter,
  isFixedByMapClause,
  isZeroClause,
  moveZeros,
  parseFilter,
  type Reward,
  recordedValueClauses,
  zeroClause,
} from "@/lib/run";
import type { VerifierGroup, ZeroCause } from "@/lib/triage";
import { linkedName } from "./view-state";

/**
 * The filter with its cause clause replaced (or removed when cause is null), together with the zero clause
 * of the reward setting, so the list holds exactly the rollouts the cause's count counts; other clauses
 * are kept. Drift is counted over the whole run (lib/triage causeCount): it gets no zero clause.
 */
export function withCause(filter: string, cause: ZeroCause | null, reward: Reward): string {
  const parsed = parseFilter(filter);
  const kept: FilterClause[] = parsed.ok
    ? parsed.clauses.filter((c) => c.kind !== "cause" && !isZeroClause(c))
    : [];
  if (cause === null) return formatFilter(kept);
  const zeros: FilterClause[] = cause === "drift" ? [] : [zeroClause(reward)];
  return formatFilter([...kept, ...zeros, { kind: "cause", cause }]);
}

/**
 * The filter a file opened from the whole folder's table gets: the chosen cause's (as withCause), or, with
 * none, the filter without a cause clause it holds (and the zero clause that came with it); a filter with no
 * cause clause is kept as typed.
 */
export function folderFileFilter(filter: string, cause: ZeroCause | null, reward: Reward): string {
  if (cause !== null) return withCause("", cause, reward);
  const parsed = parseFilter(filter);
  return parsed.ok && parsed.clauses.some((c) => c.kind === "cause")
    ? withCause(filter, null, reward)
    : filter;
}

const FIXED_BY_MAP: FilterClause = { kind: "is", state: "fixed_by_map" };

/** Whether the filter keeps only the zeros a provenance map rescues (the why-zero panel's "Show them"). */
export function hasFixedByMap(filter: string): boolean {
  const parsed = parseFilter(filter);
  return parsed.ok && parsed.clauses.some(isFixedByMapClause);
}

/**
 * The filter keeping this view's zeros that a provenance map rescues (lib/triage fixed_by_map), or, `on`
 * false, without that clause. Like a cause click, it replaces the cause and zero clauses, so the list holds
 * exactly the rollouts the sentence counts.
 */
export function withFixedByMap(filter: string, on: boolean, reward: Reward): string {
  const parsed = parseFilter(filter);
  const kept: FilterClause[] = parsed.ok
    ? parsed.clauses.filter((c) => !choosesInBreakdown(c) && !isZeroClause(c))
    : [];
  return formatFilter(on ? [...kept, zeroClause(reward), FIXED_BY_MAP] : kept);
}

/**
 * The filter keeping the recorded zeros whose counted field `key` has the value `json` (the why-zero panel's
 * recorded fields: its JSON text), or, when that clause is already there, the filter without it. Other
 * clauses are kept, a clause on the same field replaced; the zeros are the recorded reward's, which the
 * counts are over.
 */
export function withRecordedValue(
  filter: string,
  key: string,
  json: string,
  /**
   * The verifying server whose counts the value was chosen in, when the run has several (null: the rows no
   * server was decided for): its clause comes with the value, so the list holds exactly what it counts.
   */
  group?: VerifierGroup,
): string {
  const chosen = recordedValueClauses(key, json, group);
  if (chosen === null) return filter;
  const clause = chosen.value;
  const parsed = parseFilter(filter);
  const clauses = parsed.ok ? parsed.clauses : [];
  const wanted = chosen.group;
  const groupClause =
    wanted === null || clauses.some((c) => formatClause(c) === formatClause(wanted)) ? [] : [wanted];
  const same = (c: FilterClause) => formatClause(c) === formatClause(clause);
  const others = clauses.filter((c) => !(c.kind === "verifier" && c.key === key));
  if (clauses.some(same)) {
    // Off again: the zeros and the server it added go too, unless a cause or another value still needs them.
    const needed = others.some((c) => c.kind === "cause" || c.kind === "verifier");
    const added = (c: FilterClause) =>
      isZeroClause(c) || (wanted !== null && formatClause(c) === formatClause(wanted));
    return formatFilter(needed ? others : others.filter((c) => !added(c)));
  }
  return formatFilter([
    ...others.filter((c) => !isZeroClause(c)),
    ...groupClause,
    zeroClause("recorded"),
    clause,
  ]);
}

/** What the filter holds of the recorded values chosen: its clauses as written, and whether one is a value. */
export function recordedChoice(filter: string): { clauses: ReadonlySet<string>; chosen: boolean } {
  const clauses = filterClauses(filter);
  return { clauses: new Set(clauses.map(formatClause)), chosen: clauses.some((c) => c.kind === "verifier") };
}

/**
 * The view after the reward switch: the setting, and the filter's zero clause of the old reward moved to the
 * new one (lib/run moveZeros), so a zero chip, tile or cause chosen before keeps meaning "the zeros". The
 * open rollout stays open. A filter that does not parse is left as typed.
 */
export function switchReward(
  view: { readonly f: string; readonly reward: Reward },
  reward: Reward,
): { f: string; reward: Reward } {
  const parsed = parseFilter(view.f);
  if (!parsed.ok) return { f: view.f, reward };
  // A recorded field's value is the recorded zeros' (the section is the recorded view's): it goes.
  const kept = reward === "recorded" ? parsed.clauses : parsed.clauses.filter((c) => c.kind !== "verifier");
  const moved = moveZeros(kept, view.reward, reward);
  const f = formatFilter(moved);
  // Unchanged clauses keep the text as typed.
  return { f: f === formatFilter(parsed.clauses) ? view.f : f, reward };
}

export function activeCause(filter: string): ZeroCause | null {
  const causes = filterClauses(filter).flatMap((c) => (c.kind === "cause" ? [c.cause] : []));
  return causes.length === 1 ? (causes[0] ?? null) : null;
}

/** "line 6 · call 1 · filter cause:tool_failed": what a link shows. */
export function linkParts(view: { line: number | null; call: string | null; f: string }): string {
  const parts: string[] = [];
  if (view.line !== null) parts.push(`line ${view.line}`);
  if (view.call !== null) parts.push(`call ${view.call}`);
  if (view.f.trim() !== "") parts.push(`filter ${view.f.trim()}`);
  return parts.join(" · ");
}

/** What the breakdown covers under a filter: every clause but what it chooses among the zeros (null: the whole run). */
export function breakdownScope(filter: string, covered: number, total: number): string | null {
  const clauses = filterClauses(filter);
  // Empty, or a text that does not read (the breakdown is then the whole run's).
  if (clauses.length === 0) return null;
  return breakdownScopeText(filter, clauses, covered, total);
}

/** A bundled sample's file, with the inputs sample that goes with it. */
export function sampleSources(file: string, samples: readonly Sample[]): Source[] {
  const sources: Source[] = [{ kind: "url", url: `/samples/${file}`, name: file }];
  const inputs = pairedInputsSample(file, samples);
  if (inputs !== null) sources.push({ kind: "url", url: `/samples/${inputs}`, name: inputs });
  return sources;
}

/** What the page opens when it starts: a served folder, the tab's kept files, or nothing. */
export type RestorePlan =
  | { readonly kind: "served" }
  | { readonly kind: "restore"; readonly ids: readonly string[] }
  /** The tab had this folder open: a page cannot reopen a folder, so it asks for it again. */
  | { readonly kind: "folder"; readonly name: string }
  | { readonly kind: "none" };

/**
 * A link naming a sample opens the sample (in a served tab too: reading the folder as well raced it, and the
 * folder often won). Else a folder `cli view` serves is read from the server (a reload sees what the run wrote
 * since); otherwise a reload reopens the tab's files, unless the worker already holds a session; a tab that
 * holds nothing reads the served folder a link names a file of (`servedLink`).
 */
export function restorePlan(start: {
  readonly served: boolean;
  /** The URL names a served folder's file by its path (hooks/served servedLink). */
  readonly servedLink?: boolean;
  readonly hasSession: boolean;
  readonly sample: string | null;
  readonly stored: readonly string[];
  /** The folder the tab had open, if any (its files are not kept). */
  readonly folder: string | null;
}): RestorePlan {
  if (start.sample) return { kind: "none" };
  // Back from /compare or /live (the worker holds the tab's files): shown as they are; reading the folder
  // again here added a copy of every file each trip.
  if (start.hasSession) return { kind: "none" };
  if (start.served) return { kind: "served" };
  if (start.folder !== null) return { kind: "folder", name: start.folder };
  if (start.stored.length > 0) return { kind: "restore", ids: start.stored };
  if (start.servedLink === true) return { kind: "served" };
  return { kind: "none" };
}

/**
 * The rollouts file shown: the URL names it by dataset id (files with the same name are distinct datasets);
 * a name still works for links. Else the file a link was made on (`name`: its name there, matched as
 * view-state linkedName matches it, so a link opened with a folder lands on its file; also when a kept id
 * no longer names a file, as after a reload): while files are still `loading`, none is shown until it comes.
 * Else the first with rollouts; else the first.
 */
export function shownDataset(
  rolloutSets: readonly DatasetSummary[],
  file: string | null,
  name: string | null = null,
  loading = false,
): DatasetSummary | null {
  const chosen =
    rolloutSets.find((candidate) => candidate.id === file || candidate.ref === file) ??
    rolloutSets.find((candidate) => candidate.name === file);
  if (chosen !== undefined) return chosen;
  if (name !== null) {
    const linked = linkedName(
      rolloutSets.map((candidate) => candidate.name),
      name,
    );
    if (linked !== null) return rolloutSets.find((candidate) => candidate.name === linked) ?? null;
    if (loading) return null;
  }
  return (
    // A folder's file of records that are no rollouts (the golden folder's wa_expected.jsonl comes first by
    // path) is not the one to open on.
    rolloutSets.find((candidate) => candidate.rows > 0) ?? rolloutSets[0] ?? null
  );
}

/** The dataset's rows were analysed under another verifying server or harness than the URL chooses. */
export function needsReanalysis(dataset: DatasetSummary, server: string | null, harness: string): boolean {
  return dataset.server_override !== server || dataset.harness !== harness;
}

/**
 * The line j (delta 1) or k (-1) opens: the next or previous listed row, clamped at the ends; from a line
 * not in the list, the first (j) or the last (k). Null when the list is empty.
 */
export function stepRollout(
  rows: readonly RolloutIndexEntry[],
  current: number | null,
  delta: number,
): number | null {
  if (rows.length === 0) return null;
  const at = rows.findIndex((row) => row.line === current);
  const next =
    at === -1 ? (delta > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + delta));
  return rows[next]?.line ?? null;
}

/**
 * The call n (delta 1) or p (-1) selects in a rollout of `calls` calls: the next or previous, clamped; p with
 * none selected takes the last. Null when the rollout has no call.
 */
export function stepCall(calls: number, current: string | null, delta: number): string | null {
  if (calls === 0) return null;
  const at = current === null ? -1 : Number(current);
  const next = at === -1 && delta < 0 ? calls - 1 : Math.min(calls - 1, Math.max(0, at + delta));
  return String(next);
}

/**
 * The calls among transcript items [start, end): `callItems` gives each call's item (ascending), so the
 * calls are a range [first, last) found by two binary searches.
 */
export function callsInItems(callItems: ArrayLike<number>, start: number, end: number): [number, number] {
  const firstAtOrAfter = (item: number) => {
    let lo = 0;
    let hi = callItems.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((callItems[mid] ?? 0) < item) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [firstAtOrAfter(start), firstAtOrAfter(end)];
}

/** A header click on `key`: the same column flips its direction; another starts descending unless it reads A→Z. */
export function sortChange(
  current: { readonly sort: SortKey; readonly desc: boolean },
  key: SortKey,
): { sort: SortKey; desc: boolean } {
  return {
    sort: key,
    desc: current.sort === key ? !current.desc : key !== "line" && key !== "agent" && key !== "task",
  };
}

/**
 * The workspace's readiness (its data-ready and data-rewarded, which tests and benchmarks wait on): ready
 * when the whole file is read, nothing loads or re-analyses, and the list shows the worker's latest rows;
 * rewarded when, besides, every row has its rewards.
 */
export function workspaceReadiness(state: {
  readonly dataset: DatasetSummary | null;
  readonly busy: boolean;
  /** The index query holds this revision's answer (not a placeholder, not pending). */
  readonly indexSettled: boolean;
  /** The rendered rows are the latest the index answered (not a deferred older render). */
  readonly current: boolean;
}): { ready: boolean; rewarded: boolean } {
  const { dataset } = state;
  const ready = dataset?.indexed === true && !state.busy && state.indexSettled && state.current;
  return { ready, rewarded: ready && dataset !== null && dataset.rewarded === dataset.rows };
}

/**
 * The same file for the detail pane: its requests are keyed by the id and the analysis revision, and it shows
 * the name and links the file by its ref. A session event (new rows, new rewards, progress) changes none of them, so the open rollout's
 * pane is not rendered again for it.
 */
export function sameDetailSource(
  a: Pick<DatasetSummary, "id" | "ref" | "name" | "analysis"> | null,
  b: Pick<DatasetSummary, "id" | "ref" | "name" | "analysis"> | null,
): boolean {
  return (
    a === b ||
    (a !== null &&
      b !== null &&
      a.id === b.id &&
      a.ref === b.ref &&
      a.name === b.name &&
      a.analysis === b.analysis)
  );
}

/**
 * /live for a file the inspector shows (by its ref: a served file's path outlives the tab) and its open line:
 * the header's link and an unverified line's, so /live checks them as the inspector verifies them.
 */
export function liveLink(ref: string | null, line: number | null): string {
  if (ref === null) return "/live";
  return `/live?dataset=${encodeURIComponent(ref)}${line === null ? "" : `&line=${line}`}`;
}

/** /compare's repair of a rollouts file (a sample's name or a dataset id) under a harness's exact aliases. */
export function repairLink(file: string, harness: string): string {
  return `/compare?tab=repair&r=${encodeURIComponent(file)}&harness=${encodeURIComponent(harness)}`;
}

/**
 * /compare for what the inspector shows: the harness what-if of the open rollout (`file`: a sample's name or
 * a dataset id), and the shown rollouts file as the runs' A, the next open one as B (the same file when it
 * is the only one: B is then the one to change, never an unrelated bundled pair).
 */
export function compareLink(
  file: string | null,
  line: number | null,
  shown: string | null,
  runs: readonly string[],
): string {
  const parts: string[] = [];
  if (file !== null && line !== null)
    parts.push("tab=whatif", `sample=${encodeURIComponent(file)}`, `line=${line}`);
  const a = shown ?? runs[0] ?? null;
  const b = runs.find((id) => id !== a) ?? a;
  if (a !== null && b !== null) parts.push(`a=${encodeURIComponent(a)}`, `b=${encodeURIComponent(b)}`);
  return parts.length === 0 ? "/compare" : `/compare?${parts.join("&")}`;
}
