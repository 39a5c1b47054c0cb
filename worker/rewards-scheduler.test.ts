/**
 * The rewards scheduler (./rewards-scheduler.ts) over a fake pool that holds each job until the test lets
 * it finish: rows on screen first, then file order; at most REWARDS_IN_FLIGHT_PER_WORKER jobs per worker; a
 * failed job's rows pending again; a job of an older analysis dropped; `settled` once nothing is left.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AnalyzedRollout } from "./core";
import type { FilterJob, RewardJob } from "./jobs";
import { inProcessPool } from "./pool";
import { REWARDS_IN_FLIGHT_PER_WORKER, RewardsScheduler, resetRewards } from "./rewards-scheduler";
import { lineFilter } from "./search";
import type { Dataset } from "./store";
import { indexedDataset, WA } from "./test-files";

/** Small jobs, so a fixture makes several. */
const BATCH_LINES = 8;

const indexed = () => indexedDataset("d-1", path.join(WA, "wa_rollouts.jsonl"));

/** A pool whose rewards (and search-filter) jobs wait until `finish` (the real work) or `fail` is called. */
function heldPool(size: number) {
  const real = inProcessPool();
  const held: { job: RewardJob; finish(): void; fail(): void }[] = [];
  const heldFilters: { job: FilterJob; finish(): void }[] = [];
  return {
    held,
    heldFilters,
    pool: {
      size,
      rewards: (job: RewardJob) =>
        new Promise<AnalyzedRollout[]>((resolve, reject) => {
          held.push({
            job,
            finish: () => void real.rewards(job).then(resolve, reject),
            fail: () => reject(new Error("worker died")),
          });
        }),
      filters: (job: FilterJob) =>
        new Promise<Uint8Array[]>((resolve, reject) => {
          heldFilters.push({ job, finish: () => void real.filters(job).then(resolve, reject) });
        }),
    },
  };
}

function scheduler(dataset: Dataset, size: number) {
  const { held, heldFilters, pool } = heldPool(size);
  const done: Dataset[] = [];
  const rewards = new RewardsScheduler(
    pool,
    {
      datasets: () => [dataset],
      isOpen: () => true,
      done: (d) => done.push(d),
      changed: () => {},
    },
    { bytes: Number.POSITIVE_INFINITY, lines: BATCH_LINES },
    { bytes: Number.POSITIVE_INFINITY, lines: BATCH_LINES },
  );
  return { held, heldFilters, done, rewards };
}

const linesOf = (job: RewardJob) => job.lines.map((ref) => ref.line);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Lets every job finish, those sent meanwhile included, until no row is pending. */
async function finishAll(dataset: Dataset, held: ReturnType<typeof heldPool>["held"]): Promise<void> {
  for (let at = 0; dataset.pendingRewards.size > 0 || at < held.length; at++) {
    held[at]?.finish();
    await flush();
  }
}

describe("RewardsScheduler", () => {
  it("sends the rows on screen first, then the rest in file order, a few jobs per worker at a time", async () => {
    const dataset = await indexed();
    const { held, rewards } = scheduler(dataset, 2);
    rewards.prioritize(dataset.id, [40, 41, 3]);
    expect(held).toHaveLength(2 * REWARDS_IN_FLIGHT_PER_WORKER);
    const first = held[0];
    if (!first) throw new Error("no job");
    // The rows on screen make a job of their own, however much room it has left.
    expect(linesOf(first.job)).toEqual([40, 41, 3]);
    expect(linesOf(held[1]?.job ?? first.job)).toEqual([1, 2, 4, 5, 6, 7, 8, 9]);
    first.finish();
    await expect.poll(() => held.length).toBe(2 * REWARDS_IN_FLIGHT_PER_WORKER + 1);
  });

  it("a failed job leaves its rows pending, and they are sent again", async () => {
    const dataset = await indexed();
    const { held, rewards } = scheduler(dataset, 1);
    rewards.pump();
    const first = held[0];
    if (!first) throw new Error("no job");
    const lines = linesOf(first.job);
    first.fail();
    await flush();
    expect(lines.every((line) => dataset.pendingRewards.has(line))).toBe(true);
    await finishAll(dataset, held);
    expect(lines.every((line) => dataset.entries.get(line)?.rewards === "done")).toBe(true);
  });

  it("drops the rewards of an older analysis, and settles once every row has its rewards", async () => {
    const dataset = await indexed();
    const { held, done, rewards } = scheduler(dataset, 4);
    rewards.pump();
    const stale = held[0];
    if (!stale) throw new Error("no job");
    resetRewards(dataset);
    stale.finish();
    await flush();
    expect(dataset.lines().every((line) => dataset.entries.get(line)?.rewards !== "done")).toBe(true);
    let settled = false;
    void rewards.settled().then(() => {
      settled = true;
    });
    await finishAll(dataset, held);
    await expect.poll(() => settled).toBe(true);
    expect(dataset.lines().every((line) => dataset.entries.get(line)?.rewards === "done")).toBe(true);
    // Said once, when the last job of the current analysis landed (nothing pending, nothing in flight).
    expect(done).toEqual([dataset]);
  });
});

describe("search filters", () => {
  it("are built once no rewards are pending, and `settled` does not wait for them", async () => {
    const dataset = await indexed();
    const { held, heldFilters, rewards } = scheduler(dataset, 1);
    rewards.pump();
    expect(heldFilters).toHaveLength(0);
    let settled = false;
    void rewards.settled().then(() => {
      settled = true;
    });
    await finishAll(dataset, held);
    await expect.poll(() => settled).toBe(true);
    // The pool's room went to filter jobs once the last rewards job was sent; none has landed yet.
    expect(heldFilters.length).toBeGreaterThan(0);
    expect(dataset.searchFilters.size).toBe(0);
    let quiet = false;
    void rewards.quiet().then(() => {
      quiet = true;
    });
    await flush();
    expect(quiet).toBe(false);
    for (let at = 0; at < heldFilters.length; at++) {
      heldFilters[at]?.finish();
      await flush();
    }
    expect([...dataset.searchFilters.keys()].sort((a, b) => a - b)).toEqual(dataset.lines());
    // `quiet` waited for the filters as well.
    await expect(rewards.quiet()).resolves.toBeUndefined();
    const line = dataset.lines()[2] ?? 0;
    const bytes = await dataset.readLine(line);
    if (bytes === null) throw new Error("no line");
    expect(dataset.searchFilters.get(line)).toEqual(lineFilter(bytes));
  });

  it("wait while rewards are pending again (another server): the rewards go first", async () => {
    const dataset = await indexed();
    const { held, heldFilters, rewards } = scheduler(dataset, 1);
    rewards.pump();
    await finishAll(dataset, held);
    const filterJobs = heldFilters.length;
    // Both of the worker's places hold a filter job.
    expect(filterJobs).toBe(REWARDS_IN_FLIGHT_PER_WORKER);
    resetRewards(dataset);
    const rewardJobs = held.length;
    // A landing filter job frees room: a rewards job takes it, not the next filter job.
    heldFilters[0]?.finish();
    await flush();
    expect(held.length).toBe(rewardJobs + 1);
    expect(heldFilters.length).toBe(filterJobs);
  });
});

describe("search filters beside a search", () => {
  it("wait while a search reads the file, and go on when pumped after it", async () => {
    const dataset = await indexed();
    const { pool, held, heldFilters } = heldPool(1);
    let searching = true;
    const rewards = new RewardsScheduler(pool, { ...hooksOf(dataset), filtersWait: () => searching });
    rewards.pump();
    await finishAll(dataset, held);
    expect(heldFilters).toHaveLength(0);
    searching = false;
    rewards.pump();
    expect(heldFilters.length).toBeGreaterThan(0);
  });
});

describe("a rewards job's size", () => {
  it("takes lines until their bytes reach the bound (at least one line)", async () => {
    const dataset = await indexed();
    const [a, b, c] = dataset.lines();
    if (a === undefined || b === undefined || c === undefined) throw new Error("too few lines");
    const length = (line: number) => dataset.position(line)?.length ?? 0;
    const bound = length(a) + length(b) + 1;
    const { pool, held } = heldPool(1);
    new RewardsScheduler(pool, hooksOf(dataset), { bytes: bound, lines: 100 }).pump();
    expect(held[0] && linesOf(held[0].job)).toEqual([a, b, c]);
    const tiny = heldPool(1);
    new RewardsScheduler(tiny.pool, hooksOf(await indexed()), { bytes: 1, lines: 100 }).pump();
    expect(tiny.held.map((job) => linesOf(job.job))).toEqual([[a], [b]]);
  });
});

function hooksOf(dataset: Dataset) {
  return { datasets: () => [dataset], isOpen: () => true, done: () => {}, changed: () => {} };
}
