/**
 * A worker thread of cli/threads.ts: builds the command's LineWork from the command's own arguments (the
 * same parse and sources as the main thread), then answers each batch of raw lines, in order, with the work's
 * answer for every line lib/jsonl lineItem reads from it (blank lines have none).
 */
import { parentPort, workerData } from "node:worker_threads";
import { z } from "zod";
import { lineItem } from "../lib/jsonl";
import type { AnswerMessage, BatchMessage, LineWork, ThreadedCommand } from "./threads";
import { unpackBatch } from "./threads";

const WORK: Record<ThreadedCommand, (argv: readonly string[]) => Promise<LineWork<unknown>>> = {
  verify: async (argv) => (await import("./commands/verify")).threadWork(argv),
  triage: async (argv) => (await import("./commands/triage")).threadWork(argv),
};

const Start = z.object({ command: z.enum(["verify", "triage"]), argv: z.array(z.string()) });

const port = parentPort;
if (port === null) throw new Error("cli/threads-worker.ts runs as a worker thread only");
const start = Start.parse(workerData);
const work = WORK[start.command](start.argv);
// Batches are answered one after the other, in the order they came.
let queue: Promise<void> = Promise.resolve();

function answer(batch: BatchMessage, line: LineWork<unknown>): AnswerMessage {
  const answers: unknown[] = [];
  for (const raw of unpackBatch(batch.bytes, batch.meta)) {
    const item = lineItem(raw, line.keepBytes);
    if (item !== null) answers.push(line.line(item, batch.source));
  }
  return { seq: batch.seq, answers };
}

// Only cli/threads.ts's LinePool posts here, always a BatchMessage.
port.on("message", (batch: BatchMessage) => {
  queue = queue.then(async () => {
    let message: AnswerMessage;
    try {
      message = answer(batch, await work);
    } catch (error) {
      message = { seq: batch.seq, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(message);
  });
});
