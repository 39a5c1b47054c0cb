/**
 * The data service behind both pages: the file store, the inspector's workspace (its open files), the
 * rewards scheduler and the inspector's requests. Free of worker plumbing (the pool and the persistence
 * are passed in), so it runs in Node tests with an in-process pool.
 */

import { fileProblem, SNIFF_BYTES } from "../lib/filekind";
import {
  chooseRole,
  type FileRole,
  type FolderFile,
  type FolderPlan,
  fileRole,
  isHiddenPath,
  planFolder,
  type RoleDecision,
  readGymMetrics,
} from "../lib/folder";
import { parseJsonLine } from "../lib/jsonl";
import { type OpenedDetail, openDetail, servers } from "./core";
import { folderHead } from "./folder";
import {
  FOLLOW_CHECK_BYTES,
  FOLLOW_POLL_MS,
  type FollowState,
  followState,
  pollOnce,
  rangeTotal,
  sameBytes,
} from "./follow";
import type {
  IndexedBatch,
  IndexJob,
  InputsJob,
  LineRef,
  RewardedLine,
  RewardJob,
  SearchJob,
  VerifyDetailJob,
} from "./jobs";
import {
  indexBatch,
  inputIndex,
  prepareInputs,
  rewardBatch,
  rolloutOf,
  rowContext,
  searchRange,
  verifyDetail,
} from "./jobs";
import type {
  DatasetSummary,
  FolderEntry,
  FolderSummary,
  HarnessId,
  LineError,
  LoadProgress,
  RecentFile,
  RolloutIndexEntry,
  SessionSummary,
  Source,
  VerificationView,
} from "./protocol";
import { filterProbe, type LineSpan, lineAt, mayContain, splitRanges } from "./search";
import {
  type BlobPart,
  Dataset,
  type IndexRunner,
  ingest,
  ingestAppended,
  newDatasetId,
  type OpenedSource,
} from "./store";

/** Session events are coalesced to at most one per this many ms: the page merges rows and re-renders at most that often (bench/browser.md: each update costs the main thread tens of ms on 2 cores). */
export const SESSION_EVENT_MS = 200;
/** Rollouts per rewards job: small, so the rows on screen jump the queue quickly. */
export const REWARD_BATCH_LINES = 8;
/** Rewards jobs in flight per pool worker. */
export const REWARDS_IN_FLIGHT_PER_WORKER = 2;
/**
 * Bytes per search job: each pool worker reads and scans about this much at a time. Reading a File slice has
 * a fixed cost of several ms in Chromium, so later ranges are large; the first range of each pool worker is
 * small, so the first matches come back within tens of ms (bench/browser.md).
 */
export const SEARCH_CHUNK_BYTES = 32 * 1024 * 1024;
export const SEARCH_FIRST_CHUNK_BYTES = 4 * 1024 * 1024;
/** Search jobs in flight per pool worker: the next range is queued while one is scanned, no more, so a new query does not wait behind a whole file of old jobs. */
export const SEARCH_JOBS_PER_WORKER = 2;
/** Partial search results are sent at most this often (the first at once): each one re-filters the page's list. */
export const SEARCH_PROGRESS_MS = 100;
/**
 * When search filters leave only some lines, two candidate lines are read in one range only if at most
 * this many bytes lie between them (reading a little more beats another job).
 */
export const SEARCH_MAX_GAP_BYTES = 256 * 1024;

export interface Pool extends IndexRunner {
  rewards(job: RewardJob): Promise<RewardedLine[]>;
  search(job: SearchJob): Promise<number[]>;
  /** Indexes an inputs file for pairing in every pool member, before rewards jobs name it. */
  prepareInputs(job: InputsJob): Promise<number>;
  /** Both verifications of one opened rollout, off the data worker's thread. */
  verifyDetail(job: VerifyDetailJob): Promise<VerificationView | null>;
}

/** The pool's functions run on this thread: for tests, and where workers cannot be made. */
export function inProcessPool(): Pool {
  return {
    size: 1,
    index: (job: IndexJob): Promise<IndexedBatch> => indexBatch(job),
    rewards: (job: RewardJob) => rewardBatch(job),
    search: (job: SearchJob) => searchRange(job),
    prepareInputs: (job: InputsJob) => prepareInputs(job),
    verifyDetail: (job: VerifyDetailJob) => verifyDetail(job),
  };
}

/** Keeps opened files across reloads (the origin-private file system in the browser). */
export interface Persistence {
  /** `fallbackServer`: the server rows that name none are verified against (a bundled sample's). */
  save(id: string, name: string, blob: Blob, fallbackServer: string | null): Promise<void>;
  open(id: string): Promise<{ name: string; blob: Blob; fallbackServer: string | null } | null>;
  recent(): Promise<RecentFile[]>;
}

/** One source to open: its dataset id and the server its rows that name none are verified against. */
interface OpenSource {
  readonly source: Source;
  readonly id: string;
  readonly fallbackServer: string | null;
}

/** The opened folder: its files, what was read of each for its role, the user's roles, and its plan. */
interface OpenedFolder {
  readonly name: string;
  readonly entries: readonly FolderEntry[];
  readonly heads: readonly FolderFile[];
  readonly overrides: ReadonlyMap<string, FileRole>;
  readonly plan: FolderPlan;
  /** The dataset each rollouts or task-rows file was read into, by path. */
  readonly datasets: ReadonlyMap<string, Dataset>;
}

function cancelled(): DOMException {
  return new DOMException("cancelled", "AbortError");
}

const decoder = new TextDecoder();

export class DataService {
  readonly store = new Map<string, Dataset>();
  /** The inspector's open files, in the order opened. */
  private workspace: string[] = [];
  /** While a load runs: the workspace to go back to if it is cancelled, and the files it opens. */
  private loading: { previous: string[]; opened: string[] } | null = null;
  private emitTimer: ReturnType<typeof setTimeout> | null = null;
  private rewardsInFlight = 0;
  private readonly priority = new Map<string, number[]>();

  private settledWaiters: (() => void)[] = [];
  /** The workspace's folder, when it was opened as one. */
  private folder: OpenedFolder | null = null;
  /** Bytes per search job, and most bytes read between two candidate lines (tests use small ones). */
  searchChunkBytes = SEARCH_CHUNK_BYTES;
  searchMaxGapBytes = SEARCH_MAX_GAP_BYTES;

  constructor(
    private readonly pool: Pool,
    private readonly emit: (session: SessionSummary) => void = () => {},
    private readonly persistence: Persistence | null = null,
    private readonly batchBytes?: number,
  ) {}

  /** Resolves once every workspace row has its rewards (nothing pending, nothing in flight). */
  settled(): Promise<void> {
    if (this.rewardsIdle()) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private rewardsIdle(): boolean {
    return (
      this.rewardsInFlight === 0 && this.workspaceSets().every((dataset) => dataset.pendingRewards.size === 0)
    );
  }

  get(id: string): Dataset | undefined {
    return this.store.get(id);
  }

  /** The workspace as shown: a load in progress shows its files as soon as they have rows. */
  private shown(): string[] {
    if (this.loading) {
      const streaming = this.loading.opened.filter((id) => (this.store.get(id)?.entries.size ?? 0) > 0);
      if (streaming.length > 0) return streaming;
      return this.loading.previous;
    }
    return this.workspace;
  }

  session(): SessionSummary {
    const summaries = (ids: Iterable<string>) =>
      [...ids].flatMap((id) => {
        const dataset = this.store.get(id);
        return dataset ? [dataset.summary()] : [];
      });
    return {
      datasets: summaries(this.shown()),
      files: summaries([...this.store.keys()].reverse()),
      folder: this.folder === null || this.loading !== null ? null : folderSummary(this.folder),
    };
  }

  /** Coalesces change notifications into one session event per SESSION_EVENT_MS. */
  changed(): void {
    if (this.emitTimer !== null) return;
    this.emitTimer = setTimeout(() => {
      this.emitTimer = null;
      this.emit(this.session());
    }, SESSION_EVENT_MS);
  }

  private flush(): SessionSummary {
    if (this.emitTimer !== null) clearTimeout(this.emitTimer);
    this.emitTimer = null;
    const session = this.session();
    this.emit(session);
    return session;
  }

  /**
   * Opens sources into the store and makes them the workspace. A load made only of inputs files joins the
   * workspace's rollouts; rollouts loaded onto a workspace of only inputs keep those inputs; any other load
   * replaces the workspace (the files stay in the store, for /compare). A cancelled load changes nothing.
   */
  async load(
    sources: readonly Source[],
    fallbackServer: string | null,
    signal: AbortSignal,
    progress: (progress: LoadProgress) => void,
  ): Promise<SessionSummary> {
    this.folder = null;
    // A local file picked again that is an open file grown: its new lines join that file instead.
    const fresh: Source[] = [];
    let grew = false;
    for (const source of sources) {
      if (await this.appendGrown(source, signal)) grew = true;
      else fresh.push(source);
    }
    if (grew && fresh.length === 0) return this.flush();
    const opened = await this.openAll(
      fresh.map((source) => ({ source, id: newDatasetId(), fallbackServer })),
      signal,
      progress,
    );
    for (const dataset of opened) void this.persist(dataset);
    return this.flush();
  }

  /** Reopens files kept from an earlier visit, by id (ids that are gone are skipped). */
  async restore(
    ids: readonly string[],
    signal: AbortSignal,
    progress: (progress: LoadProgress) => void,
  ): Promise<SessionSummary> {
    this.folder = null;
    const sources: OpenSource[] = [];
    for (const id of ids) {
      const known = this.store.get(id);
      if (known) continue;
      const kept = await this.persistence?.open(id);
      // The file comes back with the server it was loaded with, so its rewards are those before the reload.
      if (kept) {
        const file = new File([kept.blob], kept.name);
        sources.push({ id, source: { kind: "file", file }, fallbackServer: kept.fallbackServer });
      }
    }
    const present = ids.filter((id) => this.store.has(id));
    if (sources.length > 0) await this.openAll(sources, signal, progress);
    if (present.length > 0 && sources.length === 0) {
      this.workspace = present;
      await this.pairAll();
    }
    return this.flush();
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
    progress: (progress: LoadProgress) => void,
  ): Promise<SessionSummary> {
    const visible = entries.filter((entry) => !isHiddenPath(entry.path));
    const heads = await Promise.all(visible.map(folderHead));
    return this.openFolder(
      { name, entries: visible, heads, overrides: new Map() },
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
    progress: (progress: LoadProgress) => void,
  ): Promise<SessionSummary> {
    const folder = this.folder;
    if (folder === null || !folder.heads.some((head) => head.path === path)) return this.session();
    const overrides = new Map(folder.overrides).set(path, role);
    return this.openFolder({ ...folder, overrides }, folder.datasets, signal, progress);
  }

  /** Decides the roles, reads what is not read yet (a dataset whose role is unchanged is kept), plans. */
  private async openFolder(
    folder: Omit<OpenedFolder, "plan" | "datasets">,
    previous: ReadonlyMap<string, Dataset>,
    signal: AbortSignal,
    progress: (progress: LoadProgress) => void,
  ): Promise<SessionSummary> {
    const decisions: RoleDecision[] = folder.heads.map((head) => {
      const decided = fileRole(head);
      const chosen = folder.overrides.get(head.path);
      return chosen === undefined ? decided : chooseRole(decided, chosen, head);
    });
    const plan = planFolder(decisions);
    const byPath = new Map(folder.entries.map((entry) => [entry.path, entry.file]));
    const datasets = new Map<string, Dataset>();
    this.loading = { previous: this.workspace, opened: [] };
    try {
      for (const decision of decisions) {
        if (decision.role !== "rollouts" && decision.role !== "inputs") continue;
        const kept = previous.get(decision.path);
        if (kept !== undefined && kept.role === decision.role && this.store.has(kept.id)) {
          datasets.set(decision.path, kept);
          continue;
        }
        const file = byPath.get(decision.path);
        if (file === undefined) continue;
        const run = plan.runs.find((r) => r.rollouts === decision.path);
        const dataset = await this.ingestSource(
          { kind: "file", file },
          newDatasetId(),
          null,
          signal,
          progress,
          (added) => {
            // Before the first batch: the index pass chooses servers with the folder's configs.
            added.folderPath = decision.path;
            added.role = decision.role === "inputs" ? "inputs" : "rollouts";
            added.configs = configsOf(run?.configs ?? [], decisions);
            this.loading?.opened.push(added.id);
          },
          decision.path,
        );
        datasets.set(decision.path, dataset);
      }
    } catch (error) {
      for (const [path, dataset] of datasets)
        if (previous.get(path) !== dataset) this.store.delete(dataset.id);
      this.loading = null;
      this.flush();
      throw signal.aborted ? cancelled() : error;
    }
    this.loading = null;
    for (const run of plan.runs) {
      const dataset = datasets.get(run.rollouts);
      if (dataset === undefined) continue;
      const configs = configsOf(run.configs, decisions);
      const inputs = run.inputs.flatMap((path) => datasets.get(path)?.id ?? []);
      const changed =
        !sameList(dataset.configFiles, run.configs) || !sameList(dataset.planInputs ?? [], inputs);
      dataset.configs = configs;
      dataset.configFiles = run.configs;
      dataset.planInputs = inputs;
      if (changed && dataset.indexed) this.resetRewards(dataset);
    }
    this.folder = { ...folder, plan, datasets };
    this.workspace = [...datasets.values()].map((dataset) => dataset.id);
    await this.pairAll();
    return this.flush();
  }

  /** A dataset's (decompressed) bytes, its name and its config files: what /live replays. */
  fileOf(id: string): { name: string; file: Blob; configs: readonly string[] } | null {
    const dataset = this.store.get(id);
    if (!dataset) return null;
    return { name: dataset.folderPath ?? dataset.name, file: dataset.blob(), configs: dataset.configFiles };
  }

  recent(): Promise<RecentFile[]> {
    return this.persistence?.recent() ?? Promise.resolve([]);
  }

  private async persist(dataset: Dataset): Promise<void> {
    try {
      await this.persistence?.save(dataset.id, dataset.name, dataset.blob(), dataset.fallbackServer);
    } catch {
      // Keeping a copy is a convenience (reload, recent files); a full disk must not fail the load.
    }
  }

  private async openAll(
    sources: readonly OpenSource[],
    signal: AbortSignal,
    progress: (progress: LoadProgress) => void,
  ): Promise<Dataset[]> {
    this.loading = { previous: this.workspace, opened: [] };
    const opened: Dataset[] = [];
    try {
      for (const { source, id, fallbackServer } of sources) {
        await this.ingestSource(source, id, fallbackServer, signal, progress, (added) => {
          this.loading?.opened.push(added.id);
          opened.push(added);
        });
      }
    } catch (error) {
      for (const dataset of opened) this.store.delete(dataset.id);
      this.loading = null;
      this.flush();
      throw signal.aborted ? cancelled() : error;
    }
    const previous = (this.loading?.previous ?? []).flatMap((id) => this.store.get(id) ?? []);
    this.loading = null;
    const onlyInputs = opened.every((dataset) => dataset.kind === "inputs");
    const previousHasRollouts = previous.some((dataset) => dataset.kind === "rollouts");
    const previousOnlyInputs = previous.length > 0 && !previousHasRollouts;
    if ((onlyInputs && previousHasRollouts) || (!onlyInputs && previousOnlyInputs)) {
      this.workspace = [...previous, ...opened].map((dataset) => dataset.id);
    } else {
      this.workspace = opened.map((dataset) => dataset.id);
    }
    await this.pairAll();
    return opened;
  }

  /** Reads one source into the store; `added` sees the dataset as soon as it exists (rows stream into it). */
  private async ingestSource(
    source: Source,
    id: string,
    fallbackServer: string | null,
    signal: AbortSignal,
    progress: (progress: LoadProgress) => void,
    added: (dataset: Dataset) => void = () => {},
    shownName?: string,
  ): Promise<Dataset> {
    const opened = await openSource(source, signal);
    const { total, data, followed } = opened;
    const name = shownName ?? opened.name;
    const dataset = new Dataset(id, name, total, fallbackServer);
    this.store.set(dataset.id, dataset);
    added(dataset);
    const report = () => {
      progress({
        phase: "reading",
        file: name,
        done: dataset.bytes,
        total: data.kind === "blob" ? data.blob.size : total,
        rows: dataset.entries.size,
      });
      this.changed();
    };
    try {
      await ingest(dataset, data, this.pool, {
        serverOverride: null,
        harness: null,
        signal,
        onBatch: report,
        holdPartialLine: followed !== null,
        ...(this.batchBytes === undefined ? {} : { batchBytes: this.batchBytes }),
      });
    } catch (error) {
      this.store.delete(dataset.id);
      throw error;
    }
    if (followed !== null && dataset.kind === "rollouts") await this.startFollowing(dataset, followed);
    // A plain local file read whole: what a later pick of the same file, grown, is compared with.
    if (source.kind === "file" && dataset.kind === "rollouts" && dataset.bytes === source.file.size) {
      dataset.readCheck = await readCheck(dataset.blob(), dataset.bytes);
    }
    // No rollout at all (an empty file included): one message saying what the file is instead, unless its
    // lines each have a kind of their own (placeholders, task rows): then it is JSONL, listed line by line.
    const namedLines = dataset.errors().some((error) => error.line_kind !== "not_json");
    if (dataset.kind === "rollouts" && dataset.entries.size === 0 && !namedLines) {
      const start = new Uint8Array(await dataset.blob().slice(0, SNIFF_BYTES).arrayBuffer());
      dataset.problem = fileProblem(start).message;
    }
    report();
    return dataset;
  }

  /**
   * A local file picked again: when an open rollouts file of the same name was read whole (it ended at a line
   * break) and the new file starts with the same bytes (its first and its last FOLLOW_CHECK_BYTES read, kept
   * at load: the old File may no longer be readable once the file changed on disk), the new complete lines
   * join that dataset and true is returned. Anything else (a file that shrank or changed) opens as a new file.
   */
  private async appendGrown(source: Source, signal: AbortSignal): Promise<boolean> {
    if (source.kind !== "file") return false;
    const file = source.file;
    for (const dataset of this.workspaceSets()) {
      const check = dataset.readCheck;
      if (dataset.kind !== "rollouts" || dataset.name !== file.name || check === null) continue;
      if (file.size <= check.from) continue;
      const head = new Uint8Array(await file.slice(0, check.head.length).arrayBuffer());
      const tail = new Uint8Array(await file.slice(check.from - check.tail.length, check.from).arrayBuffer());
      if (!sameBytes(head, check.head) || !sameBytes(tail, check.tail)) continue;
      const grown = new Uint8Array(await file.slice(check.from).arrayBuffer());
      const newline = grown.lastIndexOf(0x0a);
      if (newline === -1) continue;
      // The bytes read are the new File's first bytes now: read them from it from here on.
      dataset.parts = [{ start: 0, blob: file.slice(0, check.from) }];
      await ingestAppended(dataset, grown.subarray(0, newline + 1), this.pool, {
        serverOverride: dataset.serverOverride,
        harness: dataset.harness,
        signal,
        onBatch: () => {},
      });
      dataset.readCheck = await readCheck(dataset.blob(), dataset.bytes);
      if (dataset.entries.size > 0) dataset.problem = null;
      this.pumpRewards();
      return true;
    }
    return false;
  }

  /**
   * Follows a served file while it is in the store: appended complete lines join the dataset (their
   * rewards pending, then computed as any row's), a truncated or replaced file is said and left alone.
   */
  private async startFollowing(dataset: Dataset, url: string): Promise<void> {
    const blob = dataset.blob();
    const from = dataset.bytes;
    const head = new Uint8Array(await blob.slice(0, Math.min(from, FOLLOW_CHECK_BYTES)).arrayBuffer());
    const tail = new Uint8Array(await blob.slice(Math.max(0, from - FOLLOW_CHECK_BYTES), from).arrayBuffer());
    const state = followState(url, from, head, tail);
    dataset.follow = state;
    const stop = new AbortController();
    const tick = async () => {
      if (this.store.get(dataset.id) !== dataset) {
        stop.abort();
        return;
      }
      const waiting = state.waiting;
      const found = await pollOnce(state, (u, init) => fetch(u, init), stop.signal);
      if (found.kind === "changed") {
        state.problem = found.problem;
        dataset.revision++;
        this.changed();
        return;
      }
      if (found.kind === "grown") {
        await ingestAppended(dataset, found.lines, this.pool, {
          serverOverride: dataset.serverOverride,
          harness: dataset.harness,
          signal: stop.signal,
          onBatch: () => {},
        });
        // A followed file that held no rollout yet (a run that just started) now does.
        if (dataset.entries.size > 0) dataset.problem = null;
        this.pumpRewards();
        this.changed();
      } else if (state.waiting !== waiting) {
        dataset.revision++;
        this.changed();
      }
      setTimeout(() => void tick().catch(() => {}), FOLLOW_POLL_MS);
    };
    setTimeout(() => void tick().catch(() => {}), FOLLOW_POLL_MS);
  }

  private reopening = new Map<string, Promise<Dataset | undefined>>();

  /**
   * Reopens a kept file into the store only, by id, with the server it was loaded with (a /compare link
   * after a reload); undefined when nothing is kept under that id. The workspace stays as it is.
   */
  reopen(id: string, signal: AbortSignal): Promise<Dataset | undefined> {
    const known = this.store.get(id);
    if (known) return Promise.resolve(known);
    let pending = this.reopening.get(id);
    if (!pending) {
      pending = (async () => {
        const kept = await this.persistence?.open(id);
        if (!kept) return undefined;
        const file = new File([kept.blob], kept.name);
        const dataset = await this.ingestSource(
          { kind: "file", file },
          id,
          kept.fallbackServer,
          signal,
          () => {},
        );
        this.changed();
        return dataset;
      })().finally(() => this.reopening.delete(id));
      this.reopening.set(id, pending);
    }
    return pending;
  }

  /** Opens a file into the store only (the compare page's pickers); the workspace stays as it is. */
  async add(source: Source, signal: AbortSignal): Promise<Dataset> {
    const dataset = await this.ingestSource(source, newDatasetId(), null, signal, () => {});
    void this.persist(dataset);
    this.changed();
    return dataset;
  }

  private workspaceSets(): Dataset[] {
    return this.workspace.flatMap((id) => this.store.get(id) ?? []);
  }

  /** Where every row of an inputs file is, for the pairing index (lib/verify InputIndex). */
  private inputsJob(inputs: Dataset): InputsJob {
    const lines: LineRef[] = [];
    for (let line = 1; line <= inputs.lineCount; line++) {
      const ref = inputs.lineRef(line);
      if (ref && !inputs.parseErrors.has(line)) lines.push(ref);
    }
    return { id: inputs.id, lines };
  }

  /** Inputs files whose pairing index is ready (here and in every pool worker). */
  private readonly prepared = new Map<string, Promise<void>>();

  private prepare(inputs: Dataset): Promise<void> {
    return this.prepareJob(inputs.id, () => this.inputsJob(inputs));
  }

  private prepareJob(id: string, make: () => InputsJob): Promise<void> {
    let ready = this.prepared.get(id);
    if (!ready) {
      const job = make();
      ready = Promise.all([prepareInputs(job), this.pool.prepareInputs(job)]).then(() => undefined);
      this.prepared.set(id, ready);
    }
    return ready;
  }

  /**
   * Pairs every rollouts file of the workspace with the inputs file that matches the most of its rows by
   * Gym's indices (else the latest inputs file, whose rows may pair by equal task input: lib/verify decides
   * per row in the rewards pass), and recomputes the rewards of a file whose pairing changed.
   */
  private async pairAll(): Promise<void> {
    const inputs = this.workspaceSets().filter((dataset) => dataset.kind === "inputs");
    await Promise.all(inputs.map((dataset) => this.prepare(dataset)));
    for (const dataset of this.workspaceSets()) {
      if (dataset.kind !== "rollouts") continue;
      if (dataset.planInputs !== null) {
        await this.pairPlanned(dataset, dataset.planInputs);
        continue;
      }
      let best: { dataset: Dataset; matches: number } | null = null;
      for (const candidate of inputs) {
        const index = await inputIndex(candidate.id);
        let matches = 0;
        for (const entry of dataset.entries.values()) {
          if (entry.key !== null && index?.pair(keyProbe(entry.key)).paired_by === "index") matches++;
        }
        if (best === null || matches > best.matches) best = { dataset: candidate, matches };
      }
      const pairedInputs = best?.dataset.id ?? null;
      const changed = pairedInputs !== dataset.pairedInputs;
      dataset.pairedInputs = pairedInputs;
      // A first count by Gym's indices; the rewards pass counts every pairing (equal input too).
      dataset.pairedRows = best?.matches ?? 0;
      if (changed) this.resetRewards(dataset);
    }
    this.pumpRewards();
    this.changed();
  }

  /**
   * A folder's rollouts file pairs with the task rows its plan gives it (all of them, as one index, as
   * `cli verify DIR` loads them), and with nothing else in the workspace.
   */
  private async pairPlanned(dataset: Dataset, ids: readonly string[]): Promise<void> {
    const inputs = ids.flatMap((id) => this.store.get(id) ?? []).filter((d) => d.kind === "inputs");
    let pairedInputs: string | null = null;
    if (inputs.length === 1 && inputs[0]) pairedInputs = inputs[0].id;
    else if (inputs.length > 1) {
      pairedInputs = `folder:${inputs.map((d) => d.id).join("+")}`;
      await this.prepareJob(pairedInputs, () => ({
        id: pairedInputs ?? "",
        lines: inputs.flatMap((d) => this.inputsJob(d).lines),
      }));
    }
    let matches = 0;
    const index = pairedInputs === null ? undefined : await inputIndex(pairedInputs);
    for (const entry of dataset.entries.values()) {
      if (entry.key !== null && index?.pair(keyProbe(entry.key)).paired_by === "index") matches++;
    }
    const changed = pairedInputs !== dataset.pairedInputs;
    dataset.pairedInputs = pairedInputs;
    dataset.pairedRows = matches;
    if (changed) this.resetRewards(dataset);
  }

  /** Marks every row's rewards pending again; statuses stay until the new ones land. */
  private resetRewards(dataset: Dataset): void {
    dataset.analysisGeneration++;
    dataset.revision++;
    dataset.pendingRewards = new Set(dataset.lines());
    for (const entry of dataset.entries.values()) {
      if (entry.rewards === "done") dataset.setEntry({ ...entry, rewards: "pending" });
    }
  }

  reanalyze(id: string, server: string | null, harness: HarnessId | null): SessionSummary {
    const dataset = this.store.get(id);
    if (dataset?.kind !== "rollouts") return this.session();
    if (dataset.serverOverride === server && dataset.harness === harness) return this.session();
    dataset.serverOverride = server;
    dataset.harness = harness;
    this.resetRewards(dataset);
    this.pumpRewards();
    return this.flush();
  }

  prioritize(id: string, lines: readonly number[]): void {
    this.priority.set(id, [...lines]);
    this.pumpRewards();
  }

  /** Starts rewards jobs while the pool has room: rows on screen first, then the rest in file order. */
  private pumpRewards(): void {
    const limit = this.pool.size * REWARDS_IN_FLIGHT_PER_WORKER;
    while (this.rewardsInFlight < limit) {
      const next = this.nextRewardJob();
      if (next === null) break;
      const { dataset, lines, generation } = next;
      const refs = lines.flatMap((line) => dataset.lineRef(line) ?? []);
      this.rewardsInFlight++;
      this.pool
        .rewards({ lines: refs, inputs: dataset.pairedInputs, ...dataset.analysisOptions() })
        .then((analyzed) => {
          if (dataset.analysisGeneration !== generation || !this.store.has(dataset.id)) return;
          dataset.revision++;
          for (const row of analyzed) {
            dataset.setAnalyzed(row);
            dataset.searchFilters.set(row.entry.line, row.filter);
          }
          if (dataset.pendingRewards.size === 0) dataset.pairedRows = countPaired(dataset);
          this.changed();
        })
        .catch(() => {
          // A failed job leaves its rows pending; they are retried with the next change.
          if (dataset.analysisGeneration === generation)
            for (const line of lines) dataset.pendingRewards.add(line);
        })
        .finally(() => {
          this.rewardsInFlight--;
          this.pumpRewards();
        });
    }
    this.notifySettled();
  }

  private notifySettled(): void {
    if (!this.rewardsIdle()) return;
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private nextRewardJob(): { dataset: Dataset; lines: number[]; generation: number } | null {
    for (const dataset of this.workspaceSets()) {
      if (dataset.kind !== "rollouts" || !dataset.indexed || dataset.pendingRewards.size === 0) continue;
      const lines: number[] = [];
      for (const line of this.priority.get(dataset.id) ?? []) {
        if (lines.length >= REWARD_BATCH_LINES) break;
        if (dataset.pendingRewards.delete(line)) lines.push(line);
      }
      for (const line of dataset.pendingRewards) {
        if (lines.length >= REWARD_BATCH_LINES) break;
        dataset.pendingRewards.delete(line);
        lines.push(line);
      }
      if (lines.length > 0) return { dataset, lines, generation: dataset.analysisGeneration };
    }
    return null;
  }

  /** Rows changed after `since`; the caller merges them into what it has. */
  /** Unreadable lines [start, end) of a dataset, in line order, and how many there are. */
  lineErrors(id: string, start: number, end: number): { errors: LineError[]; total: number } {
    const errors = this.store.get(id)?.errors() ?? [];
    return { errors: errors.slice(start, end), total: errors.length };
  }

  changes(id: string, since: number): { entries: RolloutIndexEntry[]; revision: number } {
    const dataset = this.store.get(id);
    if (!dataset) return { entries: [], revision: 0 };
    const entries: RolloutIndexEntry[] = [];
    for (const line of dataset.lines()) {
      if ((dataset.entryRevision.get(line) ?? 0) > since || since === 0) {
        const entry = dataset.entries.get(line);
        if (entry) entries.push(entry);
      }
    }
    return { entries, revision: dataset.revision };
  }

  async detail(
    id: string,
    line: number,
    server: string | null,
    harness: HarnessId | null,
  ): Promise<OpenedDetail | null> {
    const dataset = this.store.get(id);
    const entry = dataset?.entries.get(line);
    if (!dataset || !entry) return null;
    const bytes = await dataset.readLine(line);
    if (bytes === null) return null;
    const value = parseBytes(bytes);
    const rollout = rolloutOf(value);
    if (rollout === null) return null;
    const options = dataset.analysisOptions();
    const context = await rowContext(rollout, dataset.pairedInputs, {
      ...options,
      serverOverride: server ?? options.serverOverride,
      harness: harness ?? options.harness,
    });
    return openDetail(entry, rollout, context, bytes.length);
  }

  /** Both verifications of one rollout, in the pool (same server and harness rules as `detail`). */
  detailVerification(
    id: string,
    line: number,
    server: string | null,
    harness: HarnessId | null,
  ): Promise<VerificationView | null> {
    const dataset = this.store.get(id);
    const ref = dataset?.lineRef(line);
    if (!dataset || !ref || !dataset.entries.has(line)) return Promise.resolve(null);
    const options = dataset.analysisOptions();
    return this.pool.verifyDetail({
      ref,
      inputs: dataset.pairedInputs,
      ...options,
      serverOverride: server ?? options.serverOverride,
      harness: harness ?? options.harness,
    });
  }

  raw(id: string, line: number): Promise<Uint8Array | null> {
    return this.store.get(id)?.readLine(line) ?? Promise.resolve(null);
  }

  /**
   * Rollout lines whose raw text contains `text` (case-insensitive), found by the pool a byte range at a
   * time (./search.ts); matches are reported as they come (the first at once, then at most every
   * SEARCH_PROGRESS_MS). A cancelled search (a newer query) sends no more ranges to the pool.
   */
  async search(
    id: string,
    text: string,
    signal: AbortSignal,
    progress: (partial: { lines: number[] }) => void,
  ): Promise<{ lines: number[] }> {
    const dataset = this.store.get(id);
    if (!dataset || text === "") return { lines: [] };
    // Lines whose search filter says they cannot hold the text are not read (a line without a filter yet,
    // its rewards pending, is read).
    const probe = filterProbe(text);
    const spans: LineSpan<BlobPart>[] = [];
    for (const line of dataset.lines()) {
      const filter = probe === null ? undefined : dataset.searchFilters.get(line);
      if (probe !== null && filter !== undefined && !mayContain(filter, probe)) continue;
      const at = dataset.position(line);
      const part = at === null ? null : dataset.partAt(at.offset);
      if (at !== null && part !== null)
        spans.push({ line, start: at.offset, end: at.offset + at.length, part });
    }
    const ranges = splitRanges(
      spans,
      this.searchChunkBytes,
      probe === null ? Number.POSITIVE_INFINITY : this.searchMaxGapBytes,
      { count: this.pool.size, maxBytes: Math.min(SEARCH_FIRST_CHUNK_BYTES, this.searchChunkBytes) },
    );
    const found = new Set<number>();
    let sent = 0;
    let lastSent = Number.NEGATIVE_INFINITY;
    let next = 0;
    const worker = async () => {
      for (let range = ranges[next++]; range !== undefined; range = ranges[next++]) {
        if (signal.aborted) throw cancelled();
        const { part, start, end } = range;
        const hits = await this.pool.search({
          blob: part.blob,
          start: start - part.start,
          end: end - part.start,
          base: start,
          text,
        });
        if (signal.aborted) throw cancelled();
        for (const hit of hits) {
          const line = lineAt(spans, hit);
          if (line !== null) found.add(line);
        }
        const now = Date.now();
        if (found.size > sent && (sent === 0 || now - lastSent >= SEARCH_PROGRESS_MS)) {
          sent = found.size;
          lastSent = now;
          progress({ lines: [...found] });
        }
      }
    };
    const lanes = Math.max(1, Math.min(ranges.length, this.pool.size * SEARCH_JOBS_PER_WORKER));
    await Promise.all(Array.from({ length: lanes }, worker));
    if (signal.aborted) throw cancelled();
    return { lines: [...found].sort((a, b) => a - b) };
  }

  servers(): string[] {
    return servers();
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, at) => item === b[at]);
}

/** The parsed configs of the given config files (from their role decisions). */
function configsOf(paths: readonly string[], decisions: readonly RoleDecision[]) {
  return paths.flatMap((path) => decisions.find((d) => d.path === path)?.config ?? []);
}

function folderSummary(folder: OpenedFolder): FolderSummary {
  const id = (path: string) => folder.datasets.get(path)?.id ?? null;
  const head = (path: string) => folder.heads.find((h) => h.path === path)?.head ?? null;
  return {
    name: folder.name,
    files: folder.plan.decisions.map((d) => ({
      path: d.path,
      role: d.role,
      reason: d.reason,
      chosen: d.chosen,
      dataset: id(d.path),
    })),
    runs: folder.plan.runs.map((run) => ({
      rollouts: run.rollouts,
      dataset: id(run.rollouts),
      configs: run.configs,
      inputs: run.inputs,
      servers: run.routes.servers,
      metrics: run.metrics.flatMap((path) => {
        const text = head(path);
        const read = text === null ? null : readGymMetrics(text);
        return read?.ok ? [{ path, metrics: read.metrics }] : [];
      }),
    })),
  };
}

/**
 * The first and the last FOLLOW_CHECK_BYTES of what was read, when it ended at a line break (a file read
 * without its last line break cannot be appended to: that line may still be growing).
 */
async function readCheck(blob: Blob, from: number): Promise<FollowState | null> {
  if (from === 0) return null;
  const last = new Uint8Array(await blob.slice(from - 1, from).arrayBuffer());
  if (last[0] !== 0x0a) return null;
  const head = new Uint8Array(await blob.slice(0, Math.min(from, FOLLOW_CHECK_BYTES)).arrayBuffer());
  const tail = new Uint8Array(await blob.slice(Math.max(0, from - FOLLOW_CHECK_BYTES), from).arrayBuffer());
  return followState("", from, head, tail);
}

/** A row that carries only Gym's indices, to ask an InputIndex whether they pair. */
function keyProbe(key: string): unknown {
  const [task, rollout] = key.split(":").map(Number);
  return { _ng_task_index: task, _ng_rollout_index: rollout };
}

function countPaired(dataset: Dataset): number {
  let paired = 0;
  for (const entry of dataset.entries.values()) if (entry.paired) paired++;
  return paired;
}

function parseBytes(bytes: Uint8Array | null): unknown {
  if (bytes === null) return undefined;
  const parsed = parseJsonLine(decoder.decode(bytes));
  return parsed.ok ? parsed.value : undefined;
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Opens a source: a local file as its Blob, a bundled sample as a fetched stream, a served file as a
 * streamed range request (`followed`: its URL, when it is plain JSONL and so can be followed as it grows).
 */
async function openSource(
  source: Source,
  signal: AbortSignal,
): Promise<{ name: string; total: number | null; data: OpenedSource; followed: string | null }> {
  if (source.kind === "file") {
    return {
      name: source.file.name,
      total: source.file.size,
      data: { kind: "blob", blob: source.file },
      followed: null,
    };
  }
  if (source.kind === "remote") {
    // Two bytes first: a gzip file is read whole once (its compressed bytes cannot be followed line by line).
    const magic = await fetch(source.url, { headers: { Range: "bytes=0-1" }, signal });
    const start = magic.status === 206 ? new Uint8Array(await magic.arrayBuffer()) : new Uint8Array();
    if (magic.status !== 206) await magic.body?.cancel();
    if (magic.status !== 206 && magic.status !== 416) {
      throw new Error(`could not fetch ${source.name}: HTTP ${magic.status}`);
    }
    const gzip = start[0] === GZIP_MAGIC[0] && start[1] === GZIP_MAGIC[1];
    const response = await fetch(source.url, { headers: { Range: "bytes=0-" }, signal });
    if (response.status === 416) {
      return {
        name: source.name,
        total: 0,
        data: { kind: "stream", stream: new Blob([]).stream() },
        followed: source.url,
      };
    }
    if (!response.ok || response.body === null) {
      throw new Error(`could not fetch ${source.name}: HTTP ${response.status}`);
    }
    return {
      name: source.name,
      total: rangeTotal(response.headers.get("content-range")),
      data: { kind: "stream", stream: response.body },
      followed: gzip ? null : source.url,
    };
  }
  const response = await fetch(source.url, { signal });
  if (!response.ok || response.body === null) {
    throw new Error(`could not fetch ${source.name}: HTTP ${response.status}`);
  }
  const length = Number(response.headers.get("content-length"));
  return {
    name: source.name,
    total: Number.isFinite(length) && length > 0 ? length : null,
    data: { kind: "stream", stream: response.body },
    followed: null,
  };
}

export type { DatasetSummary };
