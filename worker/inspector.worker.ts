/// <reference lib="webworker" />
/**
 * The inspector worker: parses files, keeps their bytes, answers requests. See ./protocol.ts.
 */
import { readRollout } from "../lib/schemas";
import { rolloutView, servers, verification } from "./core";
import { highlightJson } from "./highlight";
import type { FromWorker, LoadProgress, Method, Requests, ToWorker } from "./protocol";
import { runExport, runView } from "./run";
import { parseLine, runSource, Session } from "./session";

declare const self: DedicatedWorkerGlobalScope;

const session = new Session();
const controllers = new Map<number, AbortController>();

function post(message: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

type Handler<M extends Method> = (
  params: Requests[M]["params"],
  signal: AbortSignal,
  progress: (progress: LoadProgress) => void,
) => Promise<Requests[M]["result"]> | Requests[M]["result"];

const handlers: { [M in Method]: Handler<M> } = {
  load: ({ sources, fallbackServer }, signal, progress) =>
    session.load(sources, fallbackServer ?? null, signal, progress),
  reanalyze: ({ dataset, server, harness }, signal, progress) =>
    session.reanalyze(dataset, server, harness, signal, progress),
  indexPage: ({ dataset, start, count }) => {
    const found = session.get(dataset);
    const index = found?.index ?? [];
    return { entries: index.slice(start, start + count), total: index.length };
  },
  rollout: ({ dataset, line }) => {
    const found = session.get(dataset);
    const position = found?.byLine.get(line);
    if (!found || position === undefined) return null;
    const entry = found.index[position];
    if (!entry) return null;
    const value = parseLine(found, line);
    const read = readRollout(value);
    if (!read.ok) return null;
    const bytes = found.lineBytes.get(line);
    return rolloutView(entry, value, read.rollout, session.rowContext(found, value), bytes?.length ?? 0);
  },
  verify: ({ dataset, line, server, harness }) => {
    const found = session.get(dataset);
    if (!found?.byLine.has(line)) return null;
    const value = parseLine(found, line);
    return verification(value, { ...session.rowContext(found, value, server), harness });
  },
  raw: ({ dataset, line }) => {
    const bytes = session.get(dataset)?.lineBytes.get(line);
    // A copy, so transferring it leaves the kept bytes intact.
    return bytes ? { bytes: bytes.slice() } : null;
  },
  search: async ({ dataset, text }, signal) => ({ lines: await session.search(dataset, text, signal) }),
  highlight: ({ code }) => highlightJson(code),
  servers: () => ({ servers: servers() }),
  run: ({ dataset, filter }) => {
    const source = runSource(session, dataset);
    return source === null ? null : runView(source, filter);
  },
  runExport: ({ dataset, filter, format }) => {
    const source = runSource(session, dataset);
    return source === null ? { error: "no such dataset" } : runExport(source, filter, format);
  },
};

async function handle<M extends Method>(id: number, method: M, params: Requests[M]["params"]): Promise<void> {
  const controller = new AbortController();
  controllers.set(id, controller);
  try {
    const handler: Handler<M> = handlers[method];
    const result = await handler(params, controller.signal, (progress) =>
      post({ type: "progress", id, progress }),
    );
    const transfer: Transferable[] = [];
    if (method === "raw" && result !== null && typeof result === "object" && "bytes" in result) {
      const bytes = result.bytes;
      if (bytes instanceof Uint8Array && bytes.buffer instanceof ArrayBuffer) transfer.push(bytes.buffer);
    }
    post({ type: "result", id, result }, transfer);
  } catch (error) {
    const cancelled = controller.signal.aborted;
    post({ type: "error", id, error: error instanceof Error ? error.message : String(error), cancelled });
  } finally {
    controllers.delete(id);
  }
}

self.addEventListener("message", (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "cancel") {
    controllers.get(message.id)?.abort();
    return;
  }
  // Requests come from our own client (worker/client.ts), typed by the protocol.
  void handle(message.id, message.method, message.params as Requests[typeof message.method]["params"]);
});
