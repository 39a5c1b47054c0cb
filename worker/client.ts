/**
 * The UI-thread side of the worker protocol: request/response RPC with numeric ids, progress events and
 * cancellation through AbortSignal. One client owns one worker; a crashed worker rejects every pending
 * request and is replaced on the next request.
 */
import type { FromWorker, LoadProgress, Method, Requests, ToWorker } from "./protocol";

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CancelledError";
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (progress: LoadProgress) => void;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: LoadProgress) => void;
}

export type WorkerFactory = () => Worker;

export class InspectorClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly factory: WorkerFactory) {}

  request<M extends Method>(
    method: M,
    params: Requests[M]["params"],
    options: RequestOptions = {},
  ): Promise<Requests[M]["result"]> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(new CancelledError());
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<Requests[M]["result"]>((resolve, reject) => {
      const onAbort = () => {
        this.post({ type: "cancel", id });
        // The worker confirms with a cancelled error; reject now so the UI does not wait for it.
        const pending = this.pending.get(id);
        if (pending) {
          this.pending.delete(id);
          pending.reject(new CancelledError());
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        // The worker answers this id with the result type of this method (see worker/inspector.worker.ts).
        resolve: (value) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value as Requests[M]["result"]);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
        onProgress,
      });
      const message: ToWorker = { type: "request", id, method, params };
      worker.postMessage(message);
    });
  }

  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(new Error("the worker was stopped"));
  }

  private post(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.factory();
    worker.addEventListener("message", (event: MessageEvent<FromWorker>) => this.onMessage(event.data));
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.worker?.terminate();
      this.worker = null;
      this.failAll(new Error(`the worker crashed: ${event.message || "unknown error"}`));
    });
    this.worker = worker;
    return worker;
  }

  private onMessage(message: FromWorker): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === "progress") {
      pending.onProgress?.(message.progress);
      return;
    }
    this.pending.delete(message.id);
    if (message.type === "result") pending.resolve(message.result);
    else pending.reject(message.cancelled ? new CancelledError() : new Error(message.error));
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
