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
});
