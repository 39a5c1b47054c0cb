/**
 * The inspector's view state (sample, rollout, call, filter) and its URL form. Pure functions: the
 * URL is the single place the state lives, so a link reopens the same view.
 *
 * The list has one filter, lib/run's structured filter in `?f=`: the chips, the tiles, the cause buttons, the
 * agent and server selects and the search box each edit one clause of it (features/run/list.ts), so the list,
 * the tiles, the metrics, the breakdown and the export all follow the same filter. Links from before that
 * (`?filter=zero,changed&agent=a&env=s&q=text`) are read into clauses.
 */
import { addClauses, flagClause, isFilterFlag, isSortKey, type SortKey } from "@/features/run/list";
import { formatHarnessChoice, parseHarnessChoice } from "@/lib/harness";
import { DEFAULT_REWARD, type FilterClause, REWARD_PARAM, type Reward, rewardOfParams } from "@/lib/run";
import { servedPathOf } from "@/worker/protocol";

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
  /**
   * The run view's one reward setting (lib/run reward.ts): the zeros the headline, breakdown, zero tile and
   * chip count, and the reward pass@k, "passed" and the distribution read; the run's recorded one by default.
   */
  readonly reward: Reward;
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

function positiveInt(value: string | null): number | null {
  if (value === null || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  return Number(value);
}

/** What a link shows besides its file: a rollout, a call or a filter (applied once the file is opened). */
export function linkTarget(state: ViewState): boolean {
  return state.line !== null || state.call !== null || state.f !== "";
}

/** A fresh view that keeps the reward setting: it is the researcher's choice of reward, not a file's. */
function freshView(state: ViewState): ViewState {
  return { ...DEFAULT_VIEW, reward: state.reward };
}

/**
 * The view kept when files are opened from a link that named what to show (a fresh tab without the file):
 * its rollout, call, filter and settings apply to the opened file; only the sample is dropped. The reward
 * setting is kept either way (a `?reward=` link opens with it applied).
 */
export function keptForOpenedFiles(state: ViewState): ViewState {
  return linkTarget(state) ? { ...state, sample: null, file: null } : freshView(state);
}

/**
 * Which of the opened files' names a link's file name means: the one name equal to it, else the one name that
 * ends with it, path segment by path segment (the link made in a folder below the one opened:
 * `calendar/data/x.jsonl` in `environments/`). A name the link's ends with is not enough: every Gym server's
 * `data/example_rollouts.jsonl` ends `circle_click/data/example_rollouts.jsonl`. Null when none does, or when
 * several do (two files of one name included): a link is never guessed at.
 */
export function linkedName(names: readonly string[], linkName: string): string | null {
  const equal = names.filter((name) => name === linkName);
  if (equal.length > 0) return equal.length === 1 ? linkName : null;
  const matches = names.filter((name) => name.endsWith(`/${linkName}`));
  return matches.length === 1 ? (matches[0] ?? null) : null;
}

/**
 * The view when files are opened: a link's rollout, call and filter are for the file opened next while none is
 * shown (the page applies them once that file is shown, or sets them aside: linkMissesShown); opened over a
 * shown file, they belong to that file, so the new files start from the default view (with the reward setting
 * kept).
 */
export function viewForOpenedFiles(state: ViewState, showing: boolean): ViewState {
  return showing ? freshView(state) : keptForOpenedFiles(state);
}

/**
 * The view when a folder is opened (`paths`: the files the folder's plan reads, hidden ones left out as the
 * worker leaves them out; `folder`: its name). A link's file is found by its path here or with the folder's name
 * before it (a link made one level up: `calendar/data/x.jsonl` when `calendar/` is opened), and the view then
 * names it by its path here, the name its dataset gets. A link that names no file keeps only its filter: a
 * folder holds many files, and its line and call were for one of them.
 */
export function viewForOpenedFolder(
  state: ViewState,
  showing: boolean,
  folder: string,
  paths: readonly string[],
): ViewState {
  if (showing || !linkTarget(state)) return freshView(state);
  if (state.name === null) return { ...freshView(state), f: state.f };
  const linked =
    linkedName(paths, state.name) ??
    linkedName(
      paths.map((path) => `${folder}/${path}`),
      state.name,
    )?.slice(folder.length + 1) ??
    null;
  // Not found: kept, for the page to set it aside once the files are in.
  return { ...keptForOpenedFiles(state), name: linked ?? state.name };
}

/**
 * Whether a pending link is for another file than the one shown: it names a file (and no dataset id, which a
 * chip sets) that is not the one its name means among the open rollouts files (`names`; none when two could
 * be: two of Gym's example_rollouts.jsonl). The page then sets its rollout, call and filter aside, and offers
 * to apply them to the file shown.
 */
export function linkMissesShown(state: ViewState, shownName: string, names: readonly string[]): boolean {
  return (
    // A file named by id is the tab's own; one named by its served path may be another tab's (its name, below).
    (state.file === null || servedPathOf(state.file) !== null) &&
    state.name !== null &&
    linkTarget(state) &&
    linkedName(names, state.name) !== shownName
  );
}

/** URL parameters of the filters before there was one filter: still read from links, never written. */
export const LEGACY_FILTER_PARAMS = ["filter", "agent", "env", "q"] as const;

/** The clauses an old link's `filter`, `agent`, `env` and `q` parameters stand for. */
function legacyClauses(params: URLSearchParams): FilterClause[] {
  const out: FilterClause[] = (params.get("filter") ?? "")
    .split(",")
    .filter(isFilterFlag)
    .map((flag) => flagClause(flag));
  const agent = params.get("agent");
  if (agent) out.push({ kind: "agent", value: agent });
  const env = params.get("env");
  if (env) out.push({ kind: "server", value: env });
  const q = params.get("q")?.trim();
  if (q) out.push({ kind: "text", value: q });
  return out;
}

export function parseViewState(params: URLSearchParams): ViewState {
  const sortParam = params.get("sort") ?? "";
  const desc = sortParam.startsWith("-");
  const sortKey = desc ? sortParam.slice(1) : sortParam;
  const harness = params.get("harness");
  const file = params.get("file") || null;
  return {
    sample: params.get("sample") || null,
    file,
    // A served file's path is its name too: a link naming one, opened where other files are shown, says which
    // file it shows (use-deep-link) instead of showing another file's line.
    name: params.get("name") || (file === null ? null : servedPathOf(file)),
    line: positiveInt(params.get("line")),
    call: params.get("call") || null,
    f: addClauses(params.get("f") ?? "", legacyClauses(params)),
    reward: rewardOfParams(params),
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
  if (state.reward !== DEFAULT_REWARD) params.set(REWARD_PARAM, state.reward);
  if (state.sort !== DEFAULT_VIEW.sort || state.desc)
    params.set("sort", `${state.desc ? "-" : ""}${state.sort}`);
  if (state.server) params.set("server", state.server);
  if (state.harness) params.set("harness", state.harness);
  return params;
}
