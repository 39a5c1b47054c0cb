/**
 * The rewards scheduler: which rollouts of the workspace get their rewards computed next, and how many
 * jobs are in the pool at once. Rows on screen jump the queue; the rest follow in file order.
 */
import type { Pool } from "./pool";
import type { Dataset } from "./store";

/** Rollouts per rewards job: small, so the rows on screen jump the queue quickly. */
export const REWARD_BATCH_LINES = 8;
/** Rewards jobs in flight per pool worker. */
export const REWARDS_IN_FLIGHT_PER_WORKER = 2;

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
  /** No row of a dataset is pending any more (said again as jobs still in flight land). */
  done(dataset: Dataset): void;
  /** Rows changed. */
  changed(): void;
}

export class RewardsScheduler {
  private inFlight = 0;
  private readonly priority = new Map<string, number[]>();
  private settledWaiters: (() => void)[] = [];

  constructor(
    private readonly pool: Pick<Pool, "size" | "rewards">,
    private readonly hooks: RewardsHooks,
  ) {}

  /** Resolves once every wanted row has its rewards (nothing pending, nothing in flight). */
  settled(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** The rows on screen of a dataset: their rewards come first. */
  prioritize(id: string, lines: readonly number[]): void {
    this.priority.set(id, [...lines]);
    this.pump();
  }

  /** Starts rewards jobs while the pool has room: rows on screen first, then the rest in file order. */
  pump(): void {
    const limit = this.pool.size * REWARDS_IN_FLIGHT_PER_WORKER;
    while (this.inFlight < limit) {
      const next = this.nextJob();
      if (next === null) break;
      const { dataset, lines, generation } = next;
      const refs = lines.flatMap((line) => dataset.lineRef(line) ?? []);
      this.inFlight++;
      this.pool
        .rewards({ lines: refs, inputs: dataset.pairedInputs, ...dataset.analysisOptions() })
        .then((analyzed) => {
          if (dataset.analysisGeneration !== generation || !this.hooks.isOpen(dataset)) return;
          dataset.revision++;
          for (const row of analyzed) {
            dataset.setAnalyzed(row);
            dataset.searchFilters.set(row.entry.line, row.filter);
          }
          if (dataset.pendingRewards.size === 0) this.hooks.done(dataset);
          this.hooks.changed();
        })
        .catch(() => {
          // A failed job leaves its rows pending; they are retried with the next change.
          if (dataset.analysisGeneration === generation)
            for (const line of lines) dataset.pendingRewards.add(line);
        })
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
    this.notifySettled();
  }

  private idle(): boolean {
    return this.inFlight === 0 && this.hooks.datasets().every((dataset) => dataset.pendingRewards.size === 0);
  }

  private notifySettled(): void {
    if (!this.idle()) return;
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private nextJob(): { dataset: Dataset; lines: number[]; generation: number } | null {
    for (const dataset of this.hooks.datasets()) {
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
}
