/**
 * Talking to a page's workers over the page's CDP session (Target.setAutoAttach, not flattened): the
 * DevTools Profiler in each worker, for bench/profile-rewards.ts and bench/pool-worker.ts.
 */
import type { CDPSession } from "@playwright/test";
import { z } from "zod";

export const Attached = z.object({
  sessionId: z.string(),
  targetInfo: z.object({ title: z.string(), type: z.string() }),
});
const Message = z.object({ sessionId: z.string(), message: z.string() });
const Reply = z.object({ id: z.number(), result: z.unknown().optional(), error: z.unknown().optional() });

/** Sends a CDP command to an attached worker (by its session id) and resolves to its result or error. */
export type ToWorker = (sessionId: string, method: string, params?: object) => Promise<unknown>;

export function workerChannel(cdp: CDPSession): ToWorker {
  const waiting = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  cdp.on("Target.receivedMessageFromTarget", (event) => {
    const message = Message.safeParse(event);
    if (!message.success) return;
    const reply = Reply.safeParse(JSON.parse(message.data.message));
    if (reply.success) waiting.get(reply.data.id)?.(reply.data.result ?? reply.data.error ?? null);
  });
  return (sessionId, method, params = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      void cdp.send("Target.sendMessageToTarget", {
        sessionId,
        message: JSON.stringify({ id, method, params }),
      });
    });
}
