/**
 * Loading a run's materialized inputs (or a raw dataset such as Gym's example.jsonl) for `verify` and
 * `export`: every row goes into one lib InputIndex, so the CLI pairs exactly as the browser does.
 */
import { isTaskRowLine } from "../lib/folder";
import { readJsonl } from "../lib/jsonl";
import { InputIndex } from "../lib/verify";
import type { CommandIo } from "./io";
import { namingFile, openFileStream } from "./open";
import { terminalText } from "./terminal";

/**
 * `--inputs` in a command's help, its text at `column`: every command pairs rows as lib/verify InputIndex
 * does, so every help says the same.
 */
export function inputsHelp(column: number): string {
  const indent = " ".repeat(column);
  return [
    `  ${"--inputs M".padEnd(column - 2)}the run's materialized inputs (or task rows such as Gym's example.jsonl):`,
    `${indent}each rollout is paired by (_ng_task_index, _ng_rollout_index), else by an equal`,
    `${indent}responses_create_params.input; an unpaired rollout uses the task fields echoed on it`,
  ].join("\n");
}

/** `--role` in a command's help, its text at `column` (the roles themselves are described in FOLDER_HELP). */
export function roleHelp(column: number, where: "above" | "below" = "above"): string {
  const flag = "--role PATH=ROLE";
  const text = `a folder file's role (repeatable; see ${where})`;
  return flag.length + 2 < column
    ? `  ${flag.padEnd(column - 2)}${text}`
    : `  ${flag}\n${" ".repeat(column)}${text}`;
}

/** Input-file problems are listed on stderr up to this many; the rest are counted. */
const MAX_INPUT_WARNINGS = 10;

export async function loadInputIndex(
  path: string,
  io: CommandIo,
  index: InputIndex<unknown> = new InputIndex<unknown>(),
  /** How sentences name the file (a folder's relative path); default `path`. */
  name: string = path,
  /** Called with every parsed row (e.g. to recompute Gym's dataset metrics). */
  onRow?: (row: unknown) => void,
): Promise<InputIndex<unknown>> {
  const stream = await openFileStream(path);
  let problems = 0;
  const warn = async (message: string) => {
    problems++;
    if (problems <= MAX_INPUT_WARNINGS) await io.stderr.write(`warning: ${path}: ${message}\n`);
  };
  for await (const item of namingFile(path, readJsonl(stream))) {
    if (!item.ok) {
      await warn(`line ${item.line}: ${terminalText(item.error)}`);
      continue;
    }
    onRow?.(item.value);
    if (!index.add(item.value, item.value, { file: name, line: item.line })) {
      await warn(
        `line ${item.line}: neither (_ng_task_index, _ng_rollout_index) nor responses_create_params.input; it cannot be paired`,
      );
    }
  }
  if (problems > MAX_INPUT_WARNINGS) {
    await io.stderr.write(`warning: ${path}: ${problems - MAX_INPUT_WARNINGS} more rows cannot be paired\n`);
  }
  return index;
}

/**
 * Adds the task rows of a folder's rollouts file to its pairing index (after its task-row files, as the
 * page adds them); returns how many. Unreadable lines are left to the pass that reads the file.
 */
export async function addOwnTaskRows(
  path: string,
  name: string,
  index: InputIndex<unknown>,
): Promise<number> {
  let added = 0;
  try {
    for await (const item of readJsonl(await openFileStream(path))) {
      if (
        item.ok &&
        isTaskRowLine(item.value) &&
        index.add(item.value, item.value, { file: name, line: item.line })
      )
        added++;
    }
  } catch {
    // A damaged file stops here; reading it for the command reports the damage.
  }
  return added;
}
