/// <reference lib="webworker" />
/**
 * One member of the verify pool (./pool.ts): it receives a MessagePort to the data worker and answers the
 * jobs of ./jobs.ts on it.
 */
import { gcBallast } from "./gc-ballast";
import { filterBatch, indexBatch, prepareInputs, rewardBatch, searchRange, verifyDetail } from "./jobs";
import { BeatMessage, mainBeat, type WorkingMessage } from "./main-first";
import { PoolPortMessage, type PoolRequests } from "./pool";
import { serve } from "./rpc";

declare const self: DedicatedWorkerGlobalScope;

// Fewer full collections during a rewards pass (./gc-ballast.ts).
const ballast = gcBallast();

// The page's beats (./main-first.ts): a job's pauses wait while the page's main thread is busy. The page
// beats only while a worker says it works (below: while it has a job).
self.addEventListener("message", (event: MessageEvent<unknown>) => {
  const beat = BeatMessage.safeParse(event.data);
  if (beat.success) mainBeat.beat(beat.data.on);
});

self.addEventListener("message", (event: MessageEvent<unknown>) => {
  const setup = PoolPortMessage.safeParse(event.data);
  if (!setup.success) return;
  const port = setup.data.port;
  port.start();
  serve<PoolRequests>(
    port,
    {
      index: (job) => indexBatch(job),
      rewards: (job) => {
        ballast.hold(job.lines.reduce((bytes, line) => bytes + line.length, 0));
        return rewardBatch(job);
      },
      filters: async (job, context) => {
        const filters = await filterBatch(job);
        // Each filter has a buffer of its own: moved to the data worker, not copied.
        context.transfer(...filters.map((filter) => filter.buffer));
        return filters;
      },
      search: (job) => searchRange(job),
      prepareInputs: (job) => prepareInputs(job),
      verifyDetail: (job) => verifyDetail(job),
    },
    (working) => self.postMessage({ type: "working", working } satisfies WorkingMessage),
  );
});
