/**
 * The rewards scheduler: which rollouts of the workspace get their rewards computed next, and how many
 * jobs are in the pool at once. Rows on screen jump the queue; the rest follow in file order.
 */
import type { LineRef } from "./jobs";
import type { Pool } from "./pool";
import type { Dataset } from "./store";

/**
 * How much one rewards job takes: lines up to about this many bytes (at least one line). A job's lines side
 * by side are read with one Blob read (a plain unpaired file's job: one; a paired inputs row or a gzip part's
 * end adds one each), and a read costs the browser ~2 ms of CPU whatever its size: the reads of a 1 GB file
 * took 4.2 s of CPU in 1 MiB slices, 2.6 s in 8 MiB ones (bench/blob-reads.md); every reward of a 300 MB
 * file came ~5% sooner (bench/profile-rewards.md). A job is then ~150 rollouts, ~0.2 s of work, but not one
 * task: the worker takes the messages waiting for it every JOB_PAUSE_BYTES (./jobs.ts), so rows on screen
 * (a job of their own: nextJob), a search or an opened rollout's detail wait a few milliseconds, not a job.
 */
export const REWARD_BATCH_BYTES = 8 * 1024 * 1024;
/** And at most this many lines (a file of small rollouts). */
export const REWARD_BATCH_LINES = 256;
/** Rewards jobs in flight per pool worker. */
export const REWARDS_IN_FLIGHT_PER_WORKER = 2;
/**
 * How much one search-filter job takes (filters are built once no rewards are pending): a filter costs
 * ~5 ms per MiB, so this is tens of milliseconds, short enough that new rewards work does not wait long.
 */
export const FILTER_BATCH_BYTES = 4 * 1024 * 1024;
export const FILTER_BATCH_LINES = 512;

/** Marks every row's rewards pending again (another server, harness or inputs file); statuses stay until the new ones land. */
export function resetRewards(dataset: Dataset): void {
  dataset.analysisGeneration++;
  dataset.revision++;
  dataset.pendingRewards = new Set(dataset.lines());
  for (const entry of dataset.entries.values()) {
    if (entry.rewards === "done") dataset.setEntry({ ...entry, rewards: "pending" });
  }
}

export interface RewardsHooks {
  /** The datasets whose rewards are wanted, in workspace order. */
  datasets(): Dataset[];
  /** Whether a dataset is still in the store (a job for one that is gone is dropped). */
  isOpen(dataset: Dataset): boolean;
  /** Every row of a dataset has its rewards: none pending, no job in flight. */
  done(dataset: Dataset): void;
  /** Rows changed; `finished` when they were a dataset's last (what the page must see at once). */
  changed(finished: boolean): void;
  /** Whether search filters wait now: a search is reading the file, and its answer comes first. */
  filtersWait?(): boolean;
}

export class RewardsScheduler {
  /** Rewards jobs in flight (what `settled` waits for) and search-filter jobs in flight. */
  private inFlight = 0;
  private filtersInFlight = 0;
  /** Jobs in flight per dataset: a dataset is done once none is pending and none is in flight. */
  private readonly inFlightOf = new Map<Dataset, number>();
  private readonly priority = new Map<string, number[]>();
  private settledWaiters: (() => void)[] = [];
  private quietWaiters: (() => void)[] = [];

  constructor(
    private readonly pool: Pick<Pool, "size" | "rewards" | "filters">,
    private readonly hooks: RewardsHooks,
    /** A job's bounds (tests use small ones). */
    private readonly batch: { readonly bytes: number; readonly lines: number } = {
      bytes: REWARD_BATCH_BYTES,
      lines: REWARD_BATCH_LINES,
    },
    private readonly filterBatch: { readonly bytes: number; readonly lines: number } = {
      bytes: FILTER_BATCH_BYTES,
      lines: FILTER_BATCH_LINES,
    },
  ) {}

  /** Resolves once every wanted row has its rewards (nothing pending, nothing in flight). */
  settled(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /**
   * Resolves once the rewards are settled and every open file's search filters are built: what waits for the
   * file's own work to end (its copy for a reload, its kept results) instead of competing with it.
   */
  quiet(): Promise<void> {
    if (this.isQuiet()) return Promise.resolve();
    return new Promise((resolve) => this.quietWaiters.push(resolve));
  }

  /** The rows on screen of a dataset: their rewards come first. */
  prioritize(id: string, lines: readonly number[]): void {
    this.priority.set(id, [...lines]);
    this.pump();
  }

  /**
   * Starts rewards jobs while the pool has room: rows on screen first, then the rest in file order; once no
   * rewards are pending, the search filters of the lines that have none.
   */
  pump(): void {
    const limit = this.pool.size * REWARDS_IN_FLIGHT_PER_WORKER;
    while (this.inFlight + this.filtersInFlight < limit) {
      const next = this.nextJob();
      if (next === null) {
        if (!this.startFilterJob()) break;
        continue;
      }
      const { dataset, lines, generation } = next;
      const refs = lines.flatMap((line) => dataset.lineRef(line) ?? []);
      this.inFlight++;
      this.inFlightOf.set(dataset, (this.inFlightOf.get(dataset) ?? 0) + 1);
      const landed = () => {
        const left = (this.inFlightOf.get(dataset) ?? 1) - 1;
        if (left > 0) this.inFlightOf.set(dataset, left);
        else this.inFlightOf.delete(dataset);
        return left === 0 && dataset.pendingRewards.size === 0;
      };
      this.pool
        .rewards({ lines: refs, inputs: dataset.pairedInputs, ...dataset.analysisOptions() })
        .then(
          (analyzed) => {
            const finished = landed();
            if (dataset.analysisGeneration !== generation || !this.hooks.isOpen(dataset)) return;
            dataset.revision++;
            for (const row of analyzed) dataset.setAnalyzed(row);
            if (finished) this.hooks.done(dataset);
            this.hooks.changed(finished);
          },
          () => {
            landed();
            // A failed job leaves its rows pending; they are retried with the next change.
            if (dataset.analysisGeneration === generation)
              for (const line of lines) dataset.pendingRewards.add(line);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
    this.notifySettled();
  }

  /** Starts one search-filter job; false when no dataset has lines without a filter. */
  private startFilterJob(): boolean {
    if (this.hooks.filtersWait?.()) return false;
    for (const dataset of this.hooks.datasets()) {
      if (dataset.kind !== "rollouts" || !dataset.indexed || dataset.pendingFilters.size === 0) continue;
      const refs: LineRef[] = [];
      let bytes = 0;
      for (const line of dataset.pendingFilters) {
        if (refs.length >= this.filterBatch.lines || bytes >= this.filterBatch.bytes) break;
        dataset.pendingFilters.delete(line);
        const ref = dataset.lineRef(line);
        if (ref === null) continue;
        refs.push(ref);
        bytes += ref.length;
      }
      if (refs.length === 0) continue;
      this.filtersInFlight++;
      this.pool
        .filters({ lines: refs })
        .then(
          (filters) => {
            if (!this.hooks.isOpen(dataset)) return;
            for (const [i, ref] of refs.entries()) {
              const filter = filters[i];
              if (filter) dataset.searchFilters.set(ref.line, filter);
            }
          },
          // A line without a filter is scanned whole by a search: nothing is lost, so nothing is retried.
          () => {},
        )
        .finally(() => {
          this.filtersInFlight--;
          this.pump();
        });
      return true;
    }
    return false;
  }

  private idle(): boolean {
    return this.inFlight === 0 && this.hooks.datasets().every((dataset) => dataset.pendingRewards.size === 0);
  }

  private isQuiet(): boolean {
    if (!this.idle() || this.filtersInFlight > 0) return false;
    return this.hooks
      .datasets()
      .every(
        (dataset) => dataset.kind !== "rollouts" || !dataset.indexed || dataset.pendingFilters.size === 0,
      );
  }

  private notifySettled(): void {
    if (!this.idle()) return;
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    for (const resolve of waiters) resolve();
    if (!this.isQuiet()) return;
    const quiet = this.quietWaiters;
    this.quietWaiters = [];
    for (const resolve of quiet) resolve();
  }

  private nextJob(): { dataset: Dataset; lines: number[]; generation: number } | null {
    for (const dataset of this.hooks.datasets()) {
      if (dataset.kind !== "rollouts" || !dataset.indexed || dataset.pendingRewards.size === 0) continue;
      const lines: number[] = [];
      let bytes = 0;
      const full = () => lines.length >= this.batch.lines || bytes >= this.batch.bytes;
      const take = (line: number) => {
        lines.push(line);
        bytes += dataset.position(line)?.length ?? 0;
      };
      for (const line of this.priority.get(dataset.id) ?? []) {
        if (full()) break;
        if (dataset.pendingRewards.delete(line)) take(line);
      }
      // Rows on screen go alone: a job filled up with the rest would keep them waiting for all of it.
      if (lines.length > 0) return { dataset, lines, generation: dataset.analysisGeneration };
      for (const line of dataset.pendingRewards) {
        if (full()) break;
        dataset.pendingRewards.delete(line);
        take(line);
      }
      if (lines.length > 0) return { dataset, lines, generation: dataset.analysisGeneration };
    }
    return null;
  }
}
