/**
 * The page side of the compare worker protocol: request/response RPC with numeric ids and
 * cancellation through AbortSignal. A crashed worker rejects every pending request and is replaced on
 * the next one (its files are then gone; the page reloads them).
 */
import type { CompareMethod, CompareRequests, FromCompareWorker, ToCompareWorker } from "./compare-protocol";

export class CompareCancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CompareCancelledError";
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class CompareClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly factory: () => Worker) {}

  request<M extends CompareMethod>(
    method: M,
    params: CompareRequests[M]["params"],
    options: { signal?: AbortSignal } = {},
  ): Promise<CompareRequests[M]["result"]> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new CompareCancelledError());
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<CompareRequests[M]["result"]>((resolve, reject) => {
      const onAbort = () => {
        worker.postMessage({ type: "cancel", id } satisfies ToCompareWorker);
        const pending = this.pending.get(id);
        if (pending) {
          this.pending.delete(id);
          pending.reject(new CompareCancelledError());
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        // The worker answers this id with the result type of this method (worker/compare.worker.ts).
        resolve: (value) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value as CompareRequests[M]["result"]);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      worker.postMessage({ type: "request", id, method, params } satisfies ToCompareWorker);
    });
  }

  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(new Error("the compare worker was stopped"));
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.factory();
    worker.addEventListener("message", (event: MessageEvent<FromCompareWorker>) =>
      this.onMessage(event.data),
    );
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.worker?.terminate();
      this.worker = null;
      this.failAll(new Error(`the compare worker crashed: ${event.message || "unknown error"}`));
    });
    this.worker = worker;
    return worker;
  }

  private onMessage(message: FromCompareWorker): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.type === "result") pending.resolve(message.result);
    else pending.reject(message.cancelled ? new CompareCancelledError() : new Error(message.error));
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
