/**
 * The search scheduler: a dataset's rollout lines cut into byte ranges (./search.ts) and sent to the pool a
 * few at a time per worker, matches reported as they come. The scanning itself is ./search.ts's, in the pool.
 */
import type { Pool } from "./pool";
import { filterProbe, type LineSpan, lineAt, linesWithin, mayContain, splitRanges } from "./search";
import { type BlobPart, cancelled, type Dataset } from "./store";

/**
 * Bytes per search job: each pool worker reads and scans about this much at a time. Reading a File slice has
 * a fixed cost of several ms in Chromium, so later ranges are large; the first range of each pool worker is
 * small, so the first matches come back within tens of ms (bench/browser.md).
 */
export const SEARCH_CHUNK_BYTES = 32 * 1024 * 1024;
export const SEARCH_FIRST_CHUNK_BYTES = 4 * 1024 * 1024;
/** Search jobs in flight per pool worker: the next range is queued while one is scanned, no more, so a new query does not wait behind a whole file of old jobs. */
export const SEARCH_JOBS_PER_WORKER = 2;
/** Partial search results are sent at most this often (the first at once): each one re-filters the page's list. */
export const SEARCH_PROGRESS_MS = 100;
/**
 * When search filters leave only some lines, two candidate lines are read in one range only if at most
 * this many bytes lie between them (reading a little more beats another job).
 */
export const SEARCH_MAX_GAP_BYTES = 256 * 1024;

/** Bytes per search job, and most bytes read between two candidate lines (tests use small ones). */
export interface SearchLimits {
  chunkBytes: number;
  maxGapBytes: number;
}

export function defaultSearchLimits(): SearchLimits {
  return { chunkBytes: SEARCH_CHUNK_BYTES, maxGapBytes: SEARCH_MAX_GAP_BYTES };
}

/**
 * Rollout lines whose raw text contains `text` (case-insensitive), found by the pool a byte range at a
 * time; matches are reported as they come (the first at once, then at most every SEARCH_PROGRESS_MS). A
 * cancelled search (a newer query) sends no more ranges to the pool.
 */
export async function searchDataset(
  dataset: Dataset,
  text: string,
  pool: Pick<Pool, "size" | "search">,
  limits: SearchLimits,
  signal: AbortSignal,
  progress: (partial: { lines: number[] }) => void,
): Promise<{ lines: number[] }> {
  if (text === "") return { lines: [] };
  // Lines whose search filter says they cannot hold the text are not read (a line without a filter yet,
  // its rewards pending, is read).
  const probe = filterProbe(text);
  const spans: LineSpan<BlobPart>[] = [];
  for (const line of dataset.lines()) {
    const filter = probe === null ? undefined : dataset.searchFilters.get(line);
    if (probe !== null && filter !== undefined && !mayContain(filter, probe)) continue;
    const at = dataset.position(line);
    const part = at === null ? null : dataset.partAt(at.offset);
    if (at !== null && part !== null)
      spans.push({ line, start: at.offset, end: at.offset + at.length, part });
  }
  const ranges = splitRanges(
    spans,
    limits.chunkBytes,
    probe === null ? Number.POSITIVE_INFINITY : limits.maxGapBytes,
    { count: pool.size, maxBytes: Math.min(SEARCH_FIRST_CHUNK_BYTES, limits.chunkBytes) },
  );
  const found = new Set<number>();
  let sent = 0;
  let lastSent = Number.NEGATIVE_INFINITY;
  let next = 0;
  const lane = async () => {
    for (let range = ranges[next++]; range !== undefined; range = ranges[next++]) {
      if (signal.aborted) throw cancelled();
      const { part, start, end } = range;
      const hits = await pool.search({
        blob: part.blob,
        start: start - part.start,
        end: end - part.start,
        base: start,
        text,
        // Only the candidate lines are scanned, each up to its first match.
        lines: linesWithin(spans, range),
      });
      if (signal.aborted) throw cancelled();
      for (const hit of hits) {
        const line = lineAt(spans, hit);
        if (line !== null) found.add(line);
      }
      const now = Date.now();
      if (found.size > sent && (sent === 0 || now - lastSent >= SEARCH_PROGRESS_MS)) {
        sent = found.size;
        lastSent = now;
        progress({ lines: [...found] });
      }
    }
  };
  const lanes = Math.max(1, Math.min(ranges.length, pool.size * SEARCH_JOBS_PER_WORKER));
  await Promise.all(Array.from({ length: lanes }, lane));
  if (signal.aborted) throw cancelled();
  return { lines: [...found].sort((a, b) => a - b) };
}

/** Answers kept for a text searched again (the run view asks for the text the list has just searched). */
export const SEARCH_ANSWERS_KEPT = 8;

type Progress = (partial: { lines: number[] }) => void;

interface SharedRun {
  readonly controller: AbortController;
  readonly listeners: Set<Progress>;
  latest: { lines: number[] } | null;
  answer: Promise<{ lines: number[] }>;
  done: boolean;
}

/**
 * One pool search per text and dataset, whoever asks: the list's search box and the run view's text clause
 * ask for the same text at once, and two searches of a file share its reads and its two cores (each took
 * twice as long). A caller that joins a running search gets its matches so far, then the rest; the search
 * stops only when every caller has cancelled. The last few answers are kept: the lines of a file do not
 * change unless it grows, which is part of the key.
 */
export class SharedSearches {
  private readonly runs = new Map<string, SharedRun>();
  /** Searches reading the file now. */
  private running = 0;
  /** whenIdle's callers, resolved when the last running search ends. */
  private waiting: (() => void)[] = [];

  constructor(
    private readonly run: (
      dataset: Dataset,
      text: string,
      signal: AbortSignal,
      progress: Progress,
    ) => Promise<{ lines: number[] }>,
    /** Called when the last running search ends (work that waited for the searches may go on). */
    private readonly idle: () => void = () => {},
  ) {}

  /** Whether a search is reading the file now. */
  busy(): boolean {
    return this.running > 0;
  }

  /** Resolves once no search is reading the file (at once when none is). */
  whenIdle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  search(
    dataset: Dataset,
    text: string,
    signal: AbortSignal,
    progress: Progress,
  ): Promise<{ lines: number[] }> {
    if (signal.aborted) return Promise.reject(cancelled());
    const key = JSON.stringify([dataset.id, dataset.lineCount, dataset.entries.size, text]);
    let shared = this.runs.get(key);
    if (shared?.done) {
      // Most recently used last: the oldest answers are dropped first.
      this.runs.delete(key);
      this.runs.set(key, shared);
      return shared.answer;
    }
    if (!shared) shared = this.start(key, dataset, text);
    const run = shared;
    const listener: Progress = (partial) => progress(partial);
    run.listeners.add(listener);
    if (run.latest !== null) progress(run.latest);
    return new Promise((resolve, reject) => {
      const leave = () => {
        signal.removeEventListener("abort", onAbort);
        run.listeners.delete(listener);
      };
      const onAbort = () => {
        leave();
        if (run.listeners.size === 0 && !run.done) {
          run.controller.abort();
          if (this.runs.get(key) === run) this.runs.delete(key);
        }
        reject(cancelled());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      run.answer.then(
        (answer) => {
          leave();
          resolve(answer);
        },
        (error: unknown) => {
          leave();
          reject(error);
        },
      );
    });
  }

  private start(key: string, dataset: Dataset, text: string): SharedRun {
    const run: SharedRun = {
      controller: new AbortController(),
      listeners: new Set(),
      latest: null,
      answer: Promise.resolve({ lines: [] }),
      done: false,
    };
    run.answer = this.run(dataset, text, run.controller.signal, (partial) => {
      run.latest = partial;
      for (const listener of run.listeners) listener(partial);
    });
    this.runs.set(key, run);
    this.running++;
    const ended = () => {
      this.running--;
      if (this.running === 0) {
        this.idle();
        for (const resolve of this.waiting.splice(0)) resolve();
      }
    };
    run.answer.then(ended, ended);
    run.answer.then(
      () => {
        run.done = true;
        const done = [...this.runs].filter(([, other]) => other.done);
        for (const [old] of done.slice(0, Math.max(0, done.length - SEARCH_ANSWERS_KEPT)))
          this.runs.delete(old);
      },
      () => {
        if (this.runs.get(key) === run) this.runs.delete(key);
      },
    );
    return run;
  }
}
