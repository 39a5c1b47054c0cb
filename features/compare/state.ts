/**
 * The /compare page's state, kept in the URL search params so every view is a link:
 * `?tab=runs&a=<file>&b=<file>&ai=<inputs>&bi=<inputs>&policy=contract&verdict=...&sort=verdict&pair=3`,
 * `?tab=whatif&sample=<file>&line=12`, `?tab=repair&r=<file>&harness=hermes-legacy`.
 */

import { folderComparisons } from "@/hooks/comparable-runs";
import { pairedInputsSample, type Sample } from "@/hooks/samples";
import type { DatasetSummary } from "@/hooks/types";
import { HARNESSES, type HarnessId } from "@/lib/harness";
import type { Policy } from "@/lib/identity/types";
import { servedPathOf } from "@/worker/protocol";
import type { Verdict } from "./protocol";

export type CompareTab = "runs" | "whatif" | "repair";
export const COMPARE_TABS: readonly CompareTab[] = ["runs", "whatif", "repair"];

/** Short URL words for verdicts; also the pair rows' data-verdict. */
export type VerdictSlug = "same" | "identity-bug" | "different-actions";
export const VERDICT_SLUGS: Record<Verdict, VerdictSlug> = {
  "same actions, same reward": "same",
  "same actions, different reward": "identity-bug",
  "different actions": "different-actions",
};
export const VERDICT_ORDER: readonly VerdictSlug[] = ["identity-bug", "different-actions", "same"];

export type PairSort = "verdict" | "pair";

export interface CompareState {
  readonly tab: CompareTab;
  readonly a: string;
  readonly b: string;
  /**
   * Each side's materialized-inputs file (a loaded or bundled file name). Null: automatic, the bundled
   * inputs sample that goes with a bundled rollouts sample, if any; NO_INPUTS: none.
   */
  readonly ai: string | null;
  readonly bi: string | null;
  readonly policy: Policy;
  /** Verdicts shown; empty means all. */
  readonly verdicts: readonly VerdictSlug[];
  readonly sort: PairSort;
  readonly pair: number | null;
  readonly sample: string | null;
  readonly line: number | null;
  /** The repair's file; null: the what-if's (repairFileOf), so the file opened as B is repaired by default. */
  readonly repairFile: string | null;
  readonly harness: HarnessId;
}

/** The obvious default pair: the same golden tasks over HTTP and over Hermes without provenance. */
export const DEFAULT_A = "compare-http.jsonl";
export const DEFAULT_B = "compare-mcp-hermes-noprov.jsonl";
export const DEFAULT_REPAIR_HARNESS: HarnessId = "hermes-legacy";

export const DEFAULT_COMPARE_STATE: CompareState = {
  tab: "runs",
  a: DEFAULT_A,
  b: DEFAULT_B,
  ai: null,
  bi: null,
  policy: "contract",
  verdicts: [],
  sort: "verdict",
  pair: null,
  sample: null,
  line: null,
  repairFile: null,
  harness: DEFAULT_REPAIR_HARNESS,
};

/** The what-if's file: the one chosen for it, else B (the run under question, an MCP one by default). */
export function whatIfFileOf(state: CompareState): string {
  return state.sample ?? state.b;
}

/** The repair's file: the one chosen for it, else the what-if's (a file opened as B, the sample a line came from). */
export function repairFileOf(state: CompareState): string {
  return state.repairFile ?? whatIfFileOf(state);
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.find((x) => x === value) ?? fallback;
}

function nonNegativeInt(value: string | null): number | null {
  if (value === null || !/^\d{1,9}$/.test(value)) return null;
  return Number(value);
}

function nonEmpty(value: string | null): string | null {
  return value !== null && value.trim() !== "" ? value : null;
}

export function parseCompareState(params: URLSearchParams): CompareState {
  const d = DEFAULT_COMPARE_STATE;
  const verdicts = (params.get("verdict") ?? "")
    .split(",")
    .flatMap((v) => VERDICT_ORDER.filter((slug) => slug === v));
  return {
    tab: oneOf(params.get("tab"), COMPARE_TABS, d.tab),
    a: nonEmpty(params.get("a")) ?? d.a,
    b: nonEmpty(params.get("b")) ?? d.b,
    ai: nonEmpty(params.get("ai")),
    bi: nonEmpty(params.get("bi")),
    policy: oneOf<Policy>(params.get("policy"), ["contract", "legacy"], d.policy),
    verdicts: [...new Set(verdicts)],
    sort: oneOf<PairSort>(params.get("sort"), ["verdict", "pair"], d.sort),
    pair: nonNegativeInt(params.get("pair")),
    sample: nonEmpty(params.get("sample")),
    line: nonNegativeInt(params.get("line")),
    // The what-if's file is the repair's too until one is chosen: the tab switch keeps the file in view.
    repairFile: nonEmpty(params.get("r")),
    harness: oneOf(params.get("harness"), HARNESSES, d.harness),
  };
}

/** Only values that differ from the defaults are written, so links stay short. */
export function serializeCompareState(state: CompareState): URLSearchParams {
  const d = DEFAULT_COMPARE_STATE;
  const params = new URLSearchParams();
  const put = (key: string, value: string | number | null, fallback: string | number | null) => {
    if (value !== null && value !== fallback) params.set(key, String(value));
  };
  put("tab", state.tab, d.tab);
  put("a", state.a, d.a);
  put("b", state.b, d.b);
  put("ai", state.ai, null);
  put("bi", state.bi, null);
  put("policy", state.policy, d.policy);
  if (state.verdicts.length > 0) params.set("verdict", state.verdicts.join(","));
  put("sort", state.sort, d.sort);
  put("pair", state.pair, null);
  put("sample", state.sample, null);
  put("line", state.line, null);
  put("r", state.repairFile, null);
  put("harness", state.harness, d.harness);
  return params;
}

/** Whether the state names a file of the folder `cli view` serves by its path (worker/protocol servedRef). */
export function namesServedFiles(state: CompareState): boolean {
  return [state.a, state.b, state.ai, state.bi, state.sample, state.repairFile].some(
    (ref) => ref !== null && servedPathOf(ref) !== null,
  );
}

/** The URL value of an inputs choice that turns the automatic pairing off. */
export const NO_INPUTS = "none";

/** The inputs file a run uses: the chosen one, none, or (not chosen) its bundled sample's. */
export function resolveInputs(
  choice: string | null,
  file: string,
  samples: readonly Sample[],
): string | null {
  if (choice === NO_INPUTS) return null;
  return choice ?? pairedInputsSample(file, samples);
}

/** Sort rank of a verdict: same actions with different rewards (where names decide: the identity bug) first. */
export function verdictRank(verdict: Verdict): number {
  return VERDICT_ORDER.indexOf(VERDICT_SLUGS[verdict]);
}

/** Parses the repair form's comma-separated tool list: trimmed, no empties, no repeats, order kept. */
export function parseToolList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((t) => t.trim())
        .filter((t) => t !== ""),
    ),
  ];
}

type HeldFile = Pick<
  DatasetSummary,
  | "id"
  | "ref"
  | "kind"
  | "problem"
  | "indexed"
  | "rewarded"
  | "rows"
  | "paired_inputs"
  | "paired_rows"
  | "servers"
>;

/**
 * "← Inspector": back to the file this view is about (the runs' A, the what-if's file at its line, the
 * repaired file) when the inspector holds it, else the inspector as it is (a bundled sample, a file opened
 * here only).
 */
export function inspectorHref(
  state: CompareState,
  held: readonly Pick<HeldFile, "id" | "ref" | "kind">[],
): string {
  const [file, line] =
    state.tab === "whatif"
      ? [state.sample, state.line]
      : state.tab === "repair"
        ? [repairFileOf(state), null]
        : [state.a, null];
  const shown = held.find((set) => set.kind === "rollouts" && (set.id === file || set.ref === file));
  if (shown === undefined) return "/";
  const params = new URLSearchParams({ file: shown.ref });
  if (line !== null) params.set("line", String(line));
  return `/?${params.toString()}`;
}

/** The runs among the files held: rollouts files with rollouts. */
function runsOf(held: readonly HeldFile[]): HeldFile[] {
  return held.filter((set) => set.kind === "rollouts" && set.problem === null);
}

/** Read whole, every reward in (what folderPair waits for). */
function rewardedWhole(set: HeldFile): boolean {
  return set.indexed && set.rewarded >= set.rows;
}

/** How many of the rollouts files have every reward in, of how many (what folderPair waits for). */
export function rewardsIn(held: readonly HeldFile[]): { readonly done: number; readonly files: number } {
  const runs = runsOf(held);
  return { done: runs.filter(rewardedWhole).length, files: runs.length };
}

/**
 * The runs a tab showing a served folder compares when /compare is opened there with none named (its
 * address typed): the first of its rollouts files (in the inspector's order) that another is surely of one
 * experiment with (hooks/comparable-runs folderComparisons: the same task rows, else a verifying server in
 * common), as A, and the surest such B; else the first file with itself; "pending" until every run's rewards are in (the
 * offer reads their rows' servers and how many rows each paired, which the rewards pass counts whole: Gym's
 * example rollouts pair by equal input, not by index), null when the folder holds no run.
 */
export function folderPair(held: readonly HeldFile[]): { a: string; b: string } | "pending" | null {
  const runs = runsOf(held);
  const first = runs[0];
  if (first === undefined) return null;
  if (!runs.every(rewardedWhole)) return "pending";
  // The folder's pairs in file order (Gym's folders hold one run each: most have none): the first one's A is
  // the first run that has a pair, its B the surest of that run's partners; else the first run with itself.
  const pairs = folderComparisons(runs);
  const a = pairs[0]?.a;
  if (a === undefined) return { a: first.ref, b: first.ref };
  const best = pairs.filter((pair) => pair.a === a).reduce((x, y) => (y.affinity > x.affinity ? y : x));
  return { a: a.ref, b: best.b.ref };
}
