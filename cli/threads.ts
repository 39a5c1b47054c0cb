/**
 * `verify` and `triage` on every core (issue 21, item 2). The main thread reads the file and splits it
 * into lines (lib/jsonl readRawLines, the first half of readJsonl) and cuts them into batches. Each worker
 * is kept WORKER_DEPTH batches ahead (transferred, not cloned), so it never waits for this thread; this
 * thread works on a batch of its own only when every worker has its fill, a line at a time, looking at the
 * workers' answers between lines. Both decode and parse each line with lib/jsonl lineItem (readJsonl's
 * second half) and run the command's own LineWork on it, the one function the single-thread path runs. The
 * answers are given out in file order. At most WORKER_DEPTH + AHEAD_PER_WORKER batches per worker are out
 * at once (queued, worked on, or answered and waiting their turn), so memory stays flat whatever the file's
 * size. Workers that cannot start, or that end mid-run, leave their lines to this thread (a warning on
 * stderr says so): the output is the same.
 *
 * Workers run the same TypeScript sources, bundled into one ES module by esbuild at the start (workerScript):
 * a worker cannot start on a .ts file in Node 20, and one that loads tsx starts a loader thread of its own
 * and sends every module through it (about a second of CPU per worker).
 */
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type JsonlItem, lineItem, type RawLine, readJsonl, readRawLines } from "../lib/jsonl";
import { onInterrupt } from "./interrupt";
import type { Sink } from "./io";
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
 * Batches out per worker: one it works on and the next ones waiting, so it never idles while this thread
 * finishes a line of its own before it hands out the next (bench/cli-threads.md).
 */
const WORKER_DEPTH = 3;

/**
 * Batches in order at most, besides the workers' WORKER_DEPTH: answers waiting for an earlier batch and
 * this thread's own. Enough that a worker's answers behind a slow batch never stop its feed.
 */
const AHEAD_PER_WORKER = 8;

/** Line bytes this thread works on between two looks at the workers' answers (and their next batches). */
const TURN_BYTES = 32 * 1024;

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
  /** Per line: line number, offset, length, stored byte count, flags (LINE_OVERSIZED | LINE_UNTERMINATED). */
  readonly meta: Float64Array;
}

/** Worker -> main thread: a batch's answers, in line order (blank lines have none), or why it failed. */
export type AnswerMessage =
  | { readonly seq: number; readonly answers: readonly unknown[] }
  /** The work threw on a line: the answers of the lines before it, and its message. */
  | { readonly seq: number; readonly answers: readonly unknown[]; readonly error: string };

/** Worker -> main thread, once: its LineWork is built (batches may come), or why it could not be. */
export type ReadyMessage = { readonly ready: true } | { readonly ready: false; readonly error: string };

export type WorkerMessage = AnswerMessage | ReadyMessage;

export const META_FIELDS = 5;
const LINE_OVERSIZED = 1;
const LINE_UNTERMINATED = 2;

/** The raw lines of a batch, as the main thread's splitter gave them (their bytes views on `bytes`). */
export function unpackBatch(bytes: ArrayBuffer, meta: Float64Array): RawLine[] {
  const lines: RawLine[] = [];
  let at = 0;
  for (let i = 0; i < meta.length; i += META_FIELDS) {
    const stored = meta[i + 3]!;
    const flags = meta[i + 4]!;
    lines.push({
      line: meta[i]!,
      offset: meta[i + 1]!,
      length: meta[i + 2]!,
      bytes: new Uint8Array(bytes, at, stored),
      oversized: (flags & LINE_OVERSIZED) !== 0,
      ...((flags & LINE_UNTERMINATED) !== 0 ? { unterminated: true } : {}),
    });
    at += stored;
  }
  return lines;
}

export function packBatch(
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
    const flags = (raw.oversized ? LINE_OVERSIZED : 0) | (raw.unterminated ? LINE_UNTERMINATED : 0);
    meta.set([raw.line, raw.offset, raw.length, raw.bytes.length, flags], i * META_FIELDS);
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
 * The workers' code: cli/threads-worker.ts and all it imports in one ES module, bundled by esbuild (the
 * compiler tsx itself runs). A worker that loaded the TypeScript sources through tsx spent about a second of
 * CPU starting (a loader thread of its own, every module through it); the bundle starts in about a tenth of
 * that (bench/cli-threads.md). Kept in `cacheDir` until one of its sources changes (cli/worker-bundle.ts);
 * null builds it in memory.
 */
export async function workerBundle(cacheDir: string | null): Promise<URL> {
  // Imported here only: the worker bundle leaves esbuild out (external) and never reaches this line.
  const { bundleModule } = await import("./worker-bundle");
  const entry = fileURLToPath(new URL("./threads-worker.ts", import.meta.url));
  return (await bundleModule({ entry, cacheDir })).url;
}

/**
 * workerBundle, asked for once per process, kept beside the other tools' caches in node_modules/.cache (a run
 * on several threads then starts no esbuild: bench/cli-threads.md).
 */
export function workerScript(): Promise<URL> {
  bundled ??= workerBundle(
    fileURLToPath(new URL("../node_modules/.cache/rollout-inspector/", import.meta.url)),
  );
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
  /** Its batches not yet answered. */
  out: number;
  /** It failed or ended: it gets no more batches, and its unanswered ones came back to this thread. */
  gone: boolean;
}

/** A batch of a file's lines: out in a worker or this thread's own; its answers are given out in turn. */
interface Batch {
  /** The lines, kept until answered: this thread works on them, or again if the worker they went to ends. */
  lines: readonly RawLine[] | null;
  readonly bytes: number;
  /** The worker it is out to; null while it is this thread's. */
  slot: Slot | null;
  /** This thread's progress on it: lines worked on, their answers. */
  done: number;
  answers: unknown[];
  /** The answers, and the error that stopped them (the work threw on a line), once known. */
  result: { readonly answers: readonly unknown[]; readonly error?: { readonly error: unknown } } | null;
}

/** Whether `error` is a Node system error with this `code`. */
function isErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && "code" in error && error.code === code;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Lets the workers' answers in: a message is delivered between two turns of the event loop. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface LinePoolOptions {
  /** Where the warning goes when workers cannot start or end mid-run (their lines are read here instead). */
  readonly warnings?: Sink;
  /** The workers' code: workerScript() unless a test gives another. */
  readonly script?: () => Promise<URL>;
}

/**
 * `threads` threads on a command's lines: this one and `threads - 1` workers, each running the command's
 * LineWork, built in the worker from the same arguments (cli/threads-worker.ts). This thread reads and
 * splits the file, keeps every worker fed, gives the answers out in order, and works on lines itself
 * whenever the workers have their fill: the reading and ordering leave most of a core free, and one worker
 * fewer saves its start and the copies of its lines and answers. `close` ends the workers; an interrupt
 * terminates them before the process exits.
 */
export class LinePool<R> {
  private readonly slots: Slot[] = [];
  private readonly workers: number;
  /** The workers are created (or could not be). */
  private readonly started: Promise<void>;
  /** Batches worked on so far: in this thread, and in the workers. */
  readonly batches = { here: 0, workers: 0 };
  private readonly waiting = new Map<number, Batch>();
  private nextSeq = 0;
  private closed = false;
  private readonly warned = new Set<string>();
  private readonly warnings: Sink | null;
  /** Wakes this thread when it waits for a worker: an answer, a worker ready, or one gone. */
  private wake: (() => void) | null = null;
  private readonly forget: () => void;

  /**
   * `threads` threads (at least 2: this one and a worker) on `command`'s lines, as `argv` asks. The workers
   * start in the background (the bundle, then each worker's own sources): until one is ready, this thread
   * works on every batch itself, so their start costs no wall time, and if none can start it reads every
   * line itself.
   */
  constructor(
    private readonly command: ThreadedCommand,
    argv: readonly string[],
    threads: number,
    options: LinePoolOptions = {},
  ) {
    this.workers = Math.max(1, threads - 1);
    this.warnings = options.warnings ?? null;
    this.started = (options.script ?? workerScript)()
      .then((script) => {
        if (this.closed) return;
        let execArgv = workerExecArgv(process.execArgv);
        for (let i = 0; i < this.workers; i++) {
          const workerOptions = { workerData: { command, argv: [...argv] } };
          let worker: Worker;
          try {
            worker = new Worker(script, { ...workerOptions, execArgv });
          } catch (error) {
            // Node refuses process-wide flags in a worker's execArgv (--max-old-space-size, --expose-gc,
            // --title): the workers then run with none of the parent's flags, which the bundle does not need.
            if (!isErrorCode(error, "ERR_WORKER_INVALID_EXEC_ARGV")) throw error;
            execArgv = [];
            worker = new Worker(script, { ...workerOptions, execArgv });
          }
          const slot: Slot = { worker, ready: false, out: 0, gone: false };
          worker.on("message", (message: WorkerMessage) => this.answer(slot, message));
          worker.on("error", (error) => this.drop(slot, error));
          worker.on("exit", (code) => this.drop(slot, new Error(`it exited (${code})`)));
          this.slots.push(slot);
        }
      })
      .catch(
        // The bundle failed (esbuild is a development dependency), or a worker could not be created: this
        // thread reads every line (never an unhandled rejection, which would end the process mid-output).
        (error: unknown) => this.warn(`the worker threads could not start (${messageOf(error)})`),
      );
    this.forget = onInterrupt(() => {
      this.closed = true;
      for (const { worker } of this.slots) void worker.terminate();
    });
  }

  /** Resolves once every worker has built its work and takes batches, or could not. */
  async ready(): Promise<void> {
    await this.started;
    while (!this.slots.every((slot) => slot.ready || slot.gone)) await this.changed();
  }

  /** Ends every worker. */
  async close(): Promise<void> {
    this.forget();
    this.closed = true;
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
    const reading = {
      done: false,
      failed: null as { error: unknown } | null,
      /** Lines read, not yet in a batch. */
      lines: [] as RawLine[],
      bytes: 0,
    };
    // The next batch of lines, or null once every line is in one (at the end of the file or a read failure).
    const cut = async (): Promise<Batch | null> => {
      while (!reading.done && reading.bytes < BATCH_BYTES) {
        try {
          const next = await raw.next();
          if (next.done) reading.done = true;
          // readRawLines ends with a damage item only when asked to (gzipDamage "item"), never here.
          else if (next.value.damage === undefined) {
            for (const line of next.value.lines) {
              reading.lines.push(line);
              reading.bytes += line.bytes.length;
            }
          }
        } catch (error) {
          reading.failed = { error };
          reading.done = true;
        }
      }
      if (reading.lines.length === 0) return null;
      let count = 0;
      let bytes = 0;
      while (count < reading.lines.length && bytes < BATCH_BYTES)
        bytes += reading.lines[count++]!.bytes.length;
      reading.bytes -= bytes;
      const lines = reading.lines.splice(0, count);
      return { lines, bytes, slot: null, done: 0, answers: [], result: null };
    };
    const queue: Batch[] = [];
    const limit = this.workers * (WORKER_DEPTH + AHEAD_PER_WORKER);
    let sinceTurn = 0;
    try {
      for (;;) {
        // Every worker with room gets its next batches first: it must never wait for this thread.
        for (let slot = this.hungry(); slot !== null && queue.length < limit; slot = this.hungry()) {
          const batch = await cut();
          if (batch === null) break;
          queue.push(batch);
          // The worker may have gone while the file was read: the batch then stays this thread's.
          if (!slot.gone) this.post(slot, batch, source);
        }
        const head = queue[0];
        if (head !== undefined && head.result !== null) {
          queue.shift();
          // The answers of this command's LineWork<R>, in this thread or in this pool's workers.
          for (const answer of head.result.answers) yield answer as R;
          if (head.result.error !== undefined) throw head.result.error.error;
          continue;
        }
        // This thread's own lines, the earliest batch first, a line at a time, between looks at the workers.
        const mine = queue.find((batch) => batch.slot === null && batch.result === null);
        if (mine !== undefined) {
          sinceTurn += this.workOn(mine, source, work);
          if (sinceTurn >= TURN_BYTES) {
            sinceTurn = 0;
            await nextTurn();
          }
          continue;
        }
        // Every worker has its fill (or there is none): a batch for this thread.
        if (queue.length < limit) {
          const batch = await cut();
          if (batch !== null) {
            queue.push(batch);
            continue;
          }
        }
        if (head === undefined) break;
        // The head is a worker's: nothing to do until an answer comes (or a worker goes).
        await this.changed();
      }
      if (reading.failed !== null) throw reading.failed.error;
    } finally {
      // An early end (a consumer's break, an error) closes the file; answers still out are dropped.
      for (const batch of queue) batch.lines = null;
      if (!reading.done) await raw.return?.(undefined).catch(() => {});
    }
  }

  /** One line of this thread's own batch through `work`: its bytes. */
  private workOn(batch: Batch, source: number, work: LineWork<R>): number {
    const lines = batch.lines;
    if (lines === null) return 0;
    const raw = lines[batch.done++];
    if (raw !== undefined) {
      try {
        const item = lineItem(raw, work.keepBytes);
        if (item !== null) batch.answers.push(work.line(item, source));
      } catch (error) {
        batch.result = { answers: batch.answers, error: { error } };
      }
    }
    if (batch.result === null && batch.done >= lines.length) batch.result = { answers: batch.answers };
    if (batch.result !== null) {
      batch.lines = null;
      this.batches.here++;
    }
    return raw?.bytes.length ?? 0;
  }

  /** The ready worker with the fewest batches out, if it has room for one more. */
  private hungry(): Slot | null {
    let best: Slot | null = null;
    for (const slot of this.slots) {
      if (!slot.ready || slot.gone || slot.out >= WORKER_DEPTH) continue;
      if (best === null || slot.out < best.out) best = slot;
    }
    return best;
  }

  private post(slot: Slot, batch: Batch, source: number): void {
    const lines = batch.lines;
    if (lines === null) return;
    const seq = this.nextSeq++;
    const { bytes, meta, transfer } = packBatch(lines, batch.bytes);
    batch.slot = slot;
    slot.out++;
    this.waiting.set(seq, batch);
    const message: BatchMessage = { seq, source, bytes, meta };
    slot.worker.postMessage(message, transfer);
  }

  /** Resolves at the next answer, worker ready or worker gone. */
  private changed(): Promise<void> {
    return new Promise((resolve) => {
      const before = this.wake;
      this.wake = () => {
        before?.();
        resolve();
      };
    });
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private answer(slot: Slot, message: WorkerMessage): void {
    if ("ready" in message) {
      if (message.ready) slot.ready = true;
      else this.drop(slot, new Error(message.error));
      this.poke();
      return;
    }
    const batch = this.waiting.get(message.seq);
    if (batch === undefined) return;
    this.waiting.delete(message.seq);
    slot.out--;
    this.batches.workers++;
    batch.lines = null;
    batch.result =
      "error" in message
        ? { answers: message.answers, error: { error: new Error(message.error) } }
        : { answers: message.answers };
    this.poke();
  }

  /**
   * A worker that failed or ended (not by close): it gets no more batches, and its unanswered ones are this
   * thread's again, from their first line. No line is ever dropped, and the output is the same.
   */
  private drop(slot: Slot, error: Error): void {
    if (slot.gone || this.closed) return;
    slot.gone = true;
    void slot.worker.terminate();
    for (const [seq, batch] of this.waiting) {
      if (batch.slot !== slot) continue;
      this.waiting.delete(seq);
      batch.slot = null;
    }
    slot.out = 0;
    this.warn(
      slot.ready
        ? `a worker thread ended (${error.message}): its lines are read on this thread`
        : `a worker thread could not start (${error.message})`,
    );
    this.poke();
  }

  /** One warning on stderr per kind of failure: the run goes on, on fewer threads. */
  private warn(text: string): void {
    const line = `warning: ${this.command}: ${text}\n`;
    if (this.warned.has(line)) return;
    this.warned.add(line);
    void this.warnings?.write(line);
  }
}

/**
 * `work` on every line lib/jsonl lineItem reads from `lines` (blank lines have none), each answer pushed to
 * `answers` as it comes, so those before a line the work throws on are kept.
 */
export function answerLines<R>(
  lines: Iterable<RawLine>,
  source: number,
  work: LineWork<R>,
  answers: R[],
): void {
  for (const raw of lines) {
    const item = lineItem(raw, work.keepBytes);
    if (item !== null) answers.push(work.line(item, source));
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
    yield* pool.lines(path, source, work);
    return;
  }
  const stream = await openFileStream(path);
  for await (const item of readJsonl(stream, { keepBytes: work.keepBytes })) yield work.line(item, source);
}
