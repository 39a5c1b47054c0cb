/**
 * A directory given where a command takes FILE: the CLI walks it (Node only), hands every file's start to
 * lib/folder for its role, prints each role and its reason on stderr, and returns lib's plan: per rollouts
 * file, the configs that route its lines and the task rows it pairs against. `--role PATH=ROLE` overrides
 * one file's role (PATH relative to the directory).
 */
import { createReadStream } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { createGunzip } from "node:zlib";
import {
  type AgentRewards,
  chooseRole,
  compareMetrics,
  DatasetTally,
  datasetOf,
  FILE_ROLE_LABEL,
  FILE_ROLES,
  type FileRole,
  type FolderFile,
  type FolderPlan,
  fileRole,
  headToRead,
  hiddenEntries,
  hiddenText,
  MAX_WHOLE_FILE_BYTES,
  type MetricsSource,
  metricsSummaryLine,
  planFolder,
  ROLE_SNIFF_BYTES,
  type RoleDecision,
  readFileRole,
  runMetrics,
} from "../lib/folder";
import { type ConfigRouter, InputIndex, type LineSource } from "../lib/verify";
import { CliError, reasonOf } from "./errors";
import { addOwnTaskRows, loadInputIndex } from "./inputs";
import type { CommandIo } from "./io";
import { terminalText } from "./terminal";

export interface RoleOverride {
  readonly path: string;
  readonly role: FileRole;
}

export interface OpenedFolder {
  readonly root: string;
  readonly plan: FolderPlan;
  /** Its hidden entries, never read (lib/folder hiddenEntries). */
  readonly hidden: readonly string[];
  /** Absolute path of a file given relative to the folder. */
  absolute(path: string): string;
}

/** `--role PATH=ROLE` values, or the first one that is not usable. */
export function readRoleOverrides(
  values: readonly string[],
): { ok: true; overrides: RoleOverride[] } | { ok: false; error: string } {
  const overrides: RoleOverride[] = [];
  for (const value of values) {
    const eq = value.lastIndexOf("=");
    const path = eq < 0 ? "" : value.slice(0, eq);
    const role = eq < 0 ? "" : value.slice(eq + 1);
    const known = readFileRole(role);
    if (path === "" || known === null) {
      return {
        ok: false,
        error: `--role must be PATH=ROLE with ROLE one of ${FILE_ROLES.join(", ")}, not ${JSON.stringify(value)}`,
      };
    }
    overrides.push({ path: path.split(sep).join("/").replace(/^\.\//, ""), role: known });
  }
  return { ok: true, overrides };
}

/** True when `path` is a directory (a missing path is not: the file commands report it as before). */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Every regular file under `root`, sorted by name (hidden entries and symlinks are left out; `hidden`, when
 * given, collects each hidden entry's path from `root`, a folder's with "/", not read: lib/folder hiddenEntries
 * names them as the page does).
 */
export async function walk(root: string, hidden?: string[]): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      // Hidden entries (.git, editor state) are never part of a run; they are named, not read.
      if (entry.name.startsWith(".")) {
        hidden?.push(relative(root, full).split(sep).join("/") + (entry.isDirectory() ? "/" : ""));
        continue;
      }
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) found.push(full);
    }
  };
  await visit(root);
  return found;
}

async function readStart(path: string, gzip: boolean): Promise<{ text: string; complete: boolean }> {
  const source = createReadStream(path);
  const stream = gzip ? source.pipe(createGunzip()) : source;
  const chunks: Buffer[] = [];
  let size = 0;
  let complete = true;
  try {
    for await (const chunk of stream) {
      const buffer: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      chunks.push(buffer);
      size += buffer.length;
      if (size >= ROLE_SNIFF_BYTES) {
        complete = false;
        break;
      }
    }
  } catch (error) {
    // A damaged gzip member still shows its first lines; the command reading the file reports the damage.
    if (chunks.length === 0) throw error;
  } finally {
    source.destroy();
  }
  return { text: Buffer.concat(chunks).subarray(0, ROLE_SNIFF_BYTES).toString("utf8"), complete };
}

/** A file's path relative to `root` and its start, as lib/folder's fileRole reads it. */
export async function folderFile(root: string, full: string): Promise<FolderFile> {
  const path = relative(root, full).split(sep).join("/");
  const how = headToRead(path);
  try {
    if (how === "start") {
      const { text, complete } = await readStart(full, path.toLowerCase().endsWith(".gz"));
      return { path, head: text, complete };
    }
    if (how === "whole") {
      const handle = await open(full, "r");
      try {
        const size = (await handle.stat()).size;
        if (size > MAX_WHOLE_FILE_BYTES) return { path, head: null, complete: false };
        return { path, head: (await handle.readFile()).toString("utf8"), complete: true };
      } finally {
        await handle.close();
      }
    }
    return { path, head: "", complete: false };
  } catch {
    return { path, head: null, complete: false };
  }
}

/** Walks `root`, decides every file's role (overrides applied) and prints each on stderr. */
export async function openFolder(
  root: string,
  overrides: readonly RoleOverride[],
  io: CommandIo,
): Promise<OpenedFolder> {
  let paths: string[];
  const hidden: string[] = [];
  try {
    paths = await walk(root, hidden);
  } catch (error) {
    throw new CliError("usage", `cannot read ${root}: ${reasonOf(error)}`, { cause: error });
  }
  const files = await Promise.all(paths.map((p) => folderFile(root, p)));
  const known = new Set(files.map((f) => f.path));
  const unknown = overrides.find((o) => !known.has(o.path));
  if (unknown !== undefined) {
    throw new CliError("usage", `--role names ${unknown.path}, which is not a file in ${root}`);
  }
  const decisions: RoleDecision[] = files.map((file) => {
    const decided = fileRole(file);
    const chosen = overrides.find((o) => o.path === file.path);
    return chosen === undefined ? decided : chooseRole(decided, chosen.role, file);
  });
  for (const d of decisions) {
    await io.stderr.write(
      `${terminalText(d.path)}: ${FILE_ROLE_LABEL[d.role]}${d.chosen ? " (chosen)" : ""}: ${terminalText(d.reason)}\n`,
    );
  }
  const entries = hiddenEntries(hidden);
  const left = hiddenText(entries);
  if (left !== null) await io.stderr.write(`${terminalText(root)}: ${terminalText(left)}\n`);
  const plan = planFolder(decisions);
  if (plan.runs.length === 0) await io.stderr.write(`${terminalText(root)}: no file holds rollouts\n`);
  return { root, plan, hidden: entries, absolute: (path) => join(root, ...path.split("/")) };
}

/** One rollouts file a command reads, with what goes with it (a folder's configs and task rows, or --inputs). */
export interface Source {
  /** Path to read. */
  readonly path: string;
  /** `"file"` of each JSON line (relative to the folder), null for a single FILE. */
  readonly file: string | null;
  readonly inputRows: InputIndex<unknown> | null;
  readonly config: ConfigRouter | null;
  /** The config files that route it, as paths from the working directory (for `ng_run`). */
  readonly configs: readonly string[];
  /** The task-row files it is paired from, as paths from the working directory (for `cli live --inputs`). */
  readonly inputs: readonly string[];
  /** Gym's metrics files beside it, with the task rows their dataset figures are recomputed from. */
  readonly metrics: readonly SourceMetrics[];
}

export interface SourceMetrics extends MetricsSource {
  /** Relative to the folder. */
  readonly path: string;
}

/** Gym's numbers beside ours for one source, one line each (`lines`: its agents' recorded and recomputed rewards). */
export function metricsLines(source: Source, lines: readonly AgentRewards[]): string[] {
  return source.metrics.map((m) => `${terminalText(metricsSummaryLine(m.path, compareMetrics(m, lines)))}\n`);
}

/**
 * What an unverified line's next steps name (lib/verify LineSource): a folder's rollouts file and the configs
 * that start its server (`ng_run`), as the page's rows and `cli verify` name them. A single FILE's rows say
 * FILE, so its `triage --format csv` stays the page's export byte for byte.
 */
export function lineSource(source: Source): { source?: LineSource } {
  return source.file === null
    ? {}
    : { source: { rollouts: source.path, configs: source.configs, inputs: source.inputs } };
}

/** The `file`/`line` position fields of a JSON line from `source`. */
export function lineAt(source: Source, line: number): { file?: string; line: number } {
  return source.file === null ? { line } : { file: source.file, line };
}

/**
 * What FILE stands for: itself (with --inputs, if given), or, for a directory, each of its rollouts files
 * with the configs that route it and its task rows (plus --inputs). Throws CliError for unusable paths.
 */
export async function sourcesOf(
  file: string,
  args: { readonly roles: readonly RoleOverride[]; readonly inputs?: string | null },
  io: CommandIo,
): Promise<Source[]> {
  return (await openSources(file, args, io)).sources;
}

/** sourcesOf's sources, and the folder they were planned from (null for a FILE). */
export async function openSources(
  file: string,
  args: { readonly roles: readonly RoleOverride[]; readonly inputs?: string | null },
  io: CommandIo,
): Promise<{ sources: Source[]; folder: OpenedFolder | null }> {
  const inputs = args.inputs ?? null;
  if (!(await isDirectory(file))) {
    const inputRows = inputs === null ? null : await loadInputIndex(inputs, io);
    return {
      sources: [
        {
          path: file,
          file: null,
          inputRows,
          config: null,
          configs: [],
          inputs: inputs === null ? [] : [inputs],
          metrics: [],
        },
      ],
      folder: null,
    };
  }
  const folder = await openFolder(file, args.roles, io);
  const sources: Source[] = [];
  for (const run of folder.plan.runs) {
    const metrics = runMetrics(folder.plan, run).map((m) => {
      const dataset = datasetOf(m.metrics, run.inputs);
      return { ...m, dataset, tally: dataset === null ? null : new DatasetTally() };
    });
    const named = [
      ...run.inputs.map((p) => [folder.absolute(p), p] as const),
      ...(inputs === null ? [] : [[inputs, inputs] as const]),
    ];
    const index = new InputIndex<unknown>();
    for (const [path, name] of named) {
      const tallies = metrics
        .filter((m) => m.dataset === name)
        .flatMap((m) => (m.tally === null ? [] : [m.tally]));
      await loadInputIndex(path, io, index, name, (row) => {
        for (const t of tallies) t.row(row);
      });
    }
    // Task rows inside the rollouts file pair too, after the task-row files.
    const own = await addOwnTaskRows(folder.absolute(run.rollouts), run.rollouts, index);
    sources.push({
      path: folder.absolute(run.rollouts),
      file: run.rollouts,
      inputRows: named.length > 0 || own > 0 ? index : null,
      // Always the folder's routes: with no config beside the file, the line says so.
      config: run.routes,
      configs: run.configs.map(folder.absolute),
      inputs: named.map(([path]) => path),
      metrics,
    });
  }
  return { sources, folder };
}

/** The help paragraph of every command that takes a folder (resolve, verify, triage, export). */
export const FOLDER_HELP = `FILE may be a directory (a Gym run or example folder): every file gets a role, printed with its reason
on stderr (rollouts, task rows, Gym config, Gym metrics, not recognised); each rollouts file is read
with the configs and task rows under its nearest folder that holds any, its lines routed to their
verifying server by the configs as gym eval reverify routes them (agent_ref.name -> the agent's
resources_server -> that instance's server), and each JSON line carries "file" (relative to the
directory) beside "line". --role PATH=ROLE (repeatable; ROLE one of ${FILE_ROLES.join(", ")}) overrides
the role of one file, PATH relative to the directory.
`;
