/// <reference lib="webworker" />
/**
 * The one data worker of the app: the file store, the session's requests and each feature's (./protocol.ts
 * composes them; features/<name>/handlers.ts answer them), and the verify pool the page hands it as MessagePorts.
 */
import { compareHandlers } from "@/features/compare/handlers";
import { inspectorHandlers } from "@/features/inspector/handlers";
import { runHandlers } from "@/features/run/handlers";
import { opfsKeptFiles } from "./opfs";
import { inProcessPool, type Pool, PoolPortsMessage, PortPool } from "./pool";
import type { DataEvent, DataRequests } from "./protocol";
import { opfsResults } from "./results-cache";
import { serve } from "./rpc";
import { DataService } from "./service";
import { sessionHandlers } from "./session-handlers";

declare const self: DedicatedWorkerGlobalScope;

/** The pool is set by the page's first message; until then (or without one) jobs run here. */
let pool: Pool = inProcessPool();
const deferredPool: Pool = {
  get size() {
    return pool.size;
  },
  index: (job) => pool.index(job),
  rewards: (job) => pool.rewards(job),
  filters: (job) => pool.filters(job),
  search: (job) => pool.search(job),
  prepareInputs: (job) => pool.prepareInputs(job),
  verifyDetail: (job) => pool.verifyDetail(job),
};

self.addEventListener("message", (event: MessageEvent<unknown>) => {
  const setup = PoolPortsMessage.safeParse(event.data);
  if (setup.success) pool = new PortPool(setup.data.ports);
});

let push: (event: DataEvent) => void = () => {};
const service = new DataService(
  deferredPool,
  (session) => push({ kind: "session", session }),
  opfsKeptFiles(),
  undefined,
  opfsResults(),
);
push = serve<DataRequests, DataEvent>(self, {
  ...sessionHandlers(service),
  ...inspectorHandlers(service),
  ...compareHandlers(service),
  ...runHandlers(service),
});
