/**
 * The run view's list: its filter chips and sort keys, the clauses the chips, tiles, selects and search box
 * edit in the one filter (lib/run syntax, `?f=` in the inspector's URL, features/inspector/view-state.ts),
 * the rows the filter keeps in the chosen order, and the status counts of the tiles.
 */
import { HARNESSES } from "@/lib/harness";
import type { GroupStats } from "@/lib/metrics";
import {
  evaluateFilter,
  type FilterClause,
  type FilterSubject,
  formatClause,
  formatFilter,
  parseFilter,
  type Reward,
  zeroClause,
} from "@/lib/run";
import { isZeroOrBelow } from "@/lib/triage";
import type { HarnessId, RolloutIndexEntry } from "@/worker/protocol";

export const FILTER_FLAGS = ["zero", "changed", "ambiguous", "mismatched", "external", "unverified"] as const;
export type FilterFlag = (typeof FILTER_FLAGS)[number];

export const SORT_KEYS = [
  "line",
  "task",
  "agent",
  "recorded",
  "contract",
  "legacy",
  "ambiguous",
  "mismatched",
  "external",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** The harnesses the UI offers, in display order: the library's list. */
export const HARNESS_IDS: readonly HarnessId[] = HARNESSES;

export function isFilterFlag(value: string): value is FilterFlag {
  return (FILTER_FLAGS as readonly string[]).includes(value);
}

export function isSortKey(value: string): value is SortKey {
  return (SORT_KEYS as readonly string[]).includes(value);
}

/** The clause each chip and tile stands for (zero: see flagClause). */
const FLAG_CLAUSES: Readonly<Record<Exclude<FilterFlag, "zero">, FilterClause>> = {
  changed: { kind: "is", state: "changed" },
  ambiguous: { kind: "flag", name: "ambiguous" },
  mismatched: { kind: "flag", name: "mismatched" },
  external: { kind: "flag", name: "external" },
  unverified: { kind: "is", state: "unverified" },
};

/** The clause a chip or tile stands for; the zero one counts zeros in the run view's reward setting. */
export function flagClause(flag: FilterFlag, reward: Reward = "recorded"): FilterClause {
  return flag === "zero" ? zeroClause(reward) : FLAG_CLAUSES[flag];
}

/** A chip's or tile's label: the zero one names the reward it counts in ("recorded ≤ 0", "contract ≤ 0"). */
export function flagLabel(flag: FilterFlag, reward: Reward): string {
  // A no-break space: "≤" and "0" never part at a narrow tile's wrap.
  return flag === "zero" ? `${reward} ≤\u00a00` : FLAG_LABEL[flag];
}

const FLAG_LABEL: Readonly<Record<Exclude<FilterFlag, "zero">, string>> = {
  changed: "reward changed",
  ambiguous: "ambiguous",
  mismatched: "mismatched",
  external: "external",
  unverified: "unverified",
};

/** The filter text with `clauses` added: formatted again when it parses, else appended to what was typed. */
export function addClauses(f: string, clauses: readonly FilterClause[]): string {
  if (clauses.length === 0) return f;
  const parsed = parseFilter(f);
  if (parsed.ok) return formatFilter([...parsed.clauses, ...clauses]);
  return `${f} ${formatFilter(clauses)}`.trim();
}

/** A recomputed reward differs from the recorded one (both known). */
export function rewardChanged(entry: RolloutIndexEntry): boolean {
  return entry.recorded !== null && entry.contract !== null && entry.contract !== entry.recorded;
}

const HIGHLIGHTS = ["ambiguous", "mismatched", "external"] as const;

/**
 * What the filter can read of a list row: its rewards and highlights only once they are computed (a pending
 * reward is not known, so no clause on it is decided yet), never its flag names or its cause (those come
 * with the run view, ./run-view.ts).
 */
export function entrySubject(entry: RolloutIndexEntry): FilterSubject {
  const done = entry.rewards === "done";
  return {
    agent: entry.agent,
    server: entry.server,
    recorded: entry.recorded,
    ...(done ? { contract: entry.contract, legacy: entry.legacy } : {}),
    ...(entry.counts === null ? {} : { highlights: HIGHLIGHTS.filter((h) => (entry.counts?.[h] ?? 0) > 0) }),
  };
}

/** Each row's subject, made once per row object: rows stay the same objects while a search streams in. */
const subjects = new WeakMap<RolloutIndexEntry, FilterSubject>();

function subjectOf(entry: RolloutIndexEntry): FilterSubject {
  let subject = subjects.get(entry);
  if (subject === undefined) {
    subject = entrySubject(entry);
    subjects.set(entry, subject);
  }
  return subject;
}

/**
 * The filter that lists one by-task row's rollouts: its task index, and its agent when the row is one
 * agent's task among several agents' (lib/metrics taskKeyOf).
 */
export function taskFilter(group: GroupStats): string {
  const task = group.task?.task ?? group.key ?? "";
  const clauses: FilterClause[] = [{ kind: "field", path: "_ng_task_index", op: "eq", value: task }];
  const agent = group.task?.scoped ? group.task.agent : null;
  return formatFilter(agent === null ? clauses : [{ kind: "agent", value: agent }, ...clauses]);
}

/** The filter's clauses, or none when it does not parse (the page says why, and lists every row). */
export function filterClauses(f: string): readonly FilterClause[] {
  const parsed = parseFilter(f);
  return parsed.ok ? parsed.clauses : [];
}

/**
 * Whether the filter text narrows anything: it reads, and has a clause. A text that does not read leaves
 * the list, tiles, breakdown and metrics unfiltered (it says why), so none of them names it as its scope,
 * and the CLI line beside the export does not offer it.
 */
export function filterApplies(f: string): boolean {
  return filterClauses(f).length > 0;
}

/** Whether the filter holds this clause (the chip or tile that stands for it is on). */
export function hasClause(f: string, clause: FilterClause): boolean {
  const text = formatClause(clause);
  return filterClauses(f).some((c) => formatClause(c) === text);
}

/** The filter with the clause taken out when present, else added (a chip or tile pressed). */
export function toggleClause(f: string, clause: FilterClause): string {
  const parsed = parseFilter(f);
  if (!parsed.ok) return addClauses(f, [clause]);
  const text = formatClause(clause);
  const kept = parsed.clauses.filter((c) => formatClause(c) !== text);
  return formatFilter(kept.length === parsed.clauses.length ? [...kept, clause] : kept);
}

type SingleKind = "agent" | "server" | "text" | "cause";

/** The filter with every clause of this kind replaced by `clause` (or removed): a select, the search box, a cause. */
export function setClause(f: string, kind: SingleKind, clause: FilterClause | null): string {
  const parsed = parseFilter(f);
  if (!parsed.ok) return clause === null ? f : addClauses(f, [clause]);
  const kept = parsed.clauses.filter((c) => c.kind !== kind);
  return formatFilter(clause === null ? kept : [...kept, clause]);
}

/** The value of the filter's first agent, server or text clause (what its select or box shows). */
export function clauseValue(f: string, kind: "agent" | "server" | "text"): string | null {
  for (const clause of filterClauses(f))
    if (
      (clause.kind === "agent" || clause.kind === "server" || clause.kind === "text") &&
      clause.kind === kind
    )
      return clause.value;
  return null;
}

export interface SelectContext {
  /** The page's byte search for the filter's text clause: its text and the lines found so far. */
  readonly search: { readonly text: string; readonly lines: ReadonlySet<number> } | null;
  /** The lines the worker's run view kept for this very filter (every clause decided); null before it answers. */
  readonly kept: ReadonlySet<number> | null;
}

/**
 * Rows the filter keeps, in the chosen order. Each row is judged by lib's evaluator on what the list knows;
 * a clause it cannot decide yet (a cause, a flag name, a field, a pending reward) keeps the row until the
 * worker's answer (`kept`) decides it.
 */
export function selectRollouts(
  entries: readonly RolloutIndexEntry[],
  state: { readonly clauses: readonly FilterClause[]; readonly sort: SortKey; readonly desc: boolean },
  context: SelectContext,
): RolloutIndexEntry[] {
  const { search, kept } = context;
  // One context for every row (it runs at each streamed search answer, over every row of a large run).
  let line = 0;
  const filterContext = {
    text: (needle: string) => (search?.text === needle ? search.lines.has(line) : undefined),
  };
  const rows =
    state.clauses.length === 0
      ? [...entries]
      : entries.filter((entry) => {
          if (kept !== null && !kept.has(entry.line)) return false;
          line = entry.line;
          return evaluateFilter(state.clauses, subjectOf(entry), filterContext) !== false;
        });
  // The index arrives in line order: the default order needs no sort (it runs at every streamed revision).
  if (state.sort === "line" && !state.desc && inLineOrder(rows)) return rows;
  const key = sortValue(state.sort);
  const direction = state.desc ? -1 : 1;
  return rows.sort((a, b) => {
    const left = key(a);
    const right = key(b);
    // Unknown values (no reward, no task) stay at the bottom whichever way the column is sorted.
    if (left === null || right === null) {
      if (left === right) return a.line - b.line;
      return left === null ? 1 : -1;
    }
    const order = compare(left, right);
    return order !== 0 ? order * direction : a.line - b.line;
  });
}

function inLineOrder(rows: readonly RolloutIndexEntry[]): boolean {
  for (let i = 1; i < rows.length; i++) if ((rows[i - 1]?.line ?? 0) > (rows[i]?.line ?? 0)) return false;
  return true;
}

type SortValue = number | string | null;

function sortValue(sort: SortKey): (entry: RolloutIndexEntry) => SortValue {
  switch (sort) {
    case "line":
      return (entry) => entry.line;
    case "task":
      return (entry) => entry.task_index ?? entry.task;
    case "agent":
      return (entry) => entry.agent;
    case "recorded":
    case "contract":
    case "legacy":
      return (entry) => entry[sort];
    case "ambiguous":
    case "mismatched":
    case "external":
      // Rows whose calls are not resolved yet sort below every count.
      return (entry) => entry.counts?.[sort] ?? -1;
  }
}

function compare(a: number | string, b: number | string): number {
  if (a === b) return 0;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

export interface StatusCounts {
  readonly rollouts: number;
  readonly calls: number;
  readonly ambiguous: number;
  readonly mismatched: number;
  readonly external: number;
  readonly changed: number;
  /** Rollouts whose reward in the run view's setting is 0 (a pending recomputation is not yet a zero). */
  readonly zero: number;
  /** Rollouts whose rewards were computed and could not be: never a row whose rewards are still pending. */
  readonly unverified: number;
  /** Rollouts whose rewards are not computed yet (loading, or restored and being checked). */
  readonly pending: number;
  /** Rollouts with at least one call of each highlight: the unit the tiles filter by. */
  readonly rollouts_with: {
    readonly ambiguous: number;
    readonly mismatched: number;
    readonly external: number;
  };
}

/** The tiles' counts; `zero` counts the rollouts whose `reward` (the run view's setting) is 0 or below. */
export function statusCounts(
  entries: readonly RolloutIndexEntry[],
  reward: Reward = "recorded",
): StatusCounts {
  let calls = 0;
  let ambiguous = 0;
  let mismatched = 0;
  let external = 0;
  let changed = 0;
  let zero = 0;
  let unverified = 0;
  let pending = 0;
  const rolloutsWith = { ambiguous: 0, mismatched: 0, external: 0 };
  for (const entry of entries) {
    calls += entry.calls;
    const counts = entry.counts;
    if (counts !== null) {
      if (counts.ambiguous > 0) rolloutsWith.ambiguous++;
      if (counts.mismatched > 0) rolloutsWith.mismatched++;
      if (counts.external > 0) rolloutsWith.external++;
      ambiguous += counts.ambiguous;
      mismatched += counts.mismatched;
      external += counts.external;
    }
    if (rewardChanged(entry)) changed++;
    if (isZeroOrBelow(entry[reward]) && (reward === "recorded" || entry.rewards === "done")) zero++;
    if (entry.rewards === "pending") pending++;
    else if (entry.contract === null) unverified++;
  }
  return {
    rollouts: entries.length,
    calls,
    ambiguous,
    mismatched,
    external,
    changed,
    zero,
    unverified,
    pending,
    rollouts_with: rolloutsWith,
  };
}
