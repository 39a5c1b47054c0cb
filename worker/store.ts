/**
 * The file store: every file opened in this tab, by any page, as a Blob plus a table of where each line
 * is. The worker keeps offsets, never a copy of the file: a line's bytes are read back from the Blob when
 * something asks for them.
 *
 * - A plain local file is its own Blob (the browser reads it from disk on demand).
 * - A gzip file or a fetched sample is decompressed once while it streams, into Blob parts of about
 *   BATCH_BYTES each. Chromium keeps Blob bytes in its blob store (outside this worker's heap, paged to
 *   disk when large), so the worker's own memory stays the line table and the index. The persisted copy in
 *   the origin-private file system (./opfs.ts) is this decompressed file.
 */

import { type GymConfig, unparsedLine } from "../lib/folder";
import { formatHarnessChoice, type HarnessChoice, NO_HARNESS } from "../lib/harness";
import { GzipError, gunzipIfGzip, gzipDamageText, streamChunks } from "../lib/jsonl";
import type { RunRow } from "../lib/run";
import type { AnalyzedRollout } from "./core";
import { type FollowState, followSummary, lastLineWhole, notFollowedSummary } from "./follow";
import type { AnalysisOptions, IndexedBatch, IndexedLine, IndexJob } from "./jobs";
import {
  DATASET_ID_PREFIX,
  type DatasetKind,
  type DatasetSummary,
  type LineError,
  type RolloutIndexEntry,
  SUMMARY_ERRORS,
  servedRef,
} from "./protocol";

/**
 * Bytes per indexing batch: small enough that the first rows show within a fraction of a second (a batch
 * is parsed in ~60-80 ms), large enough that its reads stay cheap: each batch costs two Blob read requests
 * (its end's line break, its bytes) of ~2 ms of CPU each whatever their size (bench/blob-reads.md). At
 * 8 MiB rather than 4, a 300 MB drop took 0.25-0.85 s less CPU, and its rewards came up to ~0.5 s sooner
 * (bench/profile-rewards.md).
 */
export const BATCH_BYTES = 8 * 1024 * 1024;
/** Batches being indexed at once per pool worker: keeps the pool busy while the next batch is cut. */
export const BATCHES_IN_FLIGHT_PER_WORKER = 2;
/** How far a plain file is read past a batch's nominal end to find the line break that ends it. */
const BOUNDARY_WINDOW = 64 * 1024;

const LF = 0x0a;

export interface BlobPart {
  /** Offset of the part's first byte in the (decompressed) file. */
  readonly start: number;
  readonly blob: Blob;
}

/** Where each non-blank line is: growable typed arrays indexed by line number - 1 (length -1: no line). */
class LineTable {
  private offsets = new Float64Array(1024);
  private lengths = new Int32Array(1024).fill(-1);

  set(line: number, offset: number, length: number): void {
    const at = line - 1;
    if (at >= this.offsets.length) {
      let size = this.offsets.length;
      while (size <= at) size *= 2;
      const offsets = new Float64Array(size);
      offsets.set(this.offsets);
      const lengths = new Int32Array(size).fill(-1);
      lengths.set(this.lengths);
      this.offsets = offsets;
      this.lengths = lengths;
    }
    this.offsets[at] = offset;
    this.lengths[at] = length;
  }

  get(line: number): { offset: number; length: number } | null {
    const at = line - 1;
    const length = this.lengths[at];
    if (length === undefined || length < 0) return null;
    return { offset: this.offsets[at] ?? 0, length };
  }
}

let fallbackIds = 0;

export function newDatasetId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return random
    ? `${DATASET_ID_PREFIX}${random}`
    : `${DATASET_ID_PREFIX}${Date.now().toString(36)}-${++fallbackIds}`;
}

export class Dataset {
  kind: DatasetKind = "rollouts";
  revision = 0;
  bytes = 0;
  lineCount = 0;
  indexed = false;
  /** For a file without one rollout: what it is instead (lib/filekind), one sentence. */
  problem: string | null = null;
  /** Where a gzip file's data is damaged (lib/jsonl GzipError): reading stopped there. */
  damage: GzipError | null = null;
  parts: BlobPart[] = [];
  readonly table = new LineTable();
  /** Parse errors and rows that are not rollouts, by line. */
  readonly parseErrors = new Map<number, LineError>();
  readonly schemaErrors = new Map<number, LineError>();
  readonly entries = new Map<number, RolloutIndexEntry>();
  /**
   * The run view's row and emitted names of each rollout, from the rewards pass (features/run/handlers.ts
   * aggregates them; a row of an earlier analysis stays until its new one lands, as statuses do).
   */
  readonly runRows = new Map<number, { readonly run: RunRow; readonly emitted: readonly string[] }>();
  /** Each rollout line's search filter (./search.ts), built after the rewards: the file's bytes do not change. */
  readonly searchFilters = new Map<number, Uint8Array>();
  /** Rollout lines whose search filter is still to build, in file order (a search scans them whole meanwhile). */
  readonly pendingFilters = new Set<number>();
  /** The revision at which each row last changed (for `changes`). */
  readonly entryRevision = new Map<number, number>();
  /** inputs datasets: pairing key -> line (a repeated key keeps the last row, as Gym's dict does). */
  readonly inputKeys = new Map<string, number>();
  inputRows = 0;
  parsedRows = 0;
  pairedInputs: string | null = null;
  pairedRows = 0;
  serverOverride: string | null = null;
  /** The harness chosen per agent (lib/harness choice): alias diagnostics for each agent's rows. */
  harness: HarnessChoice = NO_HARNESS;
  /** The SHA-256 of the file's content, computed once when its results are kept or restored (./results-cache). */
  contentHash: Promise<string> | null = null;
  /** From an opened folder: its path there, and the Gym configs that route its lines (null: none). */
  folderPath: string | null = null;
  /** The opened folder's name, which tells its files from another folder's of the same path. */
  folderName: string | null = null;
  configs: readonly GymConfig[] | null = null;
  configFiles: readonly string[] = [];
  /**
   * Where the served folder is on the machine `cli view` serves from (null: a folder picked in the tab): the
   * commands the rows name (`cli live --rollouts`, `ng_run`) name its files there, as the CLI run in the
   * checkout names them, and links name them by their path (summary's `ref`).
   */
  folderRoot: string | null = null;

  /** A path of the opened folder as a shell command on the serving machine takes it (folderRoot). */
  commandPath(path: string): string {
    return this.folderRoot === null ? path : `${this.folderRoot.replace(/[\\/]+$/, "")}/${path}`;
  }
  /** From an opened folder: the kind its role gives (else decided from the rows when the file is read). */
  role: DatasetKind | null = null;
  /** From an opened folder: the inputs datasets its plan pairs it with (null: the workspace's best match). */
  planInputs: readonly string[] | null = null;
  /** Their paths in the folder, in pairing order (what `cli live --inputs` is given). */
  inputFiles: readonly string[] = [];
  /** Lines whose rewards are still to compute, in file order. */
  pendingRewards = new Set<number>();
  /** Bumped when the rewards must be recomputed (another server, harness or inputs file). */
  analysisGeneration = 0;
  /** A followed file (one `view` serves): what has been read of it and whether it still is (./follow.ts). */
  follow: FollowState | null = null;
  /** A served file read once and not followed (a gzip file): why, said on the page (./follow.ts). */
  notFollowed: string | null = null;
  /** A local file read whole to a line break: its first and last bytes, to recognise it picked again, grown. */
  readCheck: FollowState | null = null;
  private sortedLines: number[] | null = null;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly totalBytes: number | null,
    public fallbackServer: string | null,
  ) {}

  /** How its rows are verified: the user's server and harness, the sample's server, the folder's configs. */
  analysisOptions(): AnalysisOptions {
    return {
      serverOverride: this.serverOverride,
      fallbackServer: this.fallbackServer,
      harness: this.harness,
      configs: this.configs,
      source:
        this.folderPath === null
          ? null
          : {
              rollouts: this.commandPath(this.folderPath),
              configs: this.configFiles.map((path) => this.commandPath(path)),
              inputs: this.inputFiles.map((path) => this.commandPath(path)),
            },
    };
  }

  /**
   * The Blob part holding a byte range (lines never straddle parts: parts end at line breaks, or at a
   * followed file's last line read whole without its break, which comes later as a part of its own).
   */
  partAt(offset: number): BlobPart | null {
    let low = 0;
    let high = this.parts.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const part = this.parts[mid];
      if (!part) break;
      if (offset < part.start) high = mid - 1;
      else if (offset >= part.start + part.blob.size) low = mid + 1;
      else return part;
    }
    return null;
  }

  /** Where a line's bytes are in the (decompressed) file. */
  position(line: number): { offset: number; length: number } | null {
    return this.table.get(line);
  }

  /** Where a line's bytes are, relative to their Blob part. */
  lineRef(line: number): { line: number; blob: Blob; offset: number; length: number } | null {
    const at = this.table.get(line);
    if (at === null) return null;
    const part = this.partAt(at.offset);
    if (part === null) return null;
    return { line, blob: part.blob, offset: at.offset - part.start, length: at.length };
  }

  async readLine(line: number): Promise<Uint8Array | null> {
    const ref = this.lineRef(line);
    if (ref === null) return null;
    return new Uint8Array(await ref.blob.slice(ref.offset, ref.offset + ref.length).arrayBuffer());
  }

  /** The whole (decompressed) file as one Blob: parts are referenced, not copied. */
  blob(): Blob {
    const [only] = this.parts;
    if (this.parts.length === 1 && only) return only.blob;
    return new Blob(this.parts.map((part) => part.blob));
  }

  setEntry(entry: RolloutIndexEntry): void {
    if (!this.entries.has(entry.line)) this.sortedLines = null;
    this.entries.set(entry.line, entry);
    this.entryRevision.set(entry.line, this.revision);
  }

  /** A rollout's rewards landed: its list entry and its run row. */
  setAnalyzed({ entry, run, emitted }: AnalyzedRollout): void {
    this.setEntry(entry);
    this.runRows.set(entry.line, { run, emitted });
  }

  /** Rollout lines in file order. */
  lines(): number[] {
    this.sortedLines ??= [...this.entries.keys()].sort((a, b) => a - b);
    return this.sortedLines;
  }

  /** The verifying servers of its rows, kept per revision (a summary is made at every session event). */
  private rowServers: { readonly revision: number; readonly servers: readonly string[] } | null = null;

  servers(): readonly string[] {
    if (this.rowServers?.revision === this.revision) return this.rowServers.servers;
    const servers = new Set<string>();
    for (const entry of this.entries.values()) if (entry.server !== null) servers.add(entry.server);
    this.rowServers = { revision: this.revision, servers: [...servers].sort() };
    return this.rowServers.servers;
  }

  rewarded(): number {
    let done = 0;
    for (const entry of this.entries.values()) if (entry.rewards === "done") done++;
    return done;
  }

  /** Every unreadable line in line order, sorted again only when errors were added (never per summary). */
  errors(): readonly LineError[] {
    // Errors are only ever added, so their counts and the kind say whether the sorted list is current.
    const key = `${this.kind}:${this.parseErrors.size}:${this.schemaErrors.size}`;
    if (this.sortedErrors?.key === key) return this.sortedErrors.errors;
    const errors = [...this.parseErrors.values()];
    if (this.kind === "rollouts") errors.push(...this.schemaErrors.values());
    errors.sort((a, b) => a.line - b.line);
    this.sortedErrors = { key, errors };
    return errors;
  }

  private sortedErrors: { readonly key: string; readonly errors: readonly LineError[] } | undefined;

  summary(): DatasetSummary {
    return {
      id: this.id,
      ref: this.folderRoot !== null && this.folderPath !== null ? servedRef(this.folderPath) : this.id,
      name: this.name,
      kind: this.kind,
      revision: this.revision,
      analysis: this.analysisGeneration,
      bytes: this.bytes,
      total_bytes: this.totalBytes,
      lines: this.lineCount,
      rows: this.kind === "rollouts" ? this.entries.size : this.parsedRows,
      indexed: this.indexed,
      rewarded: this.kind === "rollouts" ? this.rewarded() : 0,
      errors: this.errors().slice(0, SUMMARY_ERRORS),
      error_count: this.errors().length,
      paired_inputs: this.pairedInputs,
      paired_rows: this.pairedRows,
      server_override: this.serverOverride,
      servers: this.kind === "rollouts" ? this.servers() : [],
      harness: formatHarnessChoice(this.harness),
      fallback_server: this.fallbackServer,
      problem: this.problem,
      folder_path: this.folderPath,
      folder_name: this.folderName,
      config_files: this.configFiles,
      follow:
        this.follow !== null
          ? followSummary(this.follow)
          : this.notFollowed === null
            ? null
            : notFollowedSummary(this.notFollowed),
    };
  }

  /** Takes one indexed batch in (its line numbers already absolute). */
  addBatch(lines: readonly IndexedLine[]): void {
    this.revision++;
    for (const item of lines) {
      this.table.set(item.line, item.offset, item.length);
      if (item.status === "bad") {
        const answer = unparsedLine(item.error, item.text);
        this.parseErrors.set(item.line, {
          line: item.line,
          offset: item.offset,
          length: item.length,
          kind: "parse",
          line_kind: answer.kind,
          error: answer.message,
        });
        continue;
      }
      this.parsedRows++;
      if (item.input) {
        this.inputRows++;
        if (item.input.key !== null) this.inputKeys.set(item.input.key, item.line);
      }
      if (item.entry) {
        this.setEntry(item.entry);
        this.pendingRewards.add(item.line);
        this.pendingFilters.add(item.line);
      } else {
        this.schemaErrors.set(item.line, {
          line: item.line,
          offset: item.offset,
          length: item.length,
          kind: "schema",
          line_kind: item.kind?.kind ?? "not_a_rollout",
          error: item.kind?.message ?? "not a rollout",
        });
      }
    }
  }

  /** The whole file is in: decide what it is. */
  finish(): void {
    this.indexed = true;
    this.kind =
      this.role ?? (this.inputRows > 0 && this.inputRows === this.parsedRows ? "inputs" : "rollouts");
    if (this.kind === "inputs") {
      this.entries.clear();
      this.pendingRewards.clear();
      this.pendingFilters.clear();
      this.sortedLines = null;
    } else this.inputKeys.clear();
    this.revision++;
  }
}

/** What runs index batches: the verify pool, or the same functions in-process (tests). */
export interface IndexRunner {
  readonly size: number;
  index(job: IndexJob): Promise<IndexedBatch>;
}

export interface IngestOptions {
  readonly serverOverride: string | null;
  readonly harness: HarnessChoice;
  readonly signal: AbortSignal;
  /** Bytes per batch (default BATCH_BYTES; tests use small batches to see several). */
  readonly batchBytes?: number;
  /**
   * A file still being written (followed): a last line without its line break waits for it (its bytes are
   * counted in `waiting`), as a half-written rollout is not a line yet, unless it parses whole (./follow.ts
   * lastLineWhole: Gym's files end without a line break).
   */
  readonly holdPartialLine?: boolean;
  /** Called after each batch lands (rows streamed in) and as bytes are read. */
  onBatch(): void;
}

/** What a cancelled load or search rejects with (worker/rpc's isCancelled knows it). */
export function cancelled(): DOMException {
  return new DOMException("cancelled", "AbortError");
}

function abortIfNeeded(signal: AbortSignal): void {
  if (signal.aborted) throw cancelled();
}

/**
 * Batches land in file order: a batch's line numbers are known once every batch before it is counted.
 * Results that come back early wait here.
 */
class BatchSequencer {
  private next = 0;
  private firstLine: number;
  private readonly waiting = new Map<number, { lines: IndexedLine[]; lineCount: number; base: number }>();

  constructor(private readonly dataset: Dataset) {
    // Lines appended to a followed file are numbered on from the lines already in.
    this.firstLine = dataset.lineCount + 1;
  }

  land(sequence: number, base: number, result: IndexedBatch): void {
    this.waiting.set(sequence, { ...result, base });
    for (let ready = this.waiting.get(this.next); ready; ready = this.waiting.get(this.next)) {
      this.waiting.delete(this.next);
      const shift = this.firstLine - 1;
      this.dataset.addBatch(
        ready.lines.map((item) => {
          const line = item.line + shift;
          const offset = item.offset + ready.base;
          if (item.status === "bad") return { ...item, line, offset };
          return { ...item, line, offset, entry: item.entry ? { ...item.entry, line } : null };
        }),
      );
      this.firstLine += ready.lineCount;
      this.dataset.lineCount = this.firstLine - 1;
      this.next++;
    }
  }
}

/** Runs batches on the pool with a bounded number in flight. */
class Dispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private sequence = 0;
  private failure: unknown = null;
  private readonly sequencer: BatchSequencer;

  constructor(
    private readonly dataset: Dataset,
    private readonly runner: IndexRunner,
    private readonly options: IngestOptions,
  ) {
    this.sequencer = new BatchSequencer(dataset);
  }

  async dispatch(blob: Blob, start: number, end: number, base: number): Promise<void> {
    while (this.inFlight.size >= this.runner.size * BATCHES_IN_FLIGHT_PER_WORKER) {
      await Promise.race(this.inFlight);
    }
    if (this.failure !== null) throw this.failure;
    abortIfNeeded(this.options.signal);
    const sequence = this.sequence++;
    const job: IndexJob = {
      blob,
      start,
      end,
      serverOverride: this.options.serverOverride,
      fallbackServer: this.dataset.fallbackServer,
      harness: this.options.harness,
      configs: this.dataset.configs,
      source: null,
    };
    const task = this.runner
      .index(job)
      .then((result) => {
        if (this.options.signal.aborted) return;
        this.sequencer.land(sequence, base, result);
        this.options.onBatch();
      })
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  async drain(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.failure !== null) throw this.failure;
    abortIfNeeded(this.options.signal);
  }
}

async function startsWithGzipMagic(blob: Blob): Promise<boolean> {
  const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** The offset just past the first line break at or after `from` (or the end of the file). */
async function nextBoundary(file: Blob, from: number): Promise<number> {
  for (let at = from; at < file.size; at += BOUNDARY_WINDOW) {
    const window = new Uint8Array(
      await file.slice(at, Math.min(file.size, at + BOUNDARY_WINDOW)).arrayBuffer(),
    );
    const newline = window.indexOf(LF);
    if (newline !== -1) return at + newline + 1;
  }
  return file.size;
}

/**
 * Indexes a plain local file without reading it here: batches are cut at line breaks found by peeking a
 * small window past each nominal end, and the pool reads each batch's bytes itself.
 */
async function ingestPlain(dataset: Dataset, file: Blob, runner: IndexRunner, options: IngestOptions) {
  dataset.parts = [{ start: 0, blob: file }];
  const dispatcher = new Dispatcher(dataset, runner, options);
  let start = 0;
  while (start < file.size) {
    abortIfNeeded(options.signal);
    const end = await nextBoundary(file, Math.min(file.size, start + (options.batchBytes ?? BATCH_BYTES)));
    await dispatcher.dispatch(file, start, end, start);
    dataset.bytes = end;
    start = end;
  }
  await dispatcher.drain();
  dataset.bytes = file.size;
}

/**
 * Indexes a stream (gzip, or a fetched sample): its decompressed bytes are cut at line breaks into Blob
 * parts, each indexed by the pool as soon as it is complete.
 */
async function ingestStream(
  dataset: Dataset,
  chunks: AsyncIterable<Uint8Array>,
  runner: IndexRunner,
  options: IngestOptions,
): Promise<void> {
  const dispatcher = new Dispatcher(dataset, runner, options);
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let offset = 0;
  const cut = async (parts: Uint8Array[]) => {
    const blob = new Blob(parts.map((part) => new Uint8Array(part)));
    if (blob.size === 0) return;
    dataset.parts.push({ start: offset, blob });
    await dispatcher.dispatch(blob, 0, blob.size, offset);
    offset += blob.size;
    dataset.bytes = offset;
  };
  try {
    for await (const value of chunks) {
      abortIfNeeded(options.signal);
      if (value.length === 0) continue;
      pending.push(value);
      pendingBytes += value.length;
      if (pendingBytes < (options.batchBytes ?? BATCH_BYTES)) continue;
      const newline = value.lastIndexOf(LF);
      if (newline === -1) continue;
      // Everything up to the last line break of this chunk is a batch; the rest starts the next one.
      const head = pending.slice(0, -1);
      head.push(value.subarray(0, newline + 1));
      const rest = value.subarray(newline + 1);
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
      await cut(head);
    }
    if (pendingBytes > 0) {
      const whole = options.holdPartialLine ? concat(pending) : null;
      const newline = whole === null ? -1 : whole.lastIndexOf(LF);
      if (whole === null || lastLineWhole(whole.subarray(newline + 1))) await cut(pending);
      else if (newline !== -1) await cut([whole.subarray(0, newline + 1)]);
    }
    await dispatcher.drain();
  } catch (error) {
    if (!(error instanceof GzipError)) throw error;
    // Damaged gzip: every complete line before the damage is kept; the cut line is listed with the damage.
    // A failed CRC/length check comes after the member's data ended cleanly: its last line is whole (a file
    // without a final "\n"), kept as lib/jsonl's reader keeps it.
    if (error.kind === "checksum") {
      if (pendingBytes > 0) await cut(pending);
    } else {
      const whole = concat(pending);
      const newline = whole.lastIndexOf(LF);
      if (newline !== -1) await cut([whole.subarray(0, newline + 1)]);
    }
    await dispatcher.drain();
    const line = dataset.lineCount + 1;
    dataset.parseErrors.set(line, {
      line,
      offset,
      length: 0,
      kind: "parse",
      line_kind: "not_json",
      error: gzipDamageText(error, line > 1),
    });
    dataset.lineCount = line;
    dataset.damage = error;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Indexes bytes appended to a followed file (complete lines only: they end at a line break) as one more
 * Blob part: its lines are numbered on from the dataset's, and their rewards become pending.
 */
export async function ingestAppended(
  dataset: Dataset,
  bytes: Uint8Array,
  runner: IndexRunner,
  options: IngestOptions,
  /** Its first bytes end the dataset's last line, read whole without them (./follow.ts): kept, not indexed. */
  closes = 0,
): Promise<void> {
  let start = dataset.parts.reduce((end, part) => Math.max(end, part.start + part.blob.size), 0);
  if (closes > 0) {
    // The dataset's bytes stay the file's (a whole-file reader, /compare's, sees that line's break).
    dataset.parts.push({ start, blob: new Blob([new Uint8Array(bytes.subarray(0, closes))]) });
    start += closes;
    dataset.bytes = start;
  }
  const blob = new Blob([new Uint8Array(bytes.subarray(closes))]);
  if (blob.size === 0) {
    if (closes > 0) dataset.revision++;
    return;
  }
  dataset.parts.push({ start, blob });
  const dispatcher = new Dispatcher(dataset, runner, options);
  await dispatcher.dispatch(blob, 0, blob.size, start);
  await dispatcher.drain();
  dataset.bytes = start + blob.size;
  dataset.revision++;
}

/** Where a file comes from, once fetched: a local Blob, or a response body (a bundled sample). */
export type OpenedSource =
  | { readonly kind: "blob"; readonly blob: Blob }
  | { readonly kind: "stream"; readonly stream: ReadableStream<Uint8Array> };

/** Reads a source into the dataset: rows land in it batch by batch while the file streams. */
export async function ingest(
  dataset: Dataset,
  source: OpenedSource,
  runner: IndexRunner,
  options: IngestOptions,
): Promise<void> {
  if (source.kind === "blob" && !(await startsWithGzipMagic(source.blob))) {
    await ingestPlain(dataset, source.blob, runner, options);
  } else {
    // One gzip decoder everywhere (lib/jsonl): multi-member files, and damage reported where it is.
    const stream = source.kind === "blob" ? source.blob.stream() : source.stream;
    await ingestStream(dataset, gunzipIfGzip(streamChunks(stream)), runner, options);
  }
  dataset.finish();
}
