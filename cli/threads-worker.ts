/**
 * A worker thread of cli/threads.ts: builds the command's LineWork from the command's own arguments (the
 * same parse and sources as the main thread), then answers each batch of raw lines, in order, with the work's
 * answer for every line lib/jsonl lineItem reads from it (blank lines have none).
 */
import { parentPort, workerData } from "node:worker_threads";
import { z } from "zod";
import type { AnswerMessage, BatchMessage, LineWork, ReadyMessage, ThreadedCommand } from "./threads";
import { answerLines, unpackBatch } from "./threads";

const WORK: Record<ThreadedCommand, (argv: readonly string[]) => Promise<LineWork<unknown>>> = {
  verify: async (argv) => (await import("./commands/verify")).threadWork(argv),
  triage: async (argv) => (await import("./commands/triage")).threadWork(argv),
};

const Start = z.object({ command: z.enum(["verify", "triage"]), argv: z.array(z.string()) });

const port = parentPort;
if (port === null) throw new Error("cli/threads-worker.ts runs as a worker thread only");
const start = Start.parse(workerData);
const work = WORK[start.command](start.argv);
// Batches come once the work is built; a worker that cannot build it says why, and gets none.
work.then(
  () => port.postMessage({ ready: true } satisfies ReadyMessage),
  (error: unknown) => port.postMessage({ ready: false, error: messageOf(error) } satisfies ReadyMessage),
);
// Batches are answered one after the other, in the order they came.
let queue: Promise<void> = Promise.resolve();

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A batch's answers; if the work throws on a line, those before it and the error's message. */
function answer(batch: BatchMessage, line: LineWork<unknown>): AnswerMessage {
  const answers: unknown[] = [];
  try {
    answerLines(unpackBatch(batch.bytes, batch.meta), batch.source, line, answers);
  } catch (error) {
    return { seq: batch.seq, answers, error: messageOf(error) };
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
      message = { seq: batch.seq, answers: [], error: messageOf(error) };
    }
    port.postMessage(message);
  });
});
