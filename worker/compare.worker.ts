/// <reference lib="webworker" />
/**
 * The compare worker: holds the /compare page's files by name and answers its requests
 * (see ./compare-protocol.ts). Comparison reports and repaired bytes stay here; the page gets
 * compact views and, on download, one Blob.
 */
import type { CompareReport } from "../lib/compare";
import {
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
  Source,
  ToCompareWorker,
} from "./compare-protocol";

declare const self: DedicatedWorkerGlobalScope;

const files = new Map<string, LoadedFile>();
const controllers = new Map<number, AbortController>();
/** The last comparison, so opening a pair does not recompute the whole report. */
let lastReport: { key: string; report: CompareReport } | null = null;
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

function reportFor(a: string, b: string, policy: CompareRequests["compare"]["params"]["policy"]) {
  const fa = fileOf(a);
  const fb = fileOf(b);
  const key = JSON.stringify([a, fa.version, b, fb.version, policy]);
  if (lastReport?.key !== key) lastReport = { key, report: compareFiles(fa, fb, policy) };
  return { fa, fb, report: lastReport.report };
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
  compare: ({ a, b, policy }) => {
    const { fa, fb, report } = reportFor(a, b, policy);
    return compareView(fa, fb, report);
  },
  pairDetail: ({ a, b, policy, id }) => pairDetail(reportFor(a, b, policy).report, id),
  rollouts: ({ file }) => rolloutList(fileOf(file)),
  whatIf: ({ file, line }) => whatIf(fileOf(file), line),
  servers: () => ({ servers: serverTools() }),
  repair: async ({ file, harness, servers }) => {
    const source = fileOf(file);
    const { view, chunks } = await repairFile(source, harness, servers);
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
