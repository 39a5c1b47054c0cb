/**
 * Reading sources into the store: a local file, a bundled sample or a served file is opened and its rows
 * indexed into a new dataset (./store.ts ingest, batch by batch in the pool); a served file is then followed
 * as it grows, and a local file picked again, grown, has its new lines appended to the open one.
 */
import { noRolloutProblem, SNIFF_BYTES } from "../lib/filekind";
import { runFileAlone } from "../lib/folder";
import { NO_HARNESS } from "../lib/harness";
import { damagedBeforeFirstLineText, jsonlItemsOf } from "../lib/jsonl";
import { folderHead } from "./folder";
import {
  FOLLOW_CHECK_BYTES,
  FOLLOW_POLL_MS,
  type FollowState,
  followState,
  followSummary,
  GZIP_NOT_FOLLOWED,
  type PollResult,
  pollOnce,
  rangeTotal,
  sameBytes,
} from "./follow";
import type { LoadProgress, Source } from "./protocol";
import { Dataset, type IndexRunner, ingest, ingestAppended, type OpenedSource } from "./store";

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Opens a source: a local file as its Blob, a bundled sample as a fetched stream, a served file as a
 * streamed range request (`followed`: its URL, when it is plain JSONL and so can be followed as it grows).
 */
async function openSource(
  source: Source,
  signal: AbortSignal,
): Promise<{ name: string; total: number | null; data: OpenedSource; followed: string | null }> {
  if (source.kind === "file") {
    return {
      name: source.file.name,
      total: source.file.size,
      data: { kind: "blob", blob: source.file },
      followed: null,
    };
  }
  if (source.kind === "remote") {
    // Two bytes first: a gzip file is read whole once (its compressed bytes cannot be followed line by line).
    const magic = await fetch(source.url, { headers: { Range: "bytes=0-1" }, signal });
    const start = magic.status === 206 ? new Uint8Array(await magic.arrayBuffer()) : new Uint8Array();
    if (magic.status !== 206) await magic.body?.cancel();
    if (magic.status !== 206 && magic.status !== 416) {
      throw new Error(`could not fetch ${source.name}: HTTP ${magic.status}`);
    }
    const gzip = start[0] === GZIP_MAGIC[0] && start[1] === GZIP_MAGIC[1];
    const response = await fetch(source.url, { headers: { Range: "bytes=0-" }, signal });
    if (response.status === 416) {
      return {
        name: source.name,
        total: 0,
        data: { kind: "stream", stream: new Blob([]).stream() },
        followed: source.url,
      };
    }
    if (!response.ok || response.body === null) {
      throw new Error(`could not fetch ${source.name}: HTTP ${response.status}`);
    }
    return {
      name: source.name,
      total: rangeTotal(response.headers.get("content-range")),
      data: { kind: "stream", stream: response.body },
      followed: gzip ? null : source.url,
    };
  }
  const response = await fetch(source.url, { signal });
  if (!response.ok || response.body === null) {
    throw new Error(`could not fetch ${source.name}: HTTP ${response.status}`);
  }
  const length = Number(response.headers.get("content-length"));
  return {
    name: source.name,
    total: Number.isFinite(length) && length > 0 ? length : null,
    data: { kind: "stream", stream: response.body },
    followed: null,
  };
}

/** A served task-rows file that grew after it was read: its new rows are not paired with (watch). */
const TASK_ROWS_GREW =
  "Task rows were added to this file after it was read: the rollouts are paired with its rows as first read. Read the folder again to pair them with what it holds now.";

/** The first and the last FOLLOW_CHECK_BYTES of a dataset's bytes read so far (`url`: where they come from). */
async function readState(blob: Blob, from: number, url: string): Promise<FollowState> {
  const head = new Uint8Array(await blob.slice(0, Math.min(from, FOLLOW_CHECK_BYTES)).arrayBuffer());
  const tail = new Uint8Array(await blob.slice(Math.max(0, from - FOLLOW_CHECK_BYTES), from).arrayBuffer());
  return followState(url, from, head, tail);
}

/**
 * What was read, when it ended at a line break (a file read without its last line break cannot be appended
 * to: that line may still be growing).
 */
async function readCheck(blob: Blob, from: number): Promise<FollowState | null> {
  if (from === 0) return null;
  const last = new Uint8Array(await blob.slice(from - 1, from).arrayBuffer());
  if (last[0] !== 0x0a) return null;
  return readState(blob, from, "");
}

/** How a read dataset joins the rest: the store, and what to tell when rows land or change. */
export interface SourceHooks {
  /** The store the dataset is read into (and removed from when the read fails). */
  readonly store: Map<string, Dataset>;
  /** Rows were read or changed (a session event is due); `more` when the page already shows some of them. */
  changed(more?: boolean): void;
  /** Rows were appended: their rewards are pending. */
  appended(): void;
}

/** What to read a source as. */
export interface ReadOptions {
  readonly id: string;
  /** The server rows that name none are verified against (a bundled sample's). */
  readonly fallbackServer: string | null;
  /** The name shown (a folder file's path), else the source's own. */
  readonly shownName?: string;
  /** Sees the dataset as soon as it exists (rows stream into it), before its first batch. */
  readonly added?: (dataset: Dataset) => void;
  /** Runs after the rows are read, before the file is followed (a kept file's results restored). */
  readonly afterRead?: (dataset: Dataset) => Promise<void>;
}

export class Sources {
  constructor(
    private readonly pool: IndexRunner,
    private readonly hooks: SourceHooks,
    /** Bytes per index batch (tests use small ones), else the store's default. */
    private readonly batchBytes?: number,
    /** How often a served file is asked whether it grew (bench/follow.ts tries others). */
    private readonly pollMs: number = FOLLOW_POLL_MS,
  ) {}

  /** Reads one source into the store as a new dataset. */
  async read(
    source: Source,
    options: ReadOptions,
    signal: AbortSignal,
    progress: (progress: LoadProgress) => void,
  ): Promise<Dataset> {
    const opened = await openSource(source, signal);
    const { total, data, followed } = opened;
    const name = options.shownName ?? opened.name;
    const dataset = new Dataset(options.id, name, total, options.fallbackServer);
    this.hooks.store.set(dataset.id, dataset);
    options.added?.(dataset);
    // The first rows are said at once; later batches only add rows below them, said less often.
    let shown = false;
    const report = () => {
      progress({
        phase: "reading",
        file: name,
        done: dataset.bytes,
        total: data.kind === "blob" ? data.blob.size : total,
        rows: dataset.entries.size,
      });
      this.hooks.changed(shown);
      shown ||= dataset.entries.size > 0;
    };
    try {
      await ingest(dataset, data, this.pool, {
        serverOverride: null,
        harness: NO_HARNESS,
        signal,
        onBatch: report,
        holdPartialLine: followed !== null,
        ...(this.batchBytes === undefined ? {} : { batchBytes: this.batchBytes }),
      });
    } catch (error) {
      this.hooks.store.delete(dataset.id);
      throw error;
    }
    await options.afterRead?.(dataset);
    if (dataset.kind === "rollouts" && source.kind === "remote") {
      // A served file is followed, unless it is gzip (openSource: then it is read once, and the page says so).
      if (followed !== null) await this.follow(dataset, followed);
      else dataset.notFollowed = GZIP_NOT_FOLLOWED;
    } else if (dataset.kind === "inputs" && followed !== null) {
      await this.watch(dataset, followed);
    }
    // A plain local file read whole: what a later pick of the same file, grown, is compared with.
    if (source.kind === "file" && dataset.kind === "rollouts" && dataset.bytes === source.file.size) {
      dataset.readCheck = await readCheck(dataset.blob(), dataset.bytes);
    }
    // No rollout at all (an empty file included): one message saying what the file is instead, unless its
    // lines each have a kind of their own (placeholders, task rows): then it is JSONL, listed line by line.
    // The damage is its only line: nothing before it (task rows or placeholders before it are listed instead).
    if (
      dataset.kind === "rollouts" &&
      dataset.entries.size === 0 &&
      dataset.damage !== null &&
      dataset.lineCount === 1
    ) {
      // Damaged before its first complete line: what there is of it is no evidence of what the file is.
      dataset.problem = damagedBeforeFirstLineText(dataset.damage);
    } else if (dataset.kind === "rollouts" && dataset.entries.size === 0) {
      // A Gym config or metrics file picked by itself: said as a folder reads it, not as a malformed JSONL.
      const alone =
        source.kind === "file"
          ? runFileAlone(await folderHead({ path: source.file.name, file: source.file }))
          : null;
      const start = new Uint8Array(await dataset.blob().slice(0, SNIFF_BYTES).arrayBuffer());
      const problem = noRolloutProblem(
        start,
        dataset.errors().map((error) => error.line_kind),
      );
      // A followed file with nothing read yet is a run that has not written a whole line: not an empty file.
      const waiting = followed !== null && dataset.bytes === 0;
      if (alone !== null) dataset.problem = alone;
      else if (problem !== null && !waiting) dataset.problem = problem.message;
    }
    report();
    return dataset;
  }

  /**
   * A local file picked again: when one of `open` (a rollouts file of the same name) was read whole (it ended
   * at a line break) and the new file starts with the same bytes (its first and its last FOLLOW_CHECK_BYTES
   * read, kept at load: the old File may no longer be readable once the file changed on disk), the new
   * complete lines join that dataset and true is returned. Anything else (a file that shrank or changed)
   * opens as a new file.
   */
  async appendGrown(source: Source, open: readonly Dataset[], signal: AbortSignal): Promise<boolean> {
    if (source.kind !== "file") return false;
    const file = source.file;
    for (const dataset of open) {
      const check = dataset.readCheck;
      if (dataset.kind !== "rollouts" || dataset.name !== file.name || check === null) continue;
      if (file.size <= check.from) continue;
      const head = new Uint8Array(await file.slice(0, check.head.length).arrayBuffer());
      const tail = new Uint8Array(await file.slice(check.from - check.tail.length, check.from).arrayBuffer());
      if (!sameBytes(head, check.head) || !sameBytes(tail, check.tail)) continue;
      const grown = new Uint8Array(await file.slice(check.from).arrayBuffer());
      const newline = grown.lastIndexOf(0x0a);
      if (newline === -1) continue;
      // The bytes read are the new File's first bytes now: read them from it from here on.
      dataset.parts = [{ start: 0, blob: file.slice(0, check.from) }];
      await ingestAppended(dataset, grown.subarray(0, newline + 1), this.pool, {
        serverOverride: dataset.serverOverride,
        harness: dataset.harness,
        signal,
        onBatch: () => {},
      });
      dataset.readCheck = await readCheck(dataset.blob(), dataset.bytes);
      if (dataset.entries.size > 0) dataset.problem = null;
      this.hooks.appended();
      return true;
    }
    return false;
  }

  /**
   * Polls a served file every pollMs while its dataset is in the store: `found` answers each poll's result.
   * A file no longer what was read is said (its problem, gone or not) and never read again; polling goes on,
   * so what it becomes next (shrunk, gone) replaces what was said first. Whether the server answers is said too.
   */
  private async poll(
    dataset: Dataset,
    url: string,
    found: (result: PollResult, signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    const state = await readState(dataset.blob(), dataset.bytes, url);
    dataset.follow = state;
    const stop = new AbortController();
    const tick = async () => {
      if (this.hooks.store.get(dataset.id) !== dataset) {
        stop.abort();
        return;
      }
      const before = followSummary(state);
      const result = await pollOnce(state, (u, init) => fetch(u, init), stop.signal);
      if (result.kind === "changed") {
        // Said again only for another kind of change (shrunk, then gone), never for each new size.
        if (state.change !== result.change) {
          state.problem = result.problem;
          state.change = result.change;
          dataset.revision++;
          this.hooks.changed();
        }
      } else if (state.problem === null) {
        await found(result, stop.signal);
      }
      const after = followSummary(state);
      if (after.unreachable_since !== before.unreachable_since || after.refused !== before.refused) {
        dataset.revision++;
        this.hooks.changed();
      }
      setTimeout(() => void tick().catch(() => {}), this.pollMs);
    };
    setTimeout(() => void tick().catch(() => {}), this.pollMs);
  }

  /**
   * Watches a served task-rows file while it is in the store: its rows are not followed (the rollouts were
   * paired with them as first read), but any change (rows added, rewritten, the file gone) is said on its chip
   * and in the whole folder's answer, as a changed rollouts file is, with "Read the folder again".
   */
  private watch(dataset: Dataset, url: string): Promise<void> {
    return this.poll(dataset, url, async (result) => {
      // The break of a last line read whole (Gym writes files without a final one), or blank lines (lib/jsonl
      // yields no item for them), add no row.
      if (result.kind !== "grown" || dataset.follow === null) return;
      if (jsonlItemsOf(result.lines.subarray(result.closes)).next().done) return;
      dataset.follow.problem = TASK_ROWS_GREW;
      dataset.revision++;
      this.hooks.changed();
    });
  }

  /**
   * Follows a served file while it is in the store: appended complete lines join the dataset (their
   * rewards pending, then computed as any row's), a truncated or replaced file is said and left alone.
   */
  private follow(dataset: Dataset, url: string): Promise<void> {
    let waiting = 0;
    return this.poll(dataset, url, async (result, signal) => {
      if (result.kind === "grown") {
        await ingestAppended(
          dataset,
          result.lines,
          this.pool,
          { serverOverride: dataset.serverOverride, harness: dataset.harness, signal, onBatch: () => {} },
          result.closes,
        );
        // A followed file that held no rollout yet (a run that just started) now does.
        if (dataset.entries.size > 0) dataset.problem = null;
        this.hooks.appended();
        this.hooks.changed();
      } else if (dataset.follow !== null && dataset.follow.waiting !== waiting) {
        // A line still being written: the page says how many bytes wait.
        dataset.revision++;
        this.hooks.changed();
      }
      waiting = dataset.follow?.waiting ?? 0;
    });
  }
}
