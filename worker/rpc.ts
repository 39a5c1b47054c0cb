/**
 * One generic typed request/response layer over a MessagePort-like endpoint (a Worker, a worker's global
 * scope, a MessagePort). A protocol is a map `method -> { params, result, progress }`; the client gets
 * typed promises, progress callbacks and cancellation through AbortSignal, the server a typed handler per
 * method. Server-pushed events (not tied to a request) reach every `onEvent` listener.
 *
 * The inspector, the compare page and the verify pool all speak through this one layer.
 */

import { z } from "zod";

export interface MethodSpec {
  readonly params: unknown;
  readonly result: unknown;
  /** What a long request reports while it runs (never, by default). */
  readonly progress?: unknown;
}

/** Interfaces have no index signature, so a protocol is checked member by member. */
export type Protocol<P> = { [K in keyof P]: MethodSpec };

type ProgressOf<S extends MethodSpec> = S extends { progress: infer P } ? P : never;

// The envelopes are narrowed where they arrive: a worker's message is data from another thread, and a
// message that is not one of these (a setup message, the page's beats) is someone else's, not an error.
// Params, results and events stay `unknown` here; each protocol's types say what they are.
export const ToServer = z.discriminatedUnion("type", [
  z.object({ type: z.literal("request"), id: z.number(), method: z.string(), params: z.unknown() }),
  z.object({ type: z.literal("cancel"), id: z.number() }),
]);
export type ToServer = z.infer<typeof ToServer>;

export const FromServer = z.discriminatedUnion("type", [
  z.object({ type: z.literal("result"), id: z.number(), result: z.unknown() }),
  z.object({ type: z.literal("error"), id: z.number(), error: z.string(), cancelled: z.boolean() }),
  z.object({ type: z.literal("progress"), id: z.number(), progress: z.unknown() }),
  z.object({ type: z.literal("event"), event: z.unknown() }),
]);
export type FromServer = z.infer<typeof FromServer>;

/** What both a Worker and a MessagePort (and a worker's own scope) offer. */
export interface Endpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
}

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CancelledError";
  }
}

export function isCancelled(error: unknown): boolean {
  return (
    error instanceof CancelledError ||
    (error instanceof Error && (error.name === "AbortError" || error.name === "CancelledError"))
  );
}

export interface RequestOptions<P> {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: P) => void;
  readonly transfer?: Transferable[];
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (progress: unknown) => void;
}

/**
 * The calling side. `connect` makes (or remakes, after a crash) the endpoint; a crashed worker rejects every
 * pending request, is terminated (an uncaught error leaves a worker running, and with it what it started)
 * and a new one is made on the next request. Nothing a replaced endpoint still sends is heard.
 */
export class RpcClient<P extends Protocol<P>, E = never> {
  private endpoint: (Endpoint & { terminate?(): void }) | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: E) => void>();

  constructor(private readonly connect: () => Endpoint & { terminate?(): void }) {}

  request<M extends keyof P & string>(
    method: M,
    params: P[M]["params"],
    options: RequestOptions<ProgressOf<P[M]>> = {},
  ): Promise<P[M]["result"]> {
    const { signal, onProgress, transfer } = options;
    if (signal?.aborted) return Promise.reject(new CancelledError());
    const endpoint = this.ensure();
    const id = this.nextId++;
    return new Promise<P[M]["result"]>((resolve, reject) => {
      const onAbort = () => {
        endpoint.postMessage({ type: "cancel", id } satisfies ToServer);
        // The server confirms with a cancelled error; reject now so the caller does not wait for it.
        const pending = this.pending.get(id);
        if (pending) {
          this.pending.delete(id);
          pending.reject(new CancelledError());
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        // The server answers this id with this method's result type (serve() below is typed by P).
        resolve: (value) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value as P[M]["result"]);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
        ...(onProgress ? { onProgress: (value: unknown) => onProgress(value as ProgressOf<P[M]>) } : {}),
      });
      endpoint.postMessage({ type: "request", id, method, params } satisfies ToServer, transfer ?? []);
    });
  }

  onEvent(listener: (event: E) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  terminate(): void {
    const endpoint = this.endpoint;
    this.endpoint = null;
    endpoint?.terminate?.();
    this.failAll(new Error("the worker was stopped"));
  }

  private ensure(): Endpoint & { terminate?(): void } {
    if (this.endpoint) return this.endpoint;
    const endpoint = this.connect();
    endpoint.addEventListener("message", (event: MessageEvent) => {
      if (this.endpoint !== endpoint) return;
      const message = FromServer.safeParse(event.data);
      if (message.success) this.onMessage(message.data);
    });
    endpoint.addEventListener("error", (event: ErrorEvent) => {
      event.preventDefault();
      if (this.endpoint !== endpoint) return;
      this.endpoint = null;
      endpoint.terminate?.();
      this.failAll(new Error(`the worker crashed: ${event.message || "unknown error"}`));
    });
    this.endpoint = endpoint;
    return endpoint;
  }

  private onMessage(message: FromServer): void {
    if (message.type === "event") {
      for (const listener of this.listeners) listener(message.event as E);
      return;
    }
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

export interface HandlerContext<S extends MethodSpec> {
  readonly signal: AbortSignal;
  progress(value: ProgressOf<S>): void;
  /** Buffers to transfer with the result instead of copying them. */
  transfer(...buffers: Transferable[]): void;
}

export type Handlers<P extends Protocol<P>> = {
  [M in keyof P]: (
    params: P[M]["params"],
    context: HandlerContext<P[M]>,
  ) => Promise<P[M]["result"]> | P[M]["result"];
};

/**
 * The answering side: one handler per method; returns a function that pushes an event to the client.
 * `onActive` hears when a first request starts (true) and when none is left (false).
 */
export function serve<P extends Protocol<P>, E = never>(
  endpoint: Endpoint,
  handlers: Handlers<P>,
  onActive?: (active: boolean) => void,
): (event: E) => void {
  const controllers = new Map<number, AbortController>();
  const handle = async (id: number, method: string, params: unknown) => {
    const controller = new AbortController();
    controllers.set(id, controller);
    if (controllers.size === 1) onActive?.(true);
    const transfer: Transferable[] = [];
    try {
      if (!Object.hasOwn(handlers, method)) throw new Error(`unknown method ${method}`);
      // A method name the client sent, checked to be one of ours just above.
      const handler = handlers[method as keyof P];
      // Requests come from RpcClient<P>, typed by the same protocol.
      const result = await handler(params as P[keyof P]["params"], {
        signal: controller.signal,
        progress: (progress) => endpoint.postMessage({ type: "progress", id, progress } satisfies FromServer),
        transfer: (...buffers) => transfer.push(...buffers),
      });
      endpoint.postMessage({ type: "result", id, result } satisfies FromServer, transfer);
    } catch (error) {
      const cancelled = controller.signal.aborted || isCancelled(error);
      endpoint.postMessage({
        type: "error",
        id,
        error: error instanceof Error ? error.message : String(error),
        cancelled,
      } satisfies FromServer);
    } finally {
      controllers.delete(id);
      if (controllers.size === 0) onActive?.(false);
    }
  };
  endpoint.addEventListener("message", (event: MessageEvent) => {
    const parsed = ToServer.safeParse(event.data);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === "cancel") {
      controllers.get(message.id)?.abort();
      return;
    }
    if (message.type === "request") void handle(message.id, message.method, message.params);
  });
  return (event) => endpoint.postMessage({ type: "event", event } satisfies FromServer);
}
