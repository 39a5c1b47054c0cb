/**
 * The inspector's view state (sample, rollout, call, filter) and its URL form. Pure functions: the
 * URL is the single place the state lives, so a link reopens the same view.
 *
 * The list has one filter, lib/run's structured filter in `?f=`: the chips, the tiles, the cause buttons, the
 * agent and server selects and the search box each edit one clause of it (flagClause, setClause), so the list,
 * the tiles, the metrics, the breakdown and the export all follow the same filter. Links from before that
 * (`?filter=zero,changed&agent=a&env=s&q=text`) are read into clauses.
 */
import { formatHarnessChoice, HARNESSES, parseHarnessChoice } from "@/lib/harness";
import { DEFAULT_REWARD, isRewardSource, type RewardSource } from "@/lib/metrics";
import {
  evaluateFilter,
  type FilterClause,
  type FilterSubject,
  formatClause,
  formatFilter,
  parseFilter,
} from "@/lib/run";
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

export interface ViewState {
  /** A bundled sample's file name (public/samples). */
  readonly sample: string | null;
  /** The rollouts file shown, by dataset id (or name), when several are loaded. */
  readonly file: string | null;
  /** The shown file's name, so a link opened where the file is not loaded can say which file to open. */
  readonly name: string | null;
  readonly line: number | null;
  readonly call: string | null;
  /** The one filter (lib/run syntax: recorded:0 agent:a server:s is:changed text:"x" field:a.b=x flag:f cause:c). */
  readonly f: string;
  /** The reward pass@k and "passed" read in the run metrics (lib/metrics; the run's recorded one by default). */
  readonly reward: RewardSource;
  readonly sort: SortKey;
  readonly desc: boolean;
  /** Verifying server chosen for the open rollout; null: its default. */
  readonly server: string | null;
  /** The harness per agent (lib/harness choice text: "claude-code,hermes_agent=hermes-legacy"; "" for none). */
  readonly harness: string;
}

export const DEFAULT_VIEW: ViewState = {
  sample: null,
  file: null,
  name: null,
  line: null,
  call: null,
  f: "",
  reward: DEFAULT_REWARD,
  sort: "line",
  desc: false,
  server: null,
  harness: "",
};

/** A harness choice in its canonical text form, or "" when it does not parse (a link is never guessed at). */
function readHarnessChoice(text: string): string {
  const parsed = parseHarnessChoice(text);
  return parsed.ok ? formatHarnessChoice(parsed.choice) : "";
}

function isFilterFlag(value: string): value is FilterFlag {
  return (FILTER_FLAGS as readonly string[]).includes(value);
}

function isSortKey(value: string): value is SortKey {
  return (SORT_KEYS as readonly string[]).includes(value);
}

function positiveInt(value: string | null): number | null {
  if (value === null || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  return Number(value);
}

/** What a link shows besides its file: a rollout, a call or a filter (applied once the file is opened). */
export function linkTarget(state: ViewState): boolean {
  return state.line !== null || state.call !== null || state.f !== "";
}

/**
 * The view kept when files are opened from a link that named what to show (a fresh tab without the file):
 * its rollout, call, filter and settings apply to the opened file; only the sample is dropped.
 */
export function keptForOpenedFiles(state: ViewState): ViewState {
  return linkTarget(state) ? { ...state, sample: null, file: null } : { ...DEFAULT_VIEW };
}

/** The clause each chip and tile stands for. */
const FLAG_CLAUSES: Readonly<Record<FilterFlag, FilterClause>> = {
  zero: { kind: "range", field: "recorded", min: 0, max: 0 },
  changed: { kind: "is", state: "changed" },
  ambiguous: { kind: "flag", name: "ambiguous" },
  mismatched: { kind: "flag", name: "mismatched" },
  external: { kind: "flag", name: "external" },
  unverified: { kind: "is", state: "unverified" },
};

export function flagClause(flag: FilterFlag): FilterClause {
  return FLAG_CLAUSES[flag];
}

/** URL parameters of the filters before there was one filter: still read from links, never written. */
export const LEGACY_FILTER_PARAMS = ["filter", "agent", "env", "q"] as const;

/** The clauses an old link's `filter`, `agent`, `env` and `q` parameters stand for. */
function legacyClauses(params: URLSearchParams): FilterClause[] {
  const out: FilterClause[] = (params.get("filter") ?? "").split(",").filter(isFilterFlag).map(flagClause);
  const agent = params.get("agent");
  if (agent) out.push({ kind: "agent", value: agent });
  const env = params.get("env");
  if (env) out.push({ kind: "server", value: env });
  const q = params.get("q")?.trim();
  if (q) out.push({ kind: "text", value: q });
  return out;
}

/** The filter text with `clauses` added: formatted again when it parses, else appended to what was typed. */
function addClauses(f: string, clauses: readonly FilterClause[]): string {
  if (clauses.length === 0) return f;
  const parsed = parseFilter(f);
  if (parsed.ok) return formatFilter([...parsed.clauses, ...clauses]);
  return `${f} ${formatFilter(clauses)}`.trim();
}

export function parseViewState(params: URLSearchParams): ViewState {
  const sortParam = params.get("sort") ?? "";
  const desc = sortParam.startsWith("-");
  const sortKey = desc ? sortParam.slice(1) : sortParam;
  const harness = params.get("harness");
  const reward = params.get("reward") ?? "";
  return {
    sample: params.get("sample") || null,
    file: params.get("file") || null,
    name: params.get("name") || null,
    line: positiveInt(params.get("line")),
    call: params.get("call") || null,
    f: addClauses(params.get("f") ?? "", legacyClauses(params)),
    reward: isRewardSource(reward) ? reward : DEFAULT_REWARD,
    sort: isSortKey(sortKey) ? sortKey : DEFAULT_VIEW.sort,
    desc: isSortKey(sortKey) && desc,
    server: params.get("server") || null,
    harness: readHarnessChoice(harness ?? ""),
  };
}

export function serializeViewState(state: ViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.sample) params.set("sample", state.sample);
  if (state.file) params.set("file", state.file);
  if (state.name) params.set("name", state.name);
  if (state.line !== null) params.set("line", String(state.line));
  if (state.call) params.set("call", state.call);
  if (state.f) params.set("f", state.f);
  if (state.reward !== DEFAULT_REWARD) params.set("reward", state.reward);
  if (state.sort !== DEFAULT_VIEW.sort || state.desc)
    params.set("sort", `${state.desc ? "-" : ""}${state.sort}`);
  if (state.server) params.set("server", state.server);
  if (state.harness) params.set("harness", state.harness);
  return params;
}

/** A recomputed reward differs from the recorded one (both known). */
export function rewardChanged(entry: RolloutIndexEntry): boolean {
  return entry.recorded !== null && entry.contract !== null && entry.contract !== entry.recorded;
}

const HIGHLIGHTS = ["ambiguous", "mismatched", "external"] as const;

/**
 * What the filter can read of a list row: its rewards only once they are computed (a pending reward is not
 * known, so no clause on it is decided yet), its highlights but not its flag names or its cause (those come
 * with the run view, worker/run.ts).
 */
export function entrySubject(entry: RolloutIndexEntry): FilterSubject {
  const done = entry.rewards === "done";
  return {
    agent: entry.agent,
    server: entry.server,
    recorded: entry.recorded,
    ...(done ? { contract: entry.contract, legacy: entry.legacy } : {}),
    highlights: HIGHLIGHTS.filter((h) => entry.counts[h] > 0),
  };
}

/** The filter's clauses, or none when it does not parse (the page says why, and lists every row). */
export function filterClauses(f: string): readonly FilterClause[] {
  const parsed = parseFilter(f);
  return parsed.ok ? parsed.clauses : [];
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
  state: { readonly clauses: readonly FilterClause[] } & Pick<ViewState, "sort" | "desc">,
  context: SelectContext,
): RolloutIndexEntry[] {
  const { search, kept } = context;
  const rows =
    state.clauses.length === 0
      ? [...entries]
      : entries.filter((entry) => {
          if (kept !== null && !kept.has(entry.line)) return false;
          const text = (needle: string) =>
            search?.text === needle ? search.lines.has(entry.line) : undefined;
          return evaluateFilter(state.clauses, entrySubject(entry), { text }) !== false;
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
      return (entry) => entry.task_index ?? entry.task_id;
    case "agent":
      return (entry) => entry.agent;
    case "recorded":
    case "contract":
    case "legacy":
      return (entry) => entry[sort];
    case "ambiguous":
    case "mismatched":
    case "external":
      return (entry) => entry.counts[sort];
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

export function statusCounts(entries: readonly RolloutIndexEntry[]): StatusCounts {
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
    if (entry.counts.ambiguous > 0) rolloutsWith.ambiguous++;
    if (entry.counts.mismatched > 0) rolloutsWith.mismatched++;
    if (entry.counts.external > 0) rolloutsWith.external++;
    calls += entry.calls;
    ambiguous += entry.counts.ambiguous;
    mismatched += entry.counts.mismatched;
    external += entry.counts.external;
    if (rewardChanged(entry)) changed++;
    if (entry.recorded === 0) zero++;
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
