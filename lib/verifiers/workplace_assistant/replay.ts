/**
 * `execute_actions_and_reset_state` (utils.py): a fresh copy of every table, then for each action
 * `functions[action["name"]](**json.loads(action["arguments"]))`, where any exception skips the action.
 * Arguments are passed as given (None included), unlike Gym's HTTP route, which drops None values.
 */
import { type AliasHint, aliasHint } from "./alias";
import { COMPARED_TABLES } from "./compare";
import { baseTables } from "./data/tables";
import { Frame } from "./frame";
import { assertHashable, fromJs, isDict, loadsArguments, PyException, pyRepr, pyTypeName } from "./py";
import { TOOL_DEFS, TOOLS_BY_NAME, type WorkplaceState } from "./tools";
import { type CallWrite, WriteLog } from "./writes";

export const SERVER_NAME = "workplace_assistant";
export const WORKPLACE_TOOL_NAMES: readonly string[] = Object.freeze(TOOL_DEFS.map((t) => t.name));

export type CallOutcomeKind = "applied" | "refused" | "error" | "unknown_name";

export interface CallRecord {
  readonly index: number;
  /** The action's name as text ("" when the action has none). */
  readonly name: string;
  readonly outcome: CallOutcomeKind;
  /** The tool's refusal text, or the exception as Gym prints it ("<Type>: <message>"). */
  readonly message?: string;
  readonly aliasHint?: AliasHint;
  /** Whether the tool can change a compared table (known tools only). */
  readonly mutates?: boolean;
  /** The compared-table rows this call added, updated or removed (tracked replays only; absent: none). */
  readonly writes?: readonly CallWrite[];
}

const EMPTY_PLOTS = Frame.fromRows(Object.freeze(["file_path"]), []);

/** A fresh state: O(1) forks of the shared, parsed-once base tables. */
export function freshState(): WorkplaceState {
  const base = baseTables();
  return {
    emails: base.emails.fork(),
    calendar: base.calendar.fork(),
    plots: EMPTY_PLOTS.fork(),
    projectTasks: base.projectTasks.fork(),
    crm: base.crm.fork(),
    analytics: base.analytics,
    directory: base.directory,
  };
}

/** Python's `obj[key]` on a JSON-shaped value. */
function subscript(obj: unknown, key: string): unknown {
  if (isDict(obj)) {
    if (!obj.has(key)) throw new PyException("KeyError", pyRepr(key));
    return obj.get(key);
  }
  if (typeof obj === "string")
    throw new PyException("TypeError", "string indices must be integers, not 'str'");
  if (Array.isArray(obj))
    throw new PyException("TypeError", "list indices must be integers or slices, not str");
  throw new PyException("TypeError", `'${pyTypeName(obj)}' object is not subscriptable`);
}

function runAction(
  state: WorkplaceState,
  jsAction: unknown,
  index: number,
  recorded: (index: number) => boolean,
): CallRecord {
  let nameText = "";
  const action = fromJs(jsAction);
  try {
    const name = subscript(action, "name");
    nameText = typeof name === "string" ? name : pyRepr(name);
    assertHashable(name);
    const tool = typeof name === "string" ? TOOLS_BY_NAME.get(name) : undefined;
    if (!tool) {
      const hint =
        typeof name === "string"
          ? aliasHint(name, WORKPLACE_TOOL_NAMES, SERVER_NAME, recorded(index))
          : undefined;
      return {
        index,
        name: nameText,
        outcome: "unknown_name",
        message: `KeyError: ${pyRepr(name)}`,
        ...(hint ? { aliasHint: hint } : {}),
      };
    }
    const rawArguments = subscript(action, "arguments");
    if (typeof rawArguments !== "string") {
      throw new PyException(
        "TypeError",
        `the JSON object must be str, bytes or bytearray, not ${pyTypeName(rawArguments)}`,
      );
    }
    const parsed = loadsArguments(rawArguments);
    if (!parsed.ok) throw new PyException(parsed.pyType, parsed.error);
    const kwargs = parsed.value;
    if (!isDict(kwargs)) {
      throw new PyException(
        "TypeError",
        `${tool.qualname}() argument after ** must be a mapping, not ${pyTypeName(kwargs)}`,
      );
    }
    const args = new Map<string, unknown>(tool.params);
    for (const [key, value] of kwargs) {
      if (!args.has(key)) {
        throw new PyException("TypeError", `${tool.qualname}() got an unexpected keyword argument '${key}'`);
      }
      args.set(key, value);
    }
    const result = tool.run(state, args);
    return result.kind === "refused"
      ? { index, name: nameText, outcome: "refused", message: result.message, mutates: tool.mutates }
      : { index, name: nameText, outcome: "applied", mutates: tool.mutates };
  } catch (error) {
    if (!(error instanceof PyException)) throw error;
    return { index, name: nameText, outcome: "error", message: `${error.pyType}: ${error.message}` };
  }
}

export interface ReplayResult {
  readonly state: WorkplaceState;
  readonly calls: readonly CallRecord[];
  /** Who wrote what, when the replay was tracked. */
  readonly log?: WriteLog;
}

/**
 * Replays actions on a fresh state. A string (Gym accepts `ground_truth: str`) is iterated character by
 * character, so every action fails with TypeError, as in Python.
 */
export function replay(
  actions: readonly unknown[] | string,
  options: {
    track?: boolean;
    /** Whether an action's call has a provenance entry for this server that was not followed (an alias hint's advice). */
    recorded?: (index: number) => boolean;
  } = {},
): ReplayResult {
  const state = freshState();
  const list: readonly unknown[] = typeof actions === "string" ? Array.from(actions) : actions;
  // Asked only when a name is no tool (the map is read for an alias hint alone).
  const recorded = (index: number) => options.recorded?.(index) ?? false;
  if (!options.track)
    return { state, calls: list.map((action, index) => runAction(state, action, index, recorded)) };
  const log = new WriteLog();
  for (const table of COMPARED_TABLES) table.get(state).track(log, table.name, table.key);
  const calls = list.map((action, index) => {
    log.current = index;
    const record = runAction(state, action, index, recorded);
    const writes = log.writesOf(index);
    return writes.length === 0 ? record : { ...record, writes };
  });
  log.current = -1;
  return { state, calls, log };
}
