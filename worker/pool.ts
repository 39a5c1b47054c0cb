/**
 * The verify pool: navigator.hardwareConcurrency workers (worker/pool.worker.ts) that index batches,
 * compute rewards and search byte ranges, each reading its own bytes from a Blob. The data worker talks to
 * them over MessagePorts the page hands it (a worker cannot portably start workers of its own).
 */

import { z } from "zod";
import type { AnalyzedRollout } from "./core";
import {
  type FilterJob,
  filterBatch,
  type IndexedBatch,
  type IndexJob,
  type InputsJob,
  indexBatch,
  prepareInputs,
  type RewardJob,
  rewardBatch,
  type SearchJob,
  searchRange,
  type VerifyDetailJob,
  verifyDetail,
} from "./jobs";
import type { VerifiedDetail } from "./protocol";
import { type Endpoint, RpcClient } from "./rpc";
import type { IndexRunner } from "./store";

/** What the data service sends jobs to: the verify pool, or its functions on this thread. */
export interface Pool extends IndexRunner {
  rewards(job: RewardJob): Promise<AnalyzedRollout[]>;
  /** Search filters of lines (after their rewards: ./jobs.ts filterBatch). */
  filters(job: FilterJob): Promise<Uint8Array[]>;
  search(job: SearchJob): Promise<number[]>;
  /** Indexes an inputs file for pairing in every pool member, before rewards jobs name it. */
  prepareInputs(job: InputsJob): Promise<number>;
  /** Both verifications of one opened rollout, off the data worker's thread. */
  verifyDetail(job: VerifyDetailJob): Promise<VerifiedDetail | null>;
}

/** The pool's functions run on this thread: for tests, and where workers cannot be made. */
export function inProcessPool(): Pool {
  return {
    size: 1,
    index: (job: IndexJob): Promise<IndexedBatch> => indexBatch(job),
    rewards: (job: RewardJob) => rewardBatch(job),
    filters: (job: FilterJob) => filterBatch(job),
    search: (job: SearchJob) => searchRange(job),
    prepareInputs: (job: InputsJob) => prepareInputs(job),
    verifyDetail: (job: VerifyDetailJob) => verifyDetail(job),
  };
}

export interface PoolRequests {
  index: { params: IndexJob; result: IndexedBatch };
  rewards: { params: RewardJob; result: AnalyzedRollout[] };
  filters: { params: FilterJob; result: Uint8Array[] };
  search: { params: SearchJob; result: number[] };
  prepareInputs: { params: InputsJob; result: number };
  verifyDetail: { params: VerifyDetailJob; result: VerifiedDetail | null };
}

/** Upper bound on pool workers, whatever the machine reports: each holds its own copy of the verifiers. */
export const MAX_POOL_WORKERS = 8;

export function poolSize(hardwareConcurrency: number | undefined): number {
  return Math.max(1, Math.min(MAX_POOL_WORKERS, hardwareConcurrency ?? 1));
}

const Port = z.custom<MessagePort>((value) => value instanceof MessagePort, "a MessagePort");

/** The page's first message to the data worker: one port to each pool worker. */
export const PoolPortsMessage = z.object({ type: z.literal("pool"), ports: z.array(Port).min(1) });
export type PoolPortsMessage = z.infer<typeof PoolPortsMessage>;

/** The page's first message to a pool worker: its port to the data worker. */
export const PoolPortMessage = z.object({ type: z.literal("port"), port: Port });
export type PoolPortMessage = z.infer<typeof PoolPortMessage>;

function portEndpoint(port: MessagePort): Endpoint {
  port.start();
  return {
    postMessage: (message, transfer) => port.postMessage(message, transfer ?? []),
    // A port has no error event: a crashed pool worker is seen by the page, which owns it.
    addEventListener: (type: string, listener: (event: MessageEvent) => void) => {
      if (type === "message") port.addEventListener("message", listener);
    },
  } as Endpoint;
}

/** Sends each job to the least busy worker. */
export class PortPool implements Pool {
  private readonly members: { client: RpcClient<PoolRequests>; busy: number }[];

  constructor(ports: readonly MessagePort[]) {
    this.members = ports.map((port) => {
      const endpoint = portEndpoint(port);
      return { client: new RpcClient<PoolRequests>(() => endpoint), busy: 0 };
    });
  }

  get size(): number {
    return this.members.length;
  }

  private async send<M extends keyof PoolRequests>(
    method: M,
    params: PoolRequests[M]["params"],
  ): Promise<PoolRequests[M]["result"]> {
    let member = this.members[0];
    for (const candidate of this.members) if (member && candidate.busy < member.busy) member = candidate;
    if (!member) throw new Error("the verify pool has no workers");
    member.busy++;
    try {
      return await member.client.request(method, params);
    } finally {
      member.busy--;
    }
  }

  index(job: IndexJob): Promise<IndexedBatch> {
    return this.send("index", job);
  }

  rewards(job: RewardJob): Promise<AnalyzedRollout[]> {
    return this.send("rewards", job);
  }

  filters(job: FilterJob): Promise<Uint8Array[]> {
    return this.send("filters", job);
  }

  search(job: SearchJob): Promise<number[]> {
    return this.send("search", job);
  }

  verifyDetail(job: VerifyDetailJob): Promise<VerifiedDetail | null> {
    return this.send("verifyDetail", job);
  }

  /** Every member indexes the inputs file (each pairs its own rewards jobs). */
  async prepareInputs(job: InputsJob): Promise<number> {
    const sizes = await Promise.all(
      this.members.map((member) => member.client.request("prepareInputs", job)),
    );
    return sizes[0] ?? 0;
  }
}
