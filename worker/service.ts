/**
 * The data service behind every page: the one object the request handlers call. It wires the parts and
 * runs each request across them; the decisions live in the parts:
 * - ./workspace.ts: the file store, which files are open, the session events;
 * - ./sources.ts: reading a source into the store (and following it as it grows);
 * - ./persistence.ts: kept files and kept results across reloads;
 * - ./pairing.ts: which task-rows file each rollouts file is verified with;
 * - ./folder.ts: an opened folder's roles and plan;
 * - ./rewards-scheduler.ts and ./search-scheduler.ts: the jobs sent to the pool;
 * - ./detail.ts: one opened rollout.
 * Free of worker plumbing (the pool, the kept files and the results store are passed in), so it runs in
 * Node tests with an in-process pool.
 */

import {
  comparePaths,
  type FileRole,
  type FolderFile,
  type GymConfig,
  hiddenEntries,
  isHiddenPath,
  planFolder,
  readAsFolder,
} from "../lib/folder";
import { type HarnessChoice, sameChoice } from "../lib/harness";
import type { LineOptions } from "../lib/live";
import { type OpenedDetail, servers } from "./core";
import { readDetail, readLineOptions, verifyInPool } from "./detail";
import {
  applyPlan,
  configsOf,
  decideRoles,
  entrySource,
  folderHead,
  isRoleChoice,
  metricsViews,
  type OpenedFolder,
} from "./folder";
import { countPaired, Pairing } from "./pairing";
import { Keeper, type KeptFiles } from "./persistence";
import type { Pool } from "./pool";
import type {
  FolderEntry,
  GymMetricsView,
  LineError,
  LoadProgress,
  RecentFile,
  RolloutIndexEntry,
  SessionSummary,
  Source,
  VerifiedDetail,
} from "./protocol";
import type { ResultsStore } from "./results-cache";
import { RewardsScheduler, resetRewards } from "./rewards-scheduler";
import { defaultSearchLimits, type SearchLimits, SharedSearches, searchDataset } from "./search-scheduler";
import { Sources } from "./sources";
import { cancelled, type Dataset, newDatasetId } from "./store";
import { openAfterLoad, PROGRESS_EVENT_MS, SESSION_EVENT_MS, Workspace } from "./workspace";

type Progress = (progress: LoadProgress) => void;

/**
 * Rows one `changes` answer carries at most: the page deserializes an answer in one task, and 4,842 rows
 * took 28 ms of a task with the main thread throttled 2x (about 6 µs a row at 1x); a page of 1,000 keeps
 * that near 6 ms, and a file's first index or a second of landing rewards comes in a few answers.
 */
export const CHANGES_PAGE_ROWS = 1000;

/**
 * Local files picked together that lib/folder reads as a folder (a Gym config or metrics file beside a
 * rollouts file): the folder's entries, each at its file's name, and the folder's name; else null.
 */
async function pickedTogether(
  sources: readonly Source[],
): Promise<{ name: string; entries: FolderEntry[]; heads: FolderFile[] } | null> {
  const entries: FolderEntry[] = [];
  for (const source of sources) {
    if (source.kind !== "file") return null;
    entries.push({ path: source.file.name, file: source.file });
  }
  if (entries.length < 2) return null;
  const heads = await Promise.all(entries.map(folderHead));
  if (!readAsFolder(heads)) return null;
  return { name: `${entries.length} files picked together`, entries, heads };
}

/** Position of the first of `lines` (sorted) above `after`. */
function firstAfter(lines: readonly number[], after: number): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((lines[mid] ?? 0) <= after) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Files up to this size are kept for a reload as soon as they are read (~0.2 s of a core to copy); larger ones
 * once their rewards are in: 300 MB took ~2 s of a core, beside the rewards pass (bench/profile-rewards.md).
 */
export const KEEP_AT_ONCE_BYTES = 32 * 1024 * 1024;

/** One source a load opens: its dataset id, and whether it is a kept file reopened (its results restored first). */
interface LoadSource {
  readonly source: Source;
  readonly id: string;
  readonly fallbackServer: string | null;
  readonly restored: boolean;
}

export class DataService {
  private readonly workspace: Workspace;
  private readonly sources: Sources;
  private readonly keeper: Keeper;
  private readonly pairing: Pairing;
  private readonly rewards: RewardsScheduler;
  /** Bytes per search job, and most bytes read between two candidate lines (tests use small ones). */
  readonly searchLimits: SearchLimits = defaultSearchLimits();
  private readonly searches = new SharedSearches(
    (dataset, text, signal, progress) =>
      searchDataset(dataset, text, this.pool, this.searchLimits, signal, progress),
    // Search filters waited for the searches (below): they go on.
    () => this.rewards.pump(),
  );
  private readonly reopening = new Map<string, Promise<Dataset | undefined>>();
  /** Files up to this size are kept for a reload at once, larger ones after their rewards (tests change it). */
  keepAtOnceBytes = KEEP_AT_ONCE_BYTES;

  constructor(
    private readonly pool: Pool,
    emit: (session: SessionSummary) => void = () => {},
    files: KeptFiles | null = null,
    batchBytes?: number,
    results: ResultsStore | null = null,
    /** How often served files are polled (worker/follow.ts FOLLOW_POLL_MS unless a benchmark says). */
    followPollMs?: number,
  ) {
    const workspace = new Workspace(emit);
    this.workspace = workspace;
    this.keeper = new Keeper(files, results, () => this.searches.whenIdle());
    this.rewards = new RewardsScheduler(pool, {
      datasets: () => workspace.datasets(),
      isOpen: (dataset) => workspace.store.has(dataset.id),
      done: (dataset) => {
        dataset.pairedRows = countPaired(dataset);
        // Keeping results hashes the whole file: after its search filters, not beside them and a search.
        void this.rewards.quiet().then(() => this.keeper.keepResults(dataset));
      },
      changed: (finished) => workspace.changed(finished ? SESSION_EVENT_MS : PROGRESS_EVENT_MS),
      // A search reads the lines it has no filter for whole: building filters beside it only slows it.
      filtersWait: () => this.searches.busy(),
    });
    this.sources = new Sources(
      pool,
      {
        store: workspace.store,
        changed: (more) => workspace.changed(more ? PROGRESS_EVENT_MS : SESSION_EVENT_MS),
        appended: () => this.rewards.pump(),
      },
      batchBytes,
      followPollMs,
    );
    this.pairing = new Pairing(pool, (id) => workspace.get(id));
  }

  /** Every dataset read, by id (the compare page's pickers list them all). */
  get store(): ReadonlyMap<string, Dataset> {
    return this.workspace.store;
  }

  get(id: string): Dataset | undefined {
    return this.workspace.get(id);
  }

  session(): SessionSummary {
    return this.workspace.session();
  }

  /** Resolves once every workspace row has its rewards (nothing pending, nothing in flight). */
  settled(): Promise<void> {
    return this.rewards.settled();
  }

  /**
   * Opens sources into the store and makes them the workspace (./workspace.ts openAfterLoad says which
   * files stay open; the files stay in the store, for /compare). A cancelled load changes nothing.
   */
  async load(
    sources: readonly Source[],
    fallbackServer: string | null,
    signal: AbortSignal,
    progress: Progress,
  ): Promise<SessionSummary> {
    this.workspace.folder = null;
    // A local file picked again that is an open file grown: its new lines join that file instead.
    const fresh: Source[] = [];
    let grew = false;
    for (const source of sources) {
      if (await this.sources.appendGrown(source, this.workspace.datasets(), signal)) grew = true;
      else fresh.push(source);
    }
    if (grew && fresh.length === 0) return this.workspace.flush();
    const together = await pickedTogether(fresh);
    if (together !== null) {
      const { name, entries, heads } = together;
      return this.loadFolder(name, entries, signal, progress, heads);
    }
    const opened = await this.openAll(
      fresh.map((source) => ({ source, id: newDatasetId(), fallbackServer, restored: false })),
      signal,
      progress,
    );
    this.keepCopies(opened);
    return this.workspace.flush();
  }

  /**
   * Keeps a copy of each opened file for a reload. The copy is the browser writing the whole file again: a
   * large file's waits for the rewards instead of taking seconds of a core from them; a small one's is kept at
   * once, so a reload right after its rewards finds it (a large file reloaded before its rewards are in is not
   * kept: it is dropped again).
   */
  private keepCopies(opened: readonly Dataset[]): void {
    const large = opened.filter((dataset) => dataset.bytes > this.keepAtOnceBytes);
    for (const dataset of opened) if (dataset.bytes <= this.keepAtOnceBytes) void this.keeper.save(dataset);
    if (large.length === 0) return;
    void this.rewards.quiet().then(async () => {
      for (const dataset of large) await this.keeper.save(dataset);
    });
  }

  /** Reopens files kept from an earlier visit, by id (ids that are gone are skipped). */
  async restore(ids: readonly string[], signal: AbortSignal, progress: Progress): Promise<SessionSummary> {
    this.workspace.folder = null;
    const sources: LoadSource[] = [];
    for (const id of ids) {
      if (this.workspace.store.has(id)) continue;
      const kept = await this.keeper.open(id);
      // The file comes back with the server it was loaded with, so its rewards are those before the reload.
      if (kept) {
        const file = new File([kept.blob], kept.name);
        sources.push({
          id,
          source: { kind: "file", file },
          fallbackServer: kept.fallbackServer,
          restored: true,
        });
      }
    }
    const present = ids.filter((id) => this.workspace.store.has(id));
    if (sources.length > 0) await this.openAll(sources, signal, progress);
    if (present.length > 0 && sources.length === 0) {
      this.workspace.setOpen(present);
      await this.pair();
    }
    return this.workspace.flush();
  }

  /**
   * Opens a folder as the workspace: every file gets its role from its content (lib/folder fileRole), the
   * rollouts and task-rows files are read, and each rollouts file is verified with the configs and task
   * rows lib's plan gives it. Folder files are not kept for a reload (their roles and plan would be lost).
   */
  async loadFolder(
    name: string,
    entries: readonly FolderEntry[],
    signal: AbortSignal,
    progress: Progress,
    /** The entries are files picked together (lib/folder readAsFolder), not a directory's: their heads, read. */
    picked: readonly FolderFile[] | null = null,
    /** Roles chosen before (setRole), by path: a path the folder no longer has is dropped. */
    roles: Readonly<Record<string, FileRole>> = {},
    /** Where a served folder is on the machine serving it (`cli view`). */
    root: string | null = null,
  ): Promise<SessionSummary> {
    // In the order cli triage DIR walks them: the files' table, the chips and the file shown first follow it.
    const visible = entries
      .filter((entry) => !isHiddenPath(entry.path))
      .sort((a, b) => comparePaths(a.path, b.path));
    const read = new Map((picked ?? []).map((head) => [head.path, head]));
    const heads = await Promise.all(visible.map((entry) => read.get(entry.path) ?? folderHead(entry)));
    const hidden = hiddenEntries(entries.map((entry) => entry.path));
    const overrides = new Map(
      Object.entries(roles).filter(([path, role]) => {
        const head = heads.find((h) => h.path === path);
        return head !== undefined && isRoleChoice(head, role);
      }),
    );
    return this.openFolder(
      { name, root, picked: picked !== null, entries: visible, heads, overrides, hidden },
      new Map(),
      signal,
      progress,
    );
  }

  /** The user changed a folder file's role: the folder is planned again (pairing and routing follow). */
  async setRole(
    path: string,
    role: FileRole,
    signal: AbortSignal,
    progress: Progress,
  ): Promise<SessionSummary> {
    const folder = this.workspace.folder;
    const head = folder?.heads.find((h) => h.path === path);
    if (folder === null || head === undefined) return this.session();
    const overrides = new Map(folder.overrides);
    if (isRoleChoice(head, role)) overrides.set(path, role);
    else overrides.delete(path);
    return this.openFolder({ ...folder, overrides }, folder.datasets, signal, progress);
  }

  /** Decides the roles, reads what is not read yet (a dataset whose role is unchanged is kept), plans. */
  private async openFolder(
    folder: Omit<OpenedFolder, "plan" | "datasets">,
    previous: ReadonlyMap<string, Dataset>,
    signal: AbortSignal,
    progress: Progress,
  ): Promise<SessionSummary> {
    const decisions = decideRoles(folder.heads, folder.overrides);
    const plan = planFolder(decisions);
    const byPath = new Map(folder.entries.map((entry) => [entry.path, entry]));
    const datasets = new Map<string, Dataset>();
    this.workspace.beginLoad();
    try {
      for (const decision of decisions) {
        if (decision.role !== "rollouts" && decision.role !== "inputs") continue;
        const kept = previous.get(decision.path);
        if (kept !== undefined && kept.role === decision.role && this.workspace.store.has(kept.id)) {
          datasets.set(decision.path, kept);
          continue;
        }
        const entry = byPath.get(decision.path);
        if (entry === undefined) continue;
        const planned = plan.runs.find((r) => r.rollouts === decision.path);
        const options = {
          id: newDatasetId(),
          fallbackServer: null,
          shownName: decision.path,
          added: (added: Dataset) => {
            // Before the first batch: the index pass chooses servers with the folder's configs.
            added.folderPath = decision.path;
            added.folderName = folder.name;
            added.folderRoot = folder.root;
            added.role = decision.role === "inputs" ? "inputs" : "rollouts";
            added.configs = configsOf(planned?.configs ?? [], decisions);
            this.workspace.loadOpened(added);
          },
        };
        datasets.set(decision.path, await this.sources.read(entrySource(entry), options, signal, progress));
      }
    } catch (error) {
      for (const [path, dataset] of datasets)
        if (previous.get(path) !== dataset) this.workspace.store.delete(dataset.id);
      this.workspace.endLoad();
      this.workspace.flush();
      throw signal.aborted ? cancelled() : error;
    }
    this.workspace.endLoad();
    for (const dataset of applyPlan(plan, decisions, datasets)) if (dataset.indexed) resetRewards(dataset);
    this.workspace.folder = { ...folder, plan, datasets };
    this.workspace.setOpen([...datasets.values()].map((dataset) => dataset.id));
    await this.pair();
    return this.workspace.flush();
  }

  /** Reads the sources into the store and opens them (a failed or cancelled load removes what it read). */
  private async openAll(
    sources: readonly LoadSource[],
    signal: AbortSignal,
    progress: Progress,
  ): Promise<Dataset[]> {
    this.workspace.beginLoad();
    const opened: Dataset[] = [];
    try {
      for (const { source, id, fallbackServer, restored } of sources) {
        await this.sources.read(
          source,
          {
            id,
            fallbackServer,
            added: (added) => {
              this.workspace.loadOpened(added);
              opened.push(added);
            },
            ...(restored ? { afterRead: (dataset: Dataset) => this.keeper.restoreResults(dataset) } : {}),
          },
          signal,
          progress,
        );
      }
    } catch (error) {
      for (const dataset of opened) this.workspace.store.delete(dataset.id);
      this.workspace.endLoad();
      this.workspace.flush();
      throw signal.aborted ? cancelled() : error;
    }
    const previous = this.workspace.endLoad();
    this.workspace.setOpen(openAfterLoad(previous, opened).map((dataset) => dataset.id));
    await this.pair();
    return opened;
  }

  /** Pairs the open files, then computes the rewards that pairing left pending. */
  private async pair(): Promise<void> {
    await this.pairing.pairAll(() => this.workspace.datasets());
    this.rewards.pump();
    this.workspace.changed();
  }

  /**
   * Reopens a kept file into the store only, by id, with the server it was loaded with (a /compare link
   * after a reload); undefined when nothing is kept under that id. The workspace stays as it is.
   */
  reopen(id: string, signal: AbortSignal): Promise<Dataset | undefined> {
    const known = this.workspace.get(id);
    if (known) return Promise.resolve(known);
    let pending = this.reopening.get(id);
    if (!pending) {
      pending = (async () => {
        const kept = await this.keeper.open(id);
        if (!kept) return undefined;
        const file = new File([kept.blob], kept.name);
        const dataset = await this.sources.read(
          { kind: "file", file },
          {
            id,
            fallbackServer: kept.fallbackServer,
            afterRead: (read) => this.keeper.restoreResults(read),
          },
          signal,
          () => {},
        );
        this.workspace.changed();
        return dataset;
      })().finally(() => this.reopening.delete(id));
      this.reopening.set(id, pending);
    }
    return pending;
  }

  /** Opens a file into the store only (the compare page's pickers); the workspace stays as it is. */
  async add(source: Source, signal: AbortSignal): Promise<Dataset> {
    const dataset = await this.sources.read(
      source,
      { id: newDatasetId(), fallbackServer: null },
      signal,
      () => {},
    );
    void this.keeper.save(dataset);
    this.workspace.changed();
    return dataset;
  }

  recent(): Promise<RecentFile[]> {
    return this.keeper.recent();
  }

  /** A dataset's (decompressed) bytes, its name and its config files: what /live replays. */
  fileOf(
    id: string,
  ): { name: string; file: Blob; configs: readonly string[]; gymConfigs: readonly GymConfig[] } | null {
    const dataset = this.workspace.get(id);
    if (!dataset) return null;
    return {
      name: dataset.folderPath ?? dataset.name,
      file: dataset.blob(),
      configs: dataset.configFiles.map((path) => dataset.commandPath(path)),
      gymConfigs: dataset.configs ?? [],
    };
  }

  /** How the inspector verifies one line (worker/detail readLineOptions); null for no rollouts line. */
  lineOptions(id: string, line: number): Promise<LineOptions | null> {
    const dataset = this.workspace.get(id);
    return dataset?.kind === "rollouts" ? readLineOptions(dataset, line) : Promise.resolve(null);
  }

  reanalyze(id: string, server: string | null, harness: HarnessChoice): SessionSummary {
    const dataset = this.workspace.get(id);
    if (dataset?.kind !== "rollouts") return this.session();
    if (dataset.serverOverride === server && sameChoice(dataset.harness, harness)) return this.session();
    dataset.serverOverride = server;
    dataset.harness = harness;
    resetRewards(dataset);
    this.rewards.pump();
    return this.workspace.flush();
  }

  prioritize(id: string, lines: readonly number[]): void {
    this.rewards.prioritize(id, lines);
  }

  /** Gym's numbers of an opened folder's rollouts file beside ours (./folder.ts metricsViews); [] otherwise. */
  gymMetrics(id: string): Promise<GymMetricsView[]> {
    const folder = this.workspace.folder;
    const dataset = this.workspace.get(id);
    if (folder === null || dataset?.kind !== "rollouts") return Promise.resolve([]);
    return metricsViews(folder, dataset);
  }

  /** Unreadable lines [start, end) of a dataset, in line order, and how many there are. */
  lineErrors(id: string, start: number, end: number): { errors: LineError[]; total: number } {
    const errors = this.workspace.get(id)?.errors() ?? [];
    return { errors: errors.slice(start, end), total: errors.length };
  }

  /**
   * Rows changed after `since`, from the line after `after` on, at most `limit` of them; the caller merges
   * them into what it has and asks again from `next` until it is null.
   */
  changes(
    id: string,
    since: number,
    after = 0,
    limit = Number.POSITIVE_INFINITY,
  ): { entries: RolloutIndexEntry[]; revision: number; next: number | null } {
    const dataset = this.workspace.get(id);
    if (!dataset) return { entries: [], revision: 0, next: null };
    const entries: RolloutIndexEntry[] = [];
    const lines = dataset.lines();
    for (let at = firstAfter(lines, after); at < lines.length; at++) {
      const line = lines[at] ?? 0;
      if (since !== 0 && (dataset.entryRevision.get(line) ?? 0) <= since) continue;
      const entry = dataset.entries.get(line);
      if (!entry) continue;
      if (entries.length === limit) return { entries, revision: dataset.revision, next: lines[at - 1] ?? 0 };
      entries.push(entry);
    }
    return { entries, revision: dataset.revision, next: null };
  }

  detail(
    id: string,
    line: number,
    server: string | null,
    harness: HarnessChoice | null,
  ): Promise<OpenedDetail | null> {
    const dataset = this.workspace.get(id);
    return dataset ? readDetail(dataset, line, server, harness) : Promise.resolve(null);
  }

  /** Both verifications of one rollout, in the pool (same server and harness rules as `detail`). */
  detailVerification(
    id: string,
    line: number,
    server: string | null,
    harness: HarnessChoice | null,
  ): Promise<VerifiedDetail | null> {
    const dataset = this.workspace.get(id);
    return dataset ? verifyInPool(this.pool, dataset, line, server, harness) : Promise.resolve(null);
  }

  raw(id: string, line: number): Promise<Uint8Array | null> {
    return this.workspace.get(id)?.readLine(line) ?? Promise.resolve(null);
  }

  /** Rollout lines whose raw text contains `text` (./search-scheduler.ts). */
  async search(
    id: string,
    text: string,
    signal: AbortSignal,
    progress: (partial: { lines: number[] }) => void,
  ): Promise<{ lines: number[] }> {
    const dataset = this.workspace.get(id);
    if (!dataset) return { lines: [] };
    // The list and the run view ask for the same text at once: one pool search answers both.
    return this.searches.search(dataset, text, signal, progress);
  }

  servers(): string[] {
    return servers();
  }
}
