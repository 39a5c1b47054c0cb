/// <reference lib="webworker" />
/**
 * The compare worker: holds the /compare page's files by name and answers its requests
 * (see ./compare-protocol.ts). Comparison reports and repaired bytes stay here; the page gets
 * compact views and, on download, one Blob.
 */
import type { CompareReport } from "../lib/compare";
import {
  combineInputs,
  compareFiles,
  compareView,
  type LoadedFile,
  pairDetail,
  readFile,
  repairedName,
  repairFile,
  rolloutList,
  serverTools,
  summarize,
  whatIf,
} from "./compare-core";
import type {
  CompareMethod,
  CompareRequests,
  FromCompareWorker,
  RunsParams,
  Source,
  ToCompareWorker,
} from "./compare-protocol";

declare const self: DedicatedWorkerGlobalScope;

const files = new Map<string, LoadedFile>();
const controllers = new Map<number, AbortController>();
/** The last comparison, so opening a pair does not recompute the whole report. */
let lastReport: { key: string; report: CompareReport; conflicts: readonly string[] } | null = null;
/** Repaired files by id: kept until the next repair replaces them (one download at a time is enough). */
const repaired = new Map<number, { name: string; chunks: readonly Uint8Array[] }>();
let nextRepairId = 1;

async function openSource(
  source: Source,
  signal: AbortSignal,
): Promise<{ name: string; stream: ReadableStream<Uint8Array> }> {
  if (source.kind === "file") return { name: source.file.name, stream: source.file.stream() };
  const response = await fetch(source.url, { signal });
  if (!response.ok || response.body === null) {
    throw new Error(`could not fetch ${source.name}: HTTP ${response.status}`);
  }
  return { name: source.name, stream: response.body };
}

function fileOf(name: string): LoadedFile {
  const file = files.get(name);
  if (file === undefined) throw new Error(`${name} is not loaded`);
  return file;
}

/** A loaded rollouts file; an inputs file named where rollouts belong is a clear error, not an empty run. */
function rolloutsOf(name: string): LoadedFile {
  const file = fileOf(name);
  if (file.kind === "inputs") {
    throw new Error(`${name} holds materialized inputs, not rollouts: choose it as the inputs of a run`);
  }
  return file;
}

function inputsOf(name: string | null): LoadedFile | null {
  if (name === null) return null;
  const file = fileOf(name);
  if (file.kind !== "inputs") {
    throw new Error(`${name} is not a materialized-inputs file (rows with Gym's indices and no response)`);
  }
  return file;
}

function reportFor({ a, b, ai, bi, policy }: RunsParams) {
  const fa = rolloutsOf(a);
  const fb = rolloutsOf(b);
  const fai = inputsOf(ai);
  const fbi = inputsOf(bi);
  const key = JSON.stringify([a, fa.version, b, fb.version, ai, fai?.version, bi, fbi?.version, policy]);
  if (lastReport?.key !== key) {
    const inputs = combineInputs(fai, fbi);
    lastReport = { key, report: compareFiles(fa, fb, policy, inputs), conflicts: inputs.conflicts };
  }
  return { fa, fb, fai, fbi, report: lastReport.report, conflicts: lastReport.conflicts };
}

type Handler<M extends CompareMethod> = (
  params: CompareRequests[M]["params"],
  signal: AbortSignal,
) => Promise<CompareRequests[M]["result"]> | CompareRequests[M]["result"];

const handlers: { [M in CompareMethod]: Handler<M> } = {
  open: async ({ source }, signal) => {
    const { name, stream } = await openSource(source, signal);
    const file = await readFile(name, stream, signal);
    files.set(name, file);
    return summarize(file);
  },
  files: () => [...files.values()].map(summarize),
  compare: (params) => {
    const { fa, fb, fai, fbi, report, conflicts } = reportFor(params);
    return compareView(fa, fb, report, { ai: fai, bi: fbi, conflicts });
  },
  pairDetail: ({ id, ...params }) => pairDetail(reportFor(params).report, id),
  rollouts: ({ file }) => rolloutList(rolloutsOf(file)),
  whatIf: ({ file, line, inputs }) => whatIf(rolloutsOf(file), line, inputsOf(inputs)),
  servers: () => ({ servers: serverTools() }),
  repair: async ({ file, harness, servers, inputs }) => {
    const source = rolloutsOf(file);
    const { view, chunks } = await repairFile(source, harness, servers, inputsOf(inputs));
    repaired.clear();
    const id = nextRepairId++;
    repaired.set(id, { name: repairedName(source.name, harness), chunks });
    return { id, ...view };
  },
  download: ({ id }) => {
    const found = repaired.get(id);
    if (found === undefined) return null;
    // A Blob crosses to the page by reference to the same bytes; nothing is re-encoded.
    return {
      blob: new Blob(
        found.chunks.map((c) => new Uint8Array(c)),
        { type: "application/x-ndjson" },
      ),
      name: found.name,
    };
  },
};

function post(message: FromCompareWorker): void {
  self.postMessage(message);
}

async function handle<M extends CompareMethod>(
  id: number,
  method: M,
  params: CompareRequests[M]["params"],
): Promise<void> {
  const controller = new AbortController();
  controllers.set(id, controller);
  try {
    const handler: Handler<M> = handlers[method];
    const result = await handler(params, controller.signal);
    post({ type: "result", id, result });
  } catch (error) {
    const cancelled = controller.signal.aborted;
    post({ type: "error", id, error: error instanceof Error ? error.message : String(error), cancelled });
  } finally {
    controllers.delete(id);
  }
}

self.addEventListener("message", (event: MessageEvent<ToCompareWorker>) => {
  const message = event.data;
  if (message.type === "cancel") {
    controllers.get(message.id)?.abort();
    return;
  }
  // Requests come from our own client (worker/compare-client.ts), typed by the protocol.
  void handle(message.id, message.method, message.params as CompareRequests[typeof message.method]["params"]);
});
