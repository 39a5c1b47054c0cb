/**
 * The generic typed request/response layer over a real MessageChannel: results, progress, server events,
 * cancellation and errors.
 */
import { describe, expect, it } from "vitest";
import { CancelledError, type Endpoint, RpcClient, serve } from "@/worker/rpc";

interface TestProtocol {
  double: { params: { n: number }; result: number };
  count: { params: { to: number }; result: string; progress: number };
  wait: { params: Record<string, never>; result: null };
  fail: { params: Record<string, never>; result: null };
}

function endpoint(port: MessagePort): Endpoint {
  port.start();
  return {
    postMessage: (message, transfer) => port.postMessage(message, transfer ?? []),
    addEventListener: ((type: string, listener: (event: MessageEvent) => void) => {
      if (type === "message") port.addEventListener("message", listener);
    }) as Endpoint["addEventListener"],
  };
}

function pair(onActive?: (active: boolean) => void) {
  const channel = new MessageChannel();
  let aborted = false;
  const push = serve<TestProtocol, string>(
    endpoint(channel.port2),
    {
      double: ({ n }) => n * 2,
      count: ({ to }, { progress }) => {
        for (let i = 1; i <= to; i++) progress(i);
        return "done";
      },
      wait: (_, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(new DOMException("cancelled", "AbortError"));
          }),
        ),
      fail: () => {
        throw new Error("no such line");
      },
    },
    onActive,
  );
  const client = new RpcClient<TestProtocol, string>(() => endpoint(channel.port1));
  return { client, push, wasAborted: () => aborted, close: () => channel.port1.close() };
}

describe("rpc", () => {
  it("says when a first request starts and when none is left, not for each request (a failing one too)", async () => {
    const active: boolean[] = [];
    const { client, close } = pair((on) => active.push(on));
    const controller = new AbortController();
    const waiting = client.request("wait", {}, { signal: controller.signal }).catch(() => null);
    expect(await client.request("double", { n: 1 })).toBe(2);
    expect(active).toEqual([true]);
    controller.abort();
    await waiting;
    await expect(client.request("fail", {})).rejects.toThrow("no such line");
    expect(active).toEqual([true, false, true, false]);
    close();
  });

  it("answers typed requests, reports progress and delivers events", async () => {
    const { client, push, close } = pair();
    expect(await client.request("double", { n: 21 })).toBe(42);
    const seen: number[] = [];
    expect(await client.request("count", { to: 3 }, { onProgress: (p) => seen.push(p) })).toBe("done");
    expect(seen).toEqual([1, 2, 3]);
    const events: string[] = [];
    const got = new Promise<void>((resolve) =>
      client.onEvent((event) => {
        events.push(event);
        resolve();
      }),
    );
    push("session changed");
    await got;
    expect(events).toEqual(["session changed"]);
    close();
  });

  it("rejects with the handler's message, and a cancel aborts the handler's signal", async () => {
    const { client, wasAborted, close } = pair();
    await expect(client.request("fail", {})).rejects.toThrow("no such line");
    const controller = new AbortController();
    const waiting = client.request("wait", {}, { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
    await expect.poll(wasAborted).toBe(true);
    close();
  });

  it("after a crash, stops the old worker, fails what was pending, ignores what it still sends and makes a new one", async () => {
    // A fake worker: the test fires its error and sends its late messages by hand.
    const made: { terminated: boolean; posted: unknown[]; fire(type: string, event: unknown): void }[] = [];
    const client = new RpcClient<TestProtocol, string>(() => {
      const listeners = new Map<string, ((event: never) => void)[]>();
      const worker = {
        terminated: false,
        posted: [] as unknown[],
        fire: (type: string, event: unknown) => {
          for (const listener of listeners.get(type) ?? []) (listener as (event: unknown) => void)(event);
        },
        postMessage: (message: unknown) => worker.posted.push(message),
        addEventListener: (type: string, listener: (event: never) => void) =>
          listeners.set(type, [...(listeners.get(type) ?? []), listener]),
        terminate: () => {
          worker.terminated = true;
        },
      };
      made.push(worker);
      return worker;
    });
    const events: string[] = [];
    client.onEvent((event) => events.push(event));
    const pending = client.request("double", { n: 1 });
    const first = made[0];
    if (!first) throw new Error("no worker was made");
    first.fire("error", { message: "boom", preventDefault: () => {} });
    await expect(pending).rejects.toThrow("the worker crashed: boom");
    expect(first.terminated).toBe(true);

    // What the old worker still sends (an answer to the failed request, an event) is not heard.
    first.fire("message", { data: { type: "result", id: 1, result: 2 } });
    first.fire("message", { data: { type: "event", event: "stale session" } });
    expect(events).toEqual([]);

    const next = client.request("double", { n: 2 });
    expect(made).toHaveLength(2);
    const second = made[1];
    if (!second) throw new Error("no second worker was made");
    expect(second.posted).toEqual([{ type: "request", id: 2, method: "double", params: { n: 2 } }]);
    // A message that is not an envelope (a setup message) is someone else's, not an answer.
    second.fire("message", { data: { type: "pool", ports: [] } });
    second.fire("message", { data: { type: "result", id: 2, result: 4 } });
    expect(await next).toBe(4);
    second.fire("message", { data: { type: "event", event: "session" } });
    expect(events).toEqual(["session"]);
  });

  it("a server ignores messages that are not requests or cancels", async () => {
    const channel = new MessageChannel();
    const calls: number[] = [];
    serve<TestProtocol>(endpoint(channel.port2), {
      double: ({ n }) => {
        calls.push(n);
        return n * 2;
      },
      count: () => "",
      wait: () => null,
      fail: () => null,
    });
    const client = new RpcClient<TestProtocol>(() => endpoint(channel.port1));
    channel.port1.postMessage({ type: "request", id: "not a number", method: "double", params: { n: 9 } });
    channel.port1.postMessage({ type: "beat", on: true });
    expect(await client.request("double", { n: 3 })).toBe(6);
    expect(calls).toEqual([3]);
    channel.port1.close();
  });
});
