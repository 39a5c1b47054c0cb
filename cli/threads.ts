/**
 * `verify` and `triage` on every core (issue 21, item 2). The main thread reads the file and splits it
 * into lines (lib/jsonl readRawLines, the first half of readJsonl); batches of raw lines go, transferred, to
 * worker threads, which decode and parse each line with lib/jsonl lineItem (readJsonl's second half) and run
 * the command's own LineWork on it, the one function the single-thread path runs; the answers come back
 * tagged with their batch's sequence number and are given out in file order. At most
 * IN_FLIGHT_PER_THREAD batches per worker are out at once, so memory stays flat whatever the file's size.
 *
 * Workers run the same TypeScript sources: a worker cannot start on a .ts file in Node 20 even with the
 * parent's `--import tsx` in its execArgv ("Unknown file extension"), so its entry is a one-line bootstrap
 * that registers tsx's loader in the worker and then imports cli/threads-worker.ts.
 */
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { type JsonlItem, type RawLine, readJsonl, readRawLines } from "../lib/jsonl";
import { onInterrupt } from "./interrupt";
import { openFileStream } from "./open";

/**
 * Input bytes below which the default stays one thread: starting the workers (each loads the command's
 * modules through tsx and opens the sources) costs about what the second core saves on a file this size
 * (bench/cli-threads.md: `npm run bench:cli-threads`).
 */
export const PARALLEL_MIN_BYTES = 64 * 1024 * 1024;

/**
 * Raw bytes per batch: a few lines of a typical file (20-90 KiB a rollout, some milliseconds of work each),
 * hundreds of short ones; small enough that the workers share the work evenly and little is in flight.
 */
export const BATCH_BYTES = 256 * 1024;

/** Batches out per worker: one being worked on, one waiting, so a worker never idles on the main thread. */
const IN_FLIGHT_PER_THREAD = 2;

/** The most `--threads` takes: more threads than this only add memory. */
export const MAX_THREADS = 64;

/** The commands that run their lines in worker threads (cli/threads-worker.ts loads them by this name). */
export type ThreadedCommand = "verify" | "triage";

/** A command's work on one line: the same function in the main thread (--threads 1) and in every worker. */
export interface LineWork<R> {
  /** Keep each line's raw bytes on its item (`text:` filter clauses read them). */
  readonly keepBytes: boolean;
  /** One line's answer, from the line as readJsonl gives it and the index of its source. */
  line(item: JsonlItem, source: number): R;
}

/** The --threads paragraph of a command's help, its text starting at `column` as the command's others do. */
export function threadsHelp(column: number): string {
  const indent = " ".repeat(column);
  return [
    `  ${"--threads N".padEnd(column - 2)}worker threads that read the lines (output identical, in line order);`,
    `${indent}1 = this thread only. Default: one per core for inputs of`,
    `${indent}${PARALLEL_MIN_BYTES / 1024 / 1024} MiB or more, else 1`,
  ].join("\n");
}

/** `--threads`: a whole number from 1 to MAX_THREADS, or null when not given. */
export function readThreads(
  value: string | undefined,
): { ok: true; threads: number | null } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, threads: null };
  const threads = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS) return { ok: true, threads };
  return {
    ok: false,
    error: `--threads must be a whole number from 1 to ${MAX_THREADS}, not ${JSON.stringify(value)}`,
  };
}

/** The threads a command uses: `--threads`, else one per core when its inputs hold PARALLEL_MIN_BYTES. */
export async function threadCount(given: number | null, paths: readonly string[]): Promise<number> {
  if (given !== null) return given;
  let bytes = 0;
  for (const path of paths) {
    // A FIFO or a missing file counts nothing: the command reports the missing one itself.
    const info = await stat(path).catch(() => null);
    if (info?.isFile()) bytes += info.size;
  }
  return bytes >= PARALLEL_MIN_BYTES ? availableParallelism() : 1;
}

/** Main thread -> worker: one batch of raw lines, their bytes back to back in `bytes`. */
export interface BatchMessage {
  readonly seq: number;
  readonly source: number;
  readonly bytes: ArrayBuffer;
  /** Per line: line number, offset, length, stored byte count, oversized (1/0): META_FIELDS numbers. */
  readonly meta: Float64Array;
}

/** Worker -> main thread: a batch's answers, in line order (blank lines have none), or why it failed. */
export type AnswerMessage =
  | { readonly seq: number; readonly answers: readonly unknown[] }
  | { readonly seq: number; readonly error: string };

export const META_FIELDS = 5;

/** The raw lines of a batch, as the main thread's splitter gave them (their bytes views on `bytes`). */
export function unpackBatch(bytes: ArrayBuffer, meta: Float64Array): RawLine[] {
  const lines: RawLine[] = [];
  let at = 0;
  for (let i = 0; i < meta.length; i += META_FIELDS) {
    const stored = meta[i + 3]!;
    lines.push({
      line: meta[i]!,
      offset: meta[i + 1]!,
      length: meta[i + 2]!,
      bytes: new Uint8Array(bytes, at, stored),
      oversized: meta[i + 4] === 1,
    });
    at += stored;
  }
  return lines;
}

function packBatch(
  lines: readonly RawLine[],
  size: number,
): { bytes: ArrayBuffer; meta: Float64Array; transfer: ArrayBuffer[] } {
  const bytes = new ArrayBuffer(size);
  const view = new Uint8Array(bytes);
  const metaBytes = new ArrayBuffer(lines.length * META_FIELDS * Float64Array.BYTES_PER_ELEMENT);
  const meta = new Float64Array(metaBytes);
  let at = 0;
  lines.forEach((raw, i) => {
    view.set(raw.bytes, at);
    at += raw.bytes.length;
    meta.set([raw.line, raw.offset, raw.length, raw.bytes.length, raw.oversized ? 1 : 0], i * META_FIELDS);
  });
  return { bytes, meta, transfer: [bytes, metaBytes] };
}

/** The worker's entry: tsx's loader registered in the worker, then the TypeScript module imported. */
function workerBootstrap(): string {
  const entry = new URL("./threads-worker.ts", import.meta.url).href;
  // Resolved here, from this file: the worker's own resolution would start from the working directory.
  const tsx = import.meta.resolve("tsx/esm/api");
  return `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
}

interface Slot {
  readonly worker: Worker;
  busy: number;
}

interface Waiting {
  resolve(answers: readonly unknown[]): void;
  reject(error: Error): void;
  readonly slot: Slot;
}

/**
 * Worker threads that each run a command's LineWork, built in the worker from the same arguments
 * (cli/threads-worker.ts). `close` ends them; an interrupt terminates them before the process exits.
 */
export class LinePool<R> {
  private readonly slots: Slot[];
  private readonly waiting = new Map<number, Waiting>();
  private nextSeq = 0;
  private failure: Error | null = null;
  private readonly forget: () => void;

  constructor(command: ThreadedCommand, argv: readonly string[], threads: number) {
    const bootstrap = workerBootstrap();
    this.slots = Array.from({ length: threads }, () => {
      const worker = new Worker(bootstrap, { eval: true, workerData: { command, argv: [...argv] } });
      const slot: Slot = { worker, busy: 0 };
      worker.on("message", (message: AnswerMessage) => this.answer(message));
      worker.on("error", (error) => this.fail(slot, error));
      worker.on("exit", (code) => this.fail(slot, new Error(`a worker thread exited (${code})`)));
      return slot;
    });
    this.forget = onInterrupt(() => {
      for (const { worker } of this.slots) void worker.terminate();
    });
  }

  /** Ends every worker. */
  async close(): Promise<void> {
    this.forget();
    this.failure ??= new Error("the worker threads were closed");
    await Promise.all(this.slots.map(({ worker }) => worker.terminate()));
  }

  /**
   * Every line of `path` through the workers, in file order: the answers of the lines read before a read
   * failure (damaged gzip data, a failing source) come first, then its error is thrown as readJsonl throws it.
   */
  async *lines(path: string, source: number): AsyncGenerator<R> {
    const stream = await openFileStream(path);
    const raw = readRawLines(stream)[Symbol.asyncIterator]();
    const out: Promise<readonly unknown[]>[] = [];
    const reading: { done: boolean; failed: { error: unknown } | null } = { done: false, failed: null };
    let pending: RawLine[] = [];
    let pendingBytes = 0;
    const send = () => {
      if (pending.length === 0) return;
      const answers = this.send(source, pending, pendingBytes);
      // Handled when its turn comes; until then a failed batch must not count as an unhandled rejection.
      answers.catch(() => {});
      out.push(answers);
      pending = [];
      pendingBytes = 0;
    };
    // Reads chunks until at least one more batch is out; at the end of the file (or a read failure), the rest.
    const fill = async () => {
      const before = out.length;
      while (!reading.done && out.length === before) {
        try {
          const next = await raw.next();
          if (next.done) reading.done = true;
          // readRawLines ends with a damage item only when asked to (gzipDamage "item"), never here.
          else if (next.value.damage === undefined) {
            for (const line of next.value.lines) {
              pending.push(line);
              pendingBytes += line.bytes.length;
              if (pendingBytes >= BATCH_BYTES) send();
            }
          }
        } catch (error) {
          reading.failed = { error };
          reading.done = true;
        }
      }
      if (reading.done) send();
    };
    try {
      const limit = this.slots.length * IN_FLIGHT_PER_THREAD;
      for (;;) {
        while (!reading.done && out.length < limit) await fill();
        const first = out.shift();
        if (first === undefined) break;
        // Answers come from this pool's workers, which ran this command's LineWork<R> on each line.
        for (const answer of await first) yield answer as R;
      }
      if (reading.failed !== null) throw reading.failed.error;
    } finally {
      // An early end (a consumer's break, an error) closes the file; answers still out are dropped.
      if (!reading.done) await raw.return?.(undefined).catch(() => {});
    }
  }

  private send(source: number, lines: readonly RawLine[], size: number): Promise<readonly unknown[]> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const seq = this.nextSeq++;
    const { bytes, meta, transfer } = packBatch(lines, size);
    const slot = this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
    slot.busy++;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject, slot });
      const message: BatchMessage = { seq, source, bytes, meta };
      slot.worker.postMessage(message, transfer);
    });
  }

  private answer(message: AnswerMessage): void {
    const waiting = this.waiting.get(message.seq);
    if (waiting === undefined) return;
    this.waiting.delete(message.seq);
    waiting.slot.busy--;
    if ("error" in message) waiting.reject(new Error(message.error));
    else waiting.resolve(message.answers);
  }

  /** A worker that failed or ended fails its batches and the pool: no line is ever silently dropped. */
  private fail(slot: Slot, error: Error): void {
    this.failure ??= error;
    for (const [seq, waiting] of this.waiting) {
      if (waiting.slot !== slot) continue;
      this.waiting.delete(seq);
      waiting.reject(error);
    }
  }
}

/**
 * Every line of `path` through `work`, in file order: in this thread (readJsonl, as before threads), or
 * through `pool`'s workers. Read failures are thrown as readJsonl throws them, after the lines before them.
 */
export async function* linesOf<R>(
  path: string,
  source: number,
  work: LineWork<R>,
  pool: LinePool<R> | null,
): AsyncGenerator<R> {
  if (pool !== null) {
    yield* pool.lines(path, source);
    return;
  }
  const stream = await openFileStream(path);
  for await (const item of readJsonl(stream, { keepBytes: work.keepBytes })) yield work.line(item, source);
}
