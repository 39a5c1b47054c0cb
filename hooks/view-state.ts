/**
 * The inspector's view state (sample, rollout, call, filters) and its URL form. Pure functions: the
 * URL is the single place the state lives, so a link reopens the same view.
 */
import { HARNESSES, isHarnessId } from "@/lib/harness";
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
  /** The rollouts file shown, by name, when several are loaded. */
  readonly file: string | null;
  readonly line: number | null;
  readonly call: string | null;
  readonly filters: readonly FilterFlag[];
  readonly agent: string | null;
  readonly env: string | null;
  readonly q: string;
  /** The structured filter (lib/run syntax: recorded:0 field:a.b=x flag:f cause:c). */
  readonly f: string;
  readonly sort: SortKey;
  readonly desc: boolean;
  /** Verifying server chosen for the open rollout; null: its default. */
  readonly server: string | null;
  readonly harness: HarnessId | null;
}

export const DEFAULT_VIEW: ViewState = {
  sample: null,
  file: null,
  line: null,
  call: null,
  filters: [],
  agent: null,
  env: null,
  q: "",
  f: "",
  sort: "line",
  desc: false,
  server: null,
  harness: null,
};

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

export function parseViewState(params: URLSearchParams): ViewState {
  const sortParam = params.get("sort") ?? "";
  const desc = sortParam.startsWith("-");
  const sortKey = desc ? sortParam.slice(1) : sortParam;
  const harness = params.get("harness");
  return {
    sample: params.get("sample") || null,
    file: params.get("file") || null,
    line: positiveInt(params.get("line")),
    call: params.get("call") || null,
    filters: (params.get("filter") ?? "").split(",").filter(isFilterFlag),
    agent: params.get("agent") || null,
    env: params.get("env") || null,
    q: params.get("q") ?? "",
    f: params.get("f") ?? "",
    sort: isSortKey(sortKey) ? sortKey : DEFAULT_VIEW.sort,
    desc: isSortKey(sortKey) && desc,
    server: params.get("server") || null,
    harness: harness !== null && isHarnessId(harness) ? harness : null,
  };
}

export function serializeViewState(state: ViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.sample) params.set("sample", state.sample);
  if (state.file) params.set("file", state.file);
  if (state.line !== null) params.set("line", String(state.line));
  if (state.call) params.set("call", state.call);
  if (state.filters.length > 0) params.set("filter", state.filters.join(","));
  if (state.agent) params.set("agent", state.agent);
  if (state.env) params.set("env", state.env);
  if (state.q) params.set("q", state.q);
  if (state.f) params.set("f", state.f);
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

function matchesFlag(entry: RolloutIndexEntry, flag: FilterFlag): boolean {
  switch (flag) {
    case "zero":
      return entry.recorded === 0;
    case "changed":
      return rewardChanged(entry);
    case "ambiguous":
    case "mismatched":
    case "external":
      return entry.counts[flag] > 0;
    case "unverified":
      return entry.contract === null;
  }
}

/** Rows that pass every active filter (flags are AND-ed), in the chosen order. */
export function selectRollouts(
  entries: readonly RolloutIndexEntry[],
  state: Pick<ViewState, "filters" | "agent" | "env" | "sort" | "desc">,
  searchLines: ReadonlySet<number> | null,
): RolloutIndexEntry[] {
  const rows = entries.filter(
    (entry) =>
      state.filters.every((flag) => matchesFlag(entry, flag)) &&
      (state.agent === null || entry.agent === state.agent) &&
      (state.env === null || entry.environment === state.env) &&
      (searchLines === null || searchLines.has(entry.line)),
  );
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
  readonly unverified: number;
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
    if (entry.contract === null) unverified++;
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
    rollouts_with: rolloutsWith,
  };
}
