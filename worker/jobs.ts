/**
 * The work the verify pool does, as plain async functions of Blobs and numbers (no worker plumbing, so
 * they run in Node tests too). Each job reads its own bytes from a Blob slice: the file is never copied
 * into a worker's heap, only the few megabytes one job needs, for as long as it runs.
 */

import { configRoutes, type GymConfig, type LineKind, readLine as readRolloutLine } from "../lib/folder";
import { type HarnessChoice, harnessFor, NO_HARNESS } from "../lib/harness";
import { provenanceState } from "../lib/identity";
import { jsonlItemsOf, parseJsonLine } from "../lib/jsonl";
import { readRolloutFields } from "../lib/run";
import { functionCallCount, type Rollout } from "../lib/schemas";
import {
  type ConfigRouter,
  chooseServer,
  InputIndex,
  type LineSource,
  lineAgent,
  pairingKey,
  type RunServerChoice,
} from "../lib/verify";
import { type AnalyzedRollout, analyzeRolloutRun, isInputRow, type RowContext, verifiedDetail } from "./core";
import { mainBeat } from "./main-first";
import type { RolloutIndexEntry, VerifiedDetail } from "./protocol";
import { findInLines, lineFilter } from "./search";

/** What one non-blank line turned out to be when its batch was indexed. */
export type IndexedLine =
  | {
      readonly line: number;
      readonly offset: number;
      readonly length: number;
      readonly status: "bad";
      readonly error: string;
      /** The line's raw text when it is short (a placeholder row is named from it). */
      readonly text: string | null;
    }
  | {
      readonly line: number;
      readonly offset: number;
      readonly length: number;
      readonly status: "row";
      /** Set for a materialized-inputs row (Gym's indices, no response). */
      readonly input: { readonly key: string | null } | null;
      /** The index entry of a readable rollout (rewards and highlight counts pending). */
      readonly entry: RolloutIndexEntry | null;
      /** What the row is instead of a rollout (lib/folder readLine), when it is not one. */
      readonly kind: { readonly kind: LineKind; readonly message: string } | null;
    };

export interface AnalysisOptions {
  /** The verifying server the user chose for every row, or null for each row's default. */
  readonly serverOverride: string | null;
  /** The verifying server of rows that name none (a bundled sample's server). */
  readonly fallbackServer: string | null;
  /** The harness per agent: each rollout is read under its own agent's choice (lib/harness harnessFor). */
  readonly harness: HarnessChoice;
  /** The Gym configs that route the file's lines (an opened folder's), or null. Plain data: it crosses workers. */
  readonly configs: readonly GymConfig[] | null;
  /** A folder file's path and its config files, for the next steps an unverified line names. */
  readonly source: LineSource | null;
}

/** A dropped file's options: no server chosen, no sample, no harness, no folder. */
export const DROPPED_FILE: AnalysisOptions = {
  serverOverride: null,
  fallbackServer: null,
  harness: NO_HARNESS,
  configs: null,
  source: null,
};

/** The config router of a job's configs (lib/folder configRoutes), null without configs. */
export function configRouter(options: Pick<AnalysisOptions, "configs">): ConfigRouter | null {
  // A folder file without a config beside it still gets the folder's (empty) routes: its lines say so.
  return options.configs === null ? null : configRoutes(options.configs);
}

/**
 * The server choice every pass makes of a file's rows (lib/verify chooseServer's options): the user's
 * server, the bundled sample's, the folder's configs. The what-if on /compare makes the same one.
 */
export function serverChoiceOf(
  options: AnalysisOptions,
  config: ConfigRouter | null = configRouter(options),
): Required<RunServerChoice> {
  return { override: options.serverOverride, sample: options.fallbackServer, config };
}

/** Reads one parsed line as a rollout, the way every command and page does (lib/folder readLine). */
export function rolloutOf(value: unknown): Rollout | null {
  const read = readRolloutLine(value);
  return read.ok ? read.rollout : null;
}

export interface IndexJob extends AnalysisOptions {
  readonly blob: Blob;
  /** Where the batch starts and ends in `blob`. */
  readonly start: number;
  readonly end: number;
}

export interface IndexedBatch {
  /** Line numbers and offsets relative to the batch (line 1 at offset 0): the store makes them absolute. */
  readonly lines: IndexedLine[];
  /** Lines in the batch, blank ones included (a batch ends at a line break, or at the end of the file). */
  readonly lineCount: number;
}

const LF = 0x0a;

function countLines(bytes: Uint8Array): number {
  let count = 0;
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) count++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== LF) count++;
  return count;
}

/**
 * Parses one batch of lines once and reads each rollout's fields for the list (its server, how many calls,
 * its provenance map's state): the index comes before rewards, which cost several times more and resolve
 * the calls (their highlights).
 */
export async function indexBatch(
  job: IndexJob,
  pause: () => Promise<void> = pauseForMessagesAndPage,
): Promise<IndexedBatch> {
  const out: IndexedLine[] = [];
  const bytes = new Uint8Array(await job.blob.slice(job.start, job.end).arrayBuffer());
  const router = configRouter(job);
  // The last non-blank line's number and start: the batch's line count is read from there on only.
  let last = { line: 1, offset: 0 };
  let pausedAt = 0;
  for (const item of jsonlItemsOf(bytes)) {
    const { line, offset } = item;
    last = { line, offset };
    // Parsed a piece at a time too, so the page's long tasks get a core (./main-first.ts).
    if (offset - pausedAt >= JOB_PAUSE_BYTES) {
      pausedAt = offset;
      await pause();
    }
    if (!item.ok) {
      out.push({
        line,
        offset,
        length: item.length,
        status: "bad",
        error: item.error,
        text: item.text ?? null,
      });
      continue;
    }
    const input = isInputRow(item.value) ? { key: pairingKey(item.value) } : null;
    const read = readRolloutLine(item.value);
    if (!read.ok) {
      out.push({
        line,
        offset,
        length: item.length,
        status: "row",
        input,
        entry: null,
        kind: { kind: read.kind, message: read.message },
      });
      continue;
    }
    out.push({
      line,
      offset,
      length: item.length,
      status: "row",
      input,
      entry: indexEntry(line, read.rollout, job, router),
      kind: null,
    });
  }
  // Line `last.line` starts after line break `last.line - 1`: only the bytes from there on are counted (a
  // second scan of the whole batch for its line breaks was ~8% of a pool worker's index time).
  return { lines: out, lineCount: last.line - 1 + countLines(bytes.subarray(last.offset)) };
}

function indexEntry(
  line: number,
  rollout: Rollout,
  options: AnalysisOptions,
  config: ConfigRouter | null,
): RolloutIndexEntry {
  // The verifying server as lib/verify chooses it before any inputs row is paired (the rewards pass,
  // which has the pairing, may choose again).
  const { server, source } = chooseServer(rollout, serverChoiceOf(options, config));
  return {
    line,
    ...readRolloutFields(rollout),
    server,
    server_source: source,
    contract: null,
    legacy: null,
    unverified: null,
    legacy_unverified: null,
    calls: functionCallCount(rollout),
    // The calls' highlights and Gym's request checks come with the rewards pass, which resolves every call.
    counts: null,
    map_state: provenanceState(rollout),
    gym_would_reject: null,
    error: null,
    paired: false,
    paired_by: "none",
    rewards: "pending",
  };
}

/** One line whose bytes a job reads back: where it is in which Blob. */
export interface LineRef {
  readonly line: number;
  readonly blob: Blob;
  readonly offset: number;
  readonly length: number;
}

export interface RewardJob extends AnalysisOptions {
  readonly lines: readonly LineRef[];
  /** The inputs file the rollouts are paired with (prepared with prepareInputs), if any. */
  readonly inputs: string | null;
}

/** The rows of an inputs file (or of a folder's several), by where they are and how sentences name their file. */
export interface InputsJob {
  readonly id: string;
  readonly files: readonly { readonly name: string; readonly lines: readonly LineRef[] }[];
}

/** Inputs files indexed for pairing (lib/verify InputIndex), by dataset id; ids are never reused. */
const inputIndexes = new Map<string, Promise<InputIndex<LineRef>>>();

async function buildInputIndex(job: InputsJob): Promise<InputIndex<LineRef>> {
  const index = new InputIndex<LineRef>();
  // Each Blob part is read once: an inputs file's rows sit side by side.
  const parts = new Map<Blob, Promise<Uint8Array>>();
  for (const { name, lines } of job.files) {
    for (const ref of lines) {
      let bytes = parts.get(ref.blob);
      if (!bytes) {
        bytes = ref.blob.arrayBuffer().then((buffer) => new Uint8Array(buffer));
        parts.set(ref.blob, bytes);
      }
      const line = (await bytes).subarray(ref.offset, ref.offset + ref.length);
      const parsed = parseJsonLine(decoder.decode(line));
      if (parsed.ok && isInputRow(parsed.value)) index.add(parsed.value, ref, { file: name, line: ref.line });
    }
  }
  return index;
}

/** Indexes an inputs file once (later calls share the first); resolves to its pairable rows. */
export async function prepareInputs(job: InputsJob): Promise<number> {
  let index = inputIndexes.get(job.id);
  if (!index) {
    index = buildInputIndex(job);
    inputIndexes.set(job.id, index);
  }
  return (await index).size;
}

/** The prepared index of an inputs file (undefined when it was never prepared here). */
export function inputIndex(id: string): Promise<InputIndex<LineRef>> | undefined {
  return inputIndexes.get(id);
}

const decoder = new TextDecoder();

/** Reads one line's bytes back from its Blob (without a trailing "\r"). */
export async function readLine(ref: Pick<LineRef, "blob" | "offset" | "length">): Promise<Uint8Array> {
  const bytes = new Uint8Array(await ref.blob.slice(ref.offset, ref.offset + ref.length).arrayBuffer());
  return bytes;
}

export async function parseRef(ref: LineRef | null): Promise<unknown> {
  if (ref === null) return undefined;
  const parsed = parseJsonLine(decoder.decode(await readLine(ref)));
  return parsed.ok ? parsed.value : undefined;
}

/** How one rollout is verified: its paired input row (lib's pairing rule) and the chosen server. */
export async function rowContext(
  value: unknown,
  inputs: string | null,
  options: AnalysisOptions,
): Promise<RowContext> {
  const index = inputs === null ? undefined : await inputIndex(inputs);
  const pairing = index?.pair(value);
  const input = pairing?.ref == null ? undefined : await parseRef(pairing.ref);
  return {
    input,
    ...(pairing === undefined ? {} : { pairing }),
    ...serverChoiceOf(options),
    harness: harnessFor(options.harness, lineAgent(value, input)),
    source: options.source,
    ...(index === undefined ? {} : { taskKeys: index.taskKeys() }),
  };
}

/** Most bytes between two lines read in one Blob read (a job's lines are mostly side by side). */
export const READ_GAP_BYTES = 64 * 1024;

/**
 * Each line's bytes, in the order given. Lines side by side in one Blob are read with one read: a Blob read
 * costs far more than its bytes (a round trip to the browser's blob store), and one read per line was a
 * quarter of a pool worker's time in the rewards pass (bench/profile-rewards.md).
 */
export async function readLines(refs: readonly LineRef[]): Promise<Uint8Array[]> {
  // By Blob (in order of first appearance), then by offset.
  const blobs = new Map<Blob, number>();
  for (const ref of refs) if (!blobs.has(ref.blob)) blobs.set(ref.blob, blobs.size);
  const order = refs.map((_, i) => i);
  order.sort((a, b) => {
    const x = refs[a]!;
    const y = refs[b]!;
    return blobs.get(x.blob)! - blobs.get(y.blob)! || x.offset - y.offset;
  });
  const out: Uint8Array[] = new Array(refs.length);
  let at = 0;
  while (at < order.length) {
    const first = refs[order[at]!]!;
    let end = first.offset + first.length;
    let last = at + 1;
    for (; last < order.length; last++) {
      const next = refs[order[last]!]!;
      if (next.blob !== first.blob || next.offset < end || next.offset - end > READ_GAP_BYTES) break;
      end = next.offset + next.length;
    }
    const run = await readLine({ blob: first.blob, offset: first.offset, length: end - first.offset });
    for (let i = at; i < last; i++) {
      const ref = refs[order[i]!]!;
      out[order[i]!] = run.subarray(ref.offset - first.offset, ref.offset - first.offset + ref.length);
    }
    at = last;
  }
  return out;
}

/**
 * Lines of a rewards job verified (or of an index batch parsed) between two turns of the worker's event
 * loop (~5 rollouts, a few ms of work): a job is read in one Blob read (./rewards-scheduler.ts
 * REWARD_BATCH_BYTES, ./store.ts BATCH_BYTES) but is not one task, and at each turn the page's beats are read
 * (./main-first.ts). Opening a rollout during the rewards pass (300 MB, click to verified detail, 5 clicks)
 * took a median of 373 ms at 256 KiB, 443 ms at 1 MiB and ~390 ms with the 1 MiB jobs before; before the
 * beats, the pauses cost no wall time measured (bench/profile-rewards.md; since, bench/main-first.md).
 */
export const JOB_PAUSE_BYTES = 256 * 1024;

/** One channel for every pause of this thread (creating a channel per pause cost more than the pause). */
let pauses: { readonly channel: MessageChannel; readonly waiting: (() => void)[] } | null = null;

/** Node's ports keep a process alive (`ref`) unless told not to (`unref`); a browser's have neither. */
function keepAlive(port: MessagePort, on: boolean): void {
  const method = Reflect.get(port, on ? "ref" : "unref");
  if (typeof method === "function") method.call(port);
}

/**
 * Lets the messages waiting for this thread run: a macrotask (a resolved promise would not let them; a
 * worker's nested setTimeout is clamped to 4 ms). In Node (tests, benchmarks) the channel keeps the process
 * alive only while a pause waits on it.
 */
export function yieldToMessages(): Promise<void> {
  if (pauses === null) {
    const channel = new MessageChannel();
    const waiting: (() => void)[] = [];
    channel.port1.onmessage = () => {
      waiting.shift()?.();
      if (waiting.length === 0) keepAlive(channel.port1, false);
    };
    keepAlive(channel.port1, false);
    keepAlive(channel.port2, false);
    pauses = { channel, waiting };
  }
  const { channel, waiting } = pauses;
  return new Promise((resolve) => {
    waiting.push(resolve);
    keepAlive(channel.port1, true);
    channel.port2.postMessage(null);
  });
}

/** A job's pause: the messages waiting for this thread, then the page first if its main thread is busy. */
export async function pauseForMessagesAndPage(): Promise<void> {
  await yieldToMessages();
  await mainBeat.giveWay();
}

/**
 * The full index entry and run row of each line (both policies verified once, with the paired input row
 * when there is one), from the bytes read for it.
 */
export async function rewardBatch(
  job: RewardJob,
  pause: () => Promise<void> = pauseForMessagesAndPage,
): Promise<AnalyzedRollout[]> {
  const out: AnalyzedRollout[] = [];
  const lines = await readLines(job.lines);
  let sincePause = 0;
  for (const [i, ref] of job.lines.entries()) {
    // Read whole, verified a piece at a time: what waits for this worker (rows on screen, a search, an
    // opened rollout's detail) runs between pieces instead of after the whole job.
    if (sincePause >= JOB_PAUSE_BYTES) {
      sincePause = 0;
      await pause();
    }
    sincePause += ref.length;
    const parsed = parseJsonLine(decoder.decode(lines[i]!));
    const rollout = rolloutOf(parsed.ok ? parsed.value : undefined);
    if (rollout === null) continue;
    const context = await rowContext(rollout, job.inputs, job);
    out.push(analyzeRolloutRun(ref.line, rollout, context));
  }
  return out;
}

/** Lines whose search filters (./search.ts) to build. */
export interface FilterJob {
  readonly lines: readonly LineRef[];
}

/**
 * Each line's search filter, in the order given. Built after the rewards, not with them: a filter was ~11%
 * of a rewards job (bench/profile-rewards.md), and the whole run's answer should not wait for the search index.
 */
export async function filterBatch(job: FilterJob): Promise<Uint8Array[]> {
  return (await readLines(job.lines)).map((bytes) => lineFilter(bytes));
}

/** One opened rollout's two verifications, for the detail pane (bounded views). */
export interface VerifyDetailJob extends AnalysisOptions {
  readonly ref: LineRef;
  readonly inputs: string | null;
}

/**
 * Both verifications of one rollout as the detail pane shows them. A pool job, so the data worker keeps
 * answering page requests (scrolling, n/p) while a long rollout is replayed.
 */
export async function verifyDetail(job: VerifyDetailJob): Promise<VerifiedDetail | null> {
  const parsed = parseJsonLine(decoder.decode(await readLine(job.ref)));
  const rollout = rolloutOf(parsed.ok ? parsed.value : undefined);
  if (rollout === null) return null;
  return verifiedDetail(rollout, await rowContext(rollout, job.inputs, job));
}

export interface SearchJob {
  readonly blob: Blob;
  readonly start: number;
  readonly end: number;
  /** Absolute offset of `start` in the file. */
  readonly base: number;
  readonly text: string;
  /**
   * The lines to search, each as [start, end) relative to `start`, in order (default: every line of the
   * range): a match ends the scan of its line, and bytes between the lines given are never scanned.
   */
  readonly lines?: readonly number[];
}

/**
 * Absolute offsets of the first match in each line of a byte range (case-insensitive, over the raw line
 * text, so every field counts; ./search.ts).
 */
export async function searchRange(job: SearchJob): Promise<number[]> {
  const bytes = new Uint8Array(await job.blob.slice(job.start, job.end).arrayBuffer());
  return findInLines(bytes, job.text, job.lines).map((at) => job.base + at);
}
