/**
 * `verify` and `triage` on every core (issue 21, item 2). The main thread reads the file and splits it
 * into lines (lib/jsonl readRawLines, the first half of readJsonl) and cuts them into batches. A batch goes,
 * transferred, to a worker thread with room, else stays in the main thread; either decodes and parses each
 * line with lib/jsonl lineItem (readJsonl's second half) and runs the command's own LineWork on it, the one
 * function the single-thread path runs. The answers are given out in file order. At most
 * IN_FLIGHT_PER_THREAD batches per worker and AHEAD_IN_THIS_THREAD in the main thread are out at once, so
 * memory stays flat whatever the file's size.
 *
 * Workers run the same TypeScript sources, bundled into one ES module by esbuild at the start (workerScript):
 * a worker cannot start on a .ts file in Node 20, and one that loads tsx starts a loader thread of its own
 * and sends every module through it (about a second of CPU per worker).
 */
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { type JsonlItem, lineItem, type RawLine, readJsonl, readRawLines } from "../lib/jsonl";
import { onInterrupt } from "./interrupt";
import { openFileStream } from "./open";

/**
 * Input bytes below which the default stays one thread: starting the workers (the bundle, then each
 * worker's modules and sources) costs about what the second core saves on a file this size
 * (bench/cli-threads.md: `npm run bench:cli-threads`).
 */
export const PARALLEL_MIN_BYTES = 64 * 1024 * 1024;

/**
 * Raw bytes per batch: a few lines of a typical file (20-90 KiB a rollout, some milliseconds of work each),
 * hundreds of short ones; small enough that the workers share the work evenly and little is in flight.
 */
export const BATCH_BYTES = 256 * 1024;

/**
 * Batches out per worker: one being worked on and some waiting, so a worker never idles while the main
 * thread works on a batch of its own before it hands out the next.
 */
const IN_FLIGHT_PER_THREAD = 4;

/**
 * Batches this thread may hold besides the workers': it works on them, in any order, while it waits for a
 * worker's answer, so it keeps busy for as long as the workers' batches ahead of them take.
 */
const AHEAD_IN_THIS_THREAD = 16;

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
    `  ${"--threads N".padEnd(column - 2)}threads that read the lines: this one and N-1 workers (output identical,`,
    `${indent}in line order); 1 = this thread only. Default: one per core for inputs of`,
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

/** Worker -> main thread, once: its LineWork is built (batches may come), or why it could not be. */
export type ReadyMessage = { readonly ready: true } | { readonly ready: false; readonly error: string };

export type WorkerMessage = AnswerMessage | ReadyMessage;

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

/** The options of node flags that load a module before the program: a loader such as tsx. */
const PRELOAD_FLAGS = ["--import", "--require", "-r", "--loader", "--experimental-loader"];

/** A module named by a preload flag that is tsx (its package or one of its entries). */
function isTsx(specifier: string | undefined): boolean {
  return specifier !== undefined && /(^|[\\/]node_modules[\\/])tsx([\\/]|$)/.test(specifier);
}

/**
 * The workers' node flags: the parent's (so --cpu-prof and the like still reach them) without tsx's loader,
 * which the bundled worker does not need and which would start a loader thread of its own in every worker.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    if (PRELOAD_FLAGS.includes(flag) && isTsx(execArgv[i + 1])) {
      i++;
      continue;
    }
    const eq = flag.indexOf("=");
    if (eq > 0 && PRELOAD_FLAGS.includes(flag.slice(0, eq)) && isTsx(flag.slice(eq + 1))) continue;
    kept.push(flag);
  }
  return kept;
}

let bundled: Promise<URL> | null = null;

/**
 * The workers' code: cli/threads-worker.ts and all it imports in one ES module, bundled once per process by
 * esbuild (the compiler tsx itself runs). A worker that loaded the TypeScript sources through tsx spent about
 * a second of CPU starting (a loader thread of its own, every module through it); the bundle starts in about
 * a tenth of that (bench/cli-threads.md). Built from the sources at each run, so it is never stale.
 */
export function workerScript(): Promise<URL> {
  bundled ??= (async () => {
    // Imported here only: the worker bundle leaves esbuild out (external) and never reaches this line.
    const { build } = await import("esbuild");
    const entry = fileURLToPath(new URL("./threads-worker.ts", import.meta.url));
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      target: `node${process.versions.node}`,
      write: false,
      external: ["esbuild"],
      logLevel: "silent",
      // Bundled CommonJS dependencies require node's built-in modules; an ES module has no `require`.
      banner: {
        js: `import { createRequire } from "node:module"; const require = createRequire(${JSON.stringify(pathToFileURL(entry).href)});`,
      },
    });
    const code = result.outputFiles[0]?.contents;
    if (code === undefined) throw new Error("esbuild gave no bundle for the worker threads");
    return new URL(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  })();
  // A failed build is not kept: the next pool tries again.
  bundled.catch(() => {
    bundled = null;
  });
  return bundled;
}

interface Slot {
  readonly worker: Worker;
  /** It has built its LineWork: batches go to it from then on. */
  ready: boolean;
  busy: number;
}

interface Waiting {
  resolve(answers: readonly unknown[]): void;
  reject(error: Error): void;
  readonly slot: Slot;
}

/** One batch of a file's lines, out in a worker or kept for this thread; its answers are given out in turn. */
interface Batch {
  /** The lines this thread is to work on itself, until it has (null for a worker's batch). */
  mine: readonly RawLine[] | null;
  /** The answers, or why the batch failed, once known. */
  result: { readonly answers: readonly unknown[] } | { readonly error: unknown } | null;
  /** A worker's answer (settles `result`); null for this thread's own batches. */
  answered: Promise<void> | null;
}

/** Whether `error` is a Node system error with this `code`. */
function isErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && "code" in error && error.code === code;
}

/** Lets the workers' answers in: a message is delivered between two turns of the event loop. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `threads` threads on a command's lines: this one and `threads - 1` workers, each running the command's
 * LineWork, built in the worker from the same arguments (cli/threads-worker.ts). This thread reads and
 * splits the file and gives the answers out in order, and works on lines itself whenever the workers have
 * their fill and the next answer is not in yet: the reading and ordering leave most of a core free, and
 * one worker fewer saves its start and the copies of its lines and answers. `close` ends the workers; an
 * interrupt terminates them before the process exits.
 */
export class LinePool<R> {
  private readonly slots: Slot[] = [];
  private readonly workers: number;
  /** The workers are created (or could not be). */
  private readonly started: Promise<void>;
  private readonly readyWaiters: (() => void)[] = [];
  /** Batches given out so far: worked on in this thread, and in the workers. */
  readonly batches = { here: 0, workers: 0 };
  private readonly waiting = new Map<number, Waiting>();
  private nextSeq = 0;
  private failure: Error | null = null;
  private readonly forget: () => void;

  /**
   * `threads` threads (at least 2: this one and a worker) on `command`'s lines, as `argv` asks. The workers
   * start in the background (the bundle, then each worker's own sources): until one is ready, this thread
   * works on every batch itself, so their start costs no wall time.
   */
  constructor(command: ThreadedCommand, argv: readonly string[], threads: number) {
    this.workers = Math.max(1, threads - 1);
    this.started = workerScript()
      .then((script) => {
        if (this.failure !== null) return;
        let execArgv = workerExecArgv(process.execArgv);
        for (let i = 0; i < this.workers; i++) {
          const options = { workerData: { command, argv: [...argv] } };
          let worker: Worker;
          try {
            worker = new Worker(script, { ...options, execArgv });
          } catch (error) {
            // Node refuses process-wide flags in a worker's execArgv (--max-old-space-size, --expose-gc,
            // --title): the workers then run with none of the parent's flags, which the bundle does not need.
            if (!isErrorCode(error, "ERR_WORKER_INVALID_EXEC_ARGV")) throw error;
            execArgv = [];
            worker = new Worker(script, { ...options, execArgv });
          }
          const slot: Slot = { worker, ready: false, busy: 0 };
          worker.on("message", (message: WorkerMessage) => this.answer(slot, message));
          worker.on("error", (error) => this.fail(slot, error));
          worker.on("exit", (code) => this.fail(slot, new Error(`a worker thread exited (${code})`)));
          this.slots.push(slot);
        }
      })
      .catch(
        // The bundle failed, or a worker could not be created: the next batch fails with the reason (never an
        // unhandled rejection, which would end the process before its output and temporary file are dealt with).
        (error: unknown) => {
          this.failure ??= new Error(
            `the worker threads could not start: ${error instanceof Error ? error.message : String(error)}`,
          );
          this.wakeReadyWaiters();
        },
      );
    this.forget = onInterrupt(() => {
      this.failure ??= new Error("interrupted");
      for (const { worker } of this.slots) void worker.terminate();
    });
  }

  /** Resolves once every worker has built its work and takes batches, or the pool failed. */
  async ready(): Promise<void> {
    await this.started;
    if (this.failure !== null || this.slots.every((slot) => slot.ready)) return;
    await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
  }

  private wakeReadyWaiters(): void {
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  /** Ends every worker. */
  async close(): Promise<void> {
    this.forget();
    this.failure ??= new Error("the worker threads were closed");
    await this.started;
    await Promise.all(this.slots.map(({ worker }) => worker.terminate()));
  }

  /**
   * Every line of `path` through `work` (this thread's) and the workers' (the same work), in file order: the
   * answers of the lines read before a read failure (damaged gzip data, a failing source) come first, then
   * its error is thrown as readJsonl throws it.
   */
  async *lines(path: string, source: number, work: LineWork<R>): AsyncGenerator<R> {
    const stream = await openFileStream(path);
    const raw = readRawLines(stream)[Symbol.asyncIterator]();
    const out: Batch[] = [];
    const reading: { done: boolean; failed: { error: unknown } | null } = { done: false, failed: null };
    let pending: RawLine[] = [];
    let pendingBytes = 0;
    const send = () => {
      if (pending.length === 0) return;
      out.push(this.send(source, pending, pendingBytes));
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
    const workOn = (batch: Batch) => {
      if (batch.mine === null) return;
      try {
        batch.result = { answers: answerLines(batch.mine, source, work) };
      } catch (error) {
        batch.result = { error };
      }
      batch.mine = null;
    };
    try {
      const limit = this.workers * IN_FLIGHT_PER_THREAD + AHEAD_IN_THIS_THREAD;
      for (;;) {
        while (!reading.done && out.length < limit) await fill();
        const first = out.shift();
        if (first === undefined) break;
        // While the next answer is a worker's still out, this thread works on its own batches behind it.
        for (;;) {
          if (first.result !== null || first.answered === null) break;
          const mine = out.find((batch) => batch.mine !== null);
          if (mine === undefined) break;
          workOn(mine);
          await nextTurn();
        }
        workOn(first);
        await first.answered;
        const result = first.result;
        if (result === null) throw new Error("a batch of lines was never answered");
        if ("error" in result) throw result.error;
        // The answers of this command's LineWork<R>, in this thread or in this pool's workers.
        for (const answer of result.answers) yield answer as R;
      }
      if (reading.failed !== null) throw reading.failed.error;
    } finally {
      // An early end (a consumer's break, an error) closes the file; answers still out are dropped.
      if (!reading.done) await raw.return?.(undefined).catch(() => {});
    }
  }

  /** A batch out to the least busy ready worker, or kept for this thread when none has room. */
  private send(source: number, lines: readonly RawLine[], size: number): Batch {
    const batch: Batch = { mine: null, result: null, answered: null };
    // A worker that failed fails the next batch, whichever thread it was for: no line is silently dropped.
    if (this.failure !== null) {
      batch.result = { error: this.failure };
      return batch;
    }
    const slot = this.slots
      .filter((s) => s.ready && s.busy < IN_FLIGHT_PER_THREAD)
      .reduce<Slot | null>((a, b) => (a === null || b.busy < a.busy ? b : a), null);
    if (slot === null) {
      batch.mine = lines;
      this.batches.here++;
      return batch;
    }
    const seq = this.nextSeq++;
    const { bytes, meta, transfer } = packBatch(lines, size);
    slot.busy++;
    this.batches.workers++;
    batch.answered = new Promise<readonly unknown[]>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject, slot });
      const message: BatchMessage = { seq, source, bytes, meta };
      slot.worker.postMessage(message, transfer);
    }).then(
      (answers) => {
        batch.result = { answers };
      },
      (error: unknown) => {
        batch.result = { error };
      },
    );
    return batch;
  }

  private answer(slot: Slot, message: WorkerMessage): void {
    if ("ready" in message) {
      if (!message.ready) this.fail(slot, new Error(message.error));
      slot.ready = message.ready;
      if (this.slots.every((s) => s.ready)) this.wakeReadyWaiters();
      return;
    }
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
    this.wakeReadyWaiters();
    for (const [seq, waiting] of this.waiting) {
      if (waiting.slot !== slot) continue;
      this.waiting.delete(seq);
      waiting.reject(error);
    }
  }
}

/** A batch's answers: `work` on every line lib/jsonl lineItem reads from it (blank lines have none). */
export function answerLines<R>(lines: Iterable<RawLine>, source: number, work: LineWork<R>): R[] {
  const answers: R[] = [];
  for (const raw of lines) {
    const item = lineItem(raw, work.keepBytes);
    if (item !== null) answers.push(work.line(item, source));
  }
  return answers;
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
    yield* pool.lines(path, source, work);
    return;
  }
  const stream = await openFileStream(path);
  for await (const item of readJsonl(stream, { keepBytes: work.keepBytes })) yield work.line(item, source);
}
