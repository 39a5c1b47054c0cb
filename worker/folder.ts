/**
 * An opened folder in the browser: each file read for its role (lib/folder says how much of each file to
 * read, headToRead, and decides the role; this reads those bytes from the File, or from the server for a
 * folder `cli view` serves: the first ROLE_SNIFF_BYTES of JSONL, decompressed, or the whole YAML/JSON text,
 * as cli/folder.ts does from disk), the user's roles, lib's plan applied to the datasets read, and the
 * folder as the page shows it. A picked, a dropped and a served folder take this one path.
 */
import {
  chooseRole,
  compareMetrics,
  DatasetTally,
  datasetOf,
  type FileRole,
  type FolderFile,
  type FolderPlan,
  fileRole,
  type GymConfig,
  headToRead,
  MAX_WHOLE_FILE_BYTES,
  ROLE_SNIFF_BYTES,
  type RoleDecision,
  readGymMetrics,
  rowRewards,
  runMetrics,
} from "../lib/folder";
import { gunzipIfGzip, readJsonl, streamChunks } from "../lib/jsonl";
import type { FolderEntry, FolderSummary, GymMetricsView, Source } from "./protocol";
import type { Dataset } from "./store";

const decoder = new TextDecoder();

/** Where a folder file is read from, as a source (a served file is one the worker follows as it grows). */
export function entrySource(entry: FolderEntry): Source {
  return "file" in entry
    ? { kind: "file", file: entry.file }
    : { kind: "remote", url: entry.url, name: entry.path };
}

async function served(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, init);
  if (response.status === 416) return new Response(new Uint8Array());
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  return response;
}

/** The file's bytes from its start (a served file: one range request, cancelled once enough is read). */
async function entryStream(entry: FolderEntry): Promise<ReadableStream<Uint8Array>> {
  if ("file" in entry) return entry.file.stream();
  const response = await served(entry.url, { headers: { Range: "bytes=0-" } });
  return response.body ?? new Blob([]).stream();
}

async function entryText(entry: FolderEntry): Promise<string> {
  return "file" in entry ? entry.file.text() : (await served(entry.url)).text();
}

async function readStart(entry: FolderEntry): Promise<{ text: string; complete: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = true;
  try {
    for await (const chunk of gunzipIfGzip(streamChunks(await entryStream(entry)))) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ROLE_SNIFF_BYTES) {
        complete = false;
        break;
      }
    }
  } catch (error) {
    // A damaged gzip member still shows its first lines; reading the file reports the damage.
    if (chunks.length === 0) throw error;
  }
  const bytes = new Uint8Array(Math.min(size, ROLE_SNIFF_BYTES));
  let at = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.length, bytes.length - at);
    bytes.set(chunk.subarray(0, take), at);
    at += take;
    if (at >= bytes.length) break;
  }
  return { text: decoder.decode(bytes), complete };
}

/** One folder file as lib/folder reads it for its role; null head when it cannot be read as text. */
export async function folderHead(entry: FolderEntry): Promise<FolderFile> {
  const { path } = entry;
  const how = headToRead(path);
  try {
    if (how === "start") {
      const { text, complete } = await readStart(entry);
      return { path, head: text, complete };
    }
    if (how === "whole") {
      const size = "file" in entry ? entry.file.size : entry.bytes;
      if (size > MAX_WHOLE_FILE_BYTES) return { path, head: null, complete: false };
      return { path, head: await entryText(entry), complete: true };
    }
    return { path, head: "", complete: false };
  } catch {
    return { path, head: null, complete: false };
  }
}

/** The opened folder: its files, what was read of each for its role, the user's roles, and its plan. */
export interface OpenedFolder {
  readonly name: string;
  /** Where a served folder is on the machine serving it (`cli view`), else null. */
  readonly root: string | null;
  /** Files picked together and read as a folder (lib/folder readAsFolder). */
  readonly picked: boolean;
  readonly entries: readonly FolderEntry[];
  readonly heads: readonly FolderFile[];
  readonly overrides: ReadonlyMap<string, FileRole>;
  /** Its hidden entries (lib/folder hiddenEntries): never read, named in its summary. */
  readonly hidden: readonly string[];
  readonly plan: FolderPlan;
  /** The dataset each rollouts or task-rows file was read into, by path. */
  readonly datasets: ReadonlyMap<string, Dataset>;
}

/**
 * Whether a role the user chose for a file is a choice: the role its content gives it is none (no badge, no
 * --role in the page's command), whether chosen back on the page or restored with a folder read again.
 */
export function isRoleChoice(head: FolderFile, role: FileRole): boolean {
  return fileRole(head).role !== role;
}

/** Each file's role: from its content (lib/folder fileRole), unless the user chose another. */
export function decideRoles(
  heads: readonly FolderFile[],
  overrides: ReadonlyMap<string, FileRole>,
): RoleDecision[] {
  return heads.map((head) => {
    const decided = fileRole(head);
    const chosen = overrides.get(head.path);
    return chosen === undefined ? decided : chooseRole(decided, chosen, head);
  });
}

/** The parsed configs of the given config files (from their role decisions). */
export function configsOf(paths: readonly string[], decisions: readonly RoleDecision[]): GymConfig[] {
  return paths.flatMap((path) => decisions.find((d) => d.path === path)?.config ?? []);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, at) => item === b[at]);
}

/**
 * Gives each planned run's rollouts dataset its configs and task-rows datasets; returns the datasets whose
 * configs or task rows changed (their rewards are computed again).
 */
export function applyPlan(
  plan: FolderPlan,
  decisions: readonly RoleDecision[],
  datasets: ReadonlyMap<string, Dataset>,
): Dataset[] {
  const changed: Dataset[] = [];
  for (const planned of plan.runs) {
    const dataset = datasets.get(planned.rollouts);
    if (dataset === undefined) continue;
    const inputFiles = planned.inputs.filter((path) => datasets.has(path));
    const inputs = inputFiles.flatMap((path) => datasets.get(path)?.id ?? []);
    if (!sameList(dataset.configFiles, planned.configs) || !sameList(dataset.planInputs ?? [], inputs))
      changed.push(dataset);
    dataset.configs = configsOf(planned.configs, decisions);
    dataset.configFiles = planned.configs;
    dataset.planInputs = inputs;
    dataset.inputFiles = inputFiles;
  }
  return changed;
}

/** The folder `cli view` serves (its files read from the server), not one picked in this tab. */
export function isServed(folder: Pick<OpenedFolder, "entries">): boolean {
  return folder.entries.some((entry) => "url" in entry);
}

/** A folder entry's size and last modification as read (a picked file's from its File). */
function entryStamp(entry: FolderEntry | undefined): { bytes: number; modified: number | null } {
  if (entry === undefined) return { bytes: 0, modified: null };
  return "file" in entry
    ? { bytes: entry.file.size, modified: entry.file.lastModified }
    : { bytes: entry.bytes, modified: entry.modified ?? null };
}

export function folderSummary(folder: OpenedFolder): FolderSummary {
  const id = (path: string) => folder.datasets.get(path)?.id ?? null;
  const head = (path: string) => folder.heads.find((h) => h.path === path)?.head ?? null;
  const byPath = new Map(folder.entries.map((entry) => [entry.path, entry]));
  return {
    name: folder.name,
    picked: folder.picked,
    served: isServed(folder),
    path: folder.root,
    hidden: folder.hidden,
    files: folder.plan.decisions.map((d) => ({
      path: d.path,
      role: d.role,
      reason: d.reason,
      chosen: d.chosen,
      dataset: id(d.path),
      ...entryStamp(byPath.get(d.path)),
    })),
    runs: folder.plan.runs.map((planned) => ({
      rollouts: planned.rollouts,
      dataset: id(planned.rollouts),
      configs: planned.configs,
      inputs: planned.inputs,
      servers: planned.routes.servers,
      metrics: planned.metrics.flatMap((path) => {
        const text = head(path);
        const read = text === null ? null : readGymMetrics(text);
        return read?.ok ? [{ path, metrics: read.metrics }] : [];
      }),
    })),
  };
}

/** Gym's dataset figures recomputed from a task-rows dataset: every row that parses, as `cli verify DIR` reads them. */
async function tallyOf(dataset: Dataset): Promise<DatasetTally> {
  const tally = new DatasetTally();
  for await (const item of readJsonl(dataset.blob().stream(), { gzip: false }))
    if (item.ok) tally.row(item.value);
  return tally;
}

/**
 * Gym's numbers of a rollouts file's metrics files beside ours, each difference named: lib/folder
 * compareMetrics, what `cli verify DIR` prints. Ours come from the task rows the plan pairs it with and the
 * rollouts' recorded and recomputed (contract) rewards, so it is asked for once every reward is in.
 */
export async function metricsViews(folder: OpenedFolder, rollouts: Dataset): Promise<GymMetricsView[]> {
  const run = folder.plan.runs.find((planned) => folder.datasets.get(planned.rollouts) === rollouts);
  if (run === undefined) return [];
  const lines = [...rollouts.entries.values()].map(rowRewards);
  const views: GymMetricsView[] = [];
  for (const { path, metrics } of runMetrics(folder.plan, run)) {
    const dataset = datasetOf(metrics, run.inputs);
    const rows = dataset === null ? undefined : folder.datasets.get(dataset);
    const tally = rows?.kind === "inputs" ? await tallyOf(rows) : null;
    views.push({ path, metrics, report: compareMetrics({ metrics, tally, dataset }, lines) });
  }
  return views;
}
