/**
 * What the worker keeps for one page: every loaded file as raw line bytes, plus an index row per rollout.
 * Rollouts are re-parsed from their bytes when opened, so memory stays close to the files' size instead of
 * the (several times larger) size of their parsed objects, and copy/download give back the exact bytes.
 */

import { fileProblem, SNIFF_BYTES } from "../lib/filekind";
import { parseJsonLine, readJsonl } from "../lib/jsonl";
import { readRollout } from "../lib/schemas";
import { InputIndex, isInputRow } from "../lib/verify";
import { analyzeRollout, type RowContext } from "./core";
import type {
  DatasetKind,
  DatasetSummary,
  HarnessId,
  LineError,
  LoadProgress,
  RolloutIndexEntry,
  SessionSummary,
  Source,
} from "./protocol";
import type { RunSource } from "./run";

/** Progress messages are rate-limited so the UI thread never drowns in them. */
export const PROGRESS_INTERVAL_MS = 80;
/** The analysis loop yields to the event loop this often so a cancel message gets through. */
export const YIELD_INTERVAL_MS = 40;

export interface Dataset {
  readonly id: string;
  readonly name: string;
  kind: DatasetKind;
  readonly bytes: number;
  readonly lineCount: number;
  /** Bytes of every non-blank line, by 1-based line number (also the lines that failed to parse). */
  readonly lineBytes: Map<number, Uint8Array>;
  readonly lineOffsets: Map<number, number>;
  /** Parse errors, then (for rollouts) schema errors, ordered by line. */
  errors: LineError[];
  /** Lines that parsed as JSON. */
  readonly okLines: number[];
  index: RolloutIndexEntry[];
  readonly byLine: Map<number, number>;
  /** inputs datasets: the rows by Gym's indices and by task input (lib/verify InputIndex), as line numbers. */
  readonly inputIndex: InputIndex<number>;
  pairedInputs: string | null;
  pairedRows: number;
  /** The verifying server the index was computed for when the user overrode the default. */
  serverOverride: string | null;
  /** The harness whose alias rules feed the diagnostic flags of the index, when the user named one. */
  harness: HarnessId | null;
  /** The verifying server of rows that name none (no environment_name, no paired input, no provenance hint). */
  fallbackServer: string | null;
}

export { isInputRow };

/** A file is materialized inputs when every row that parsed is an input row (and there is one). */
export function datasetKind(inputRows: number, parsedRows: number): DatasetKind {
  return inputRows > 0 && inputRows === parsedRows ? "inputs" : "rollouts";
}

async function openSource(
  source: Source,
  signal: AbortSignal,
): Promise<{ stream: ReadableStream<Uint8Array>; total: number | null; name: string }> {
  if (source.kind === "file") {
    return { stream: source.file.stream(), total: source.file.size, name: source.file.name };
  }
  const response = await fetch(source.url, { signal });
  if (!response.ok || response.body === null) {
    throw new Error(`could not fetch ${source.name}: HTTP ${response.status}`);
  }
  const length = Number(response.headers.get("content-length"));
  return {
    stream: response.body,
    total: Number.isFinite(length) && length > 0 ? length : null,
    name: source.name,
  };
}

function throttle(
  report: (progress: LoadProgress) => void,
): (progress: LoadProgress, force?: boolean) => void {
  let last = 0;
  return (progress, force = false) => {
    const now = Date.now();
    if (!force && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    report(progress);
  };
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

let nextDatasetId = 1;

async function readDataset(
  source: Source,
  signal: AbortSignal,
  progress: (progress: LoadProgress, force?: boolean) => void,
): Promise<Dataset> {
  const { stream, total, name } = await openSource(source, signal);
  const lineBytes = new Map<number, Uint8Array>();
  const lineOffsets = new Map<number, number>();
  const errors: LineError[] = [];
  const okLines: number[] = [];
  const inputIndex = new InputIndex<number>();
  let inputRows = 0;
  let bytesRead = 0;
  let lastLine = 0;
  let rows = 0;
  const report = (force = false) =>
    progress({ phase: "reading", file: name, done: bytesRead, total, rows }, force);
  for await (const item of readJsonl(stream, {
    keepBytes: true,
    gzip: "auto",
    // Damaged gzip: keep every line before the damage and list the damage as the cut line's error.
    gzipDamage: "item",
    signal,
    onProgress: (read) => {
      bytesRead = read;
      report();
    },
  })) {
    lastLine = item.line;
    if (item.bytes) lineBytes.set(item.line, item.bytes);
    lineOffsets.set(item.line, item.offset);
    if (!item.ok) {
      errors.push({ line: item.line, offset: item.offset, length: item.length, error: item.error });
      continue;
    }
    rows++;
    okLines.push(item.line);
    if (isInputRow(item.value)) {
      inputRows++;
      inputIndex.add(item.value, item.line);
    }
  }
  report(true);
  const kind = datasetKind(inputRows, okLines.length);
  return {
    id: `d${nextDatasetId++}`,
    name,
    kind,
    bytes: bytesRead,
    lineCount: lastLine,
    lineBytes,
    lineOffsets,
    errors,
    okLines,
    index: [],
    byLine: new Map(),
    inputIndex: kind === "inputs" ? inputIndex : new InputIndex<number>(),
    pairedInputs: null,
    pairedRows: 0,
    serverOverride: null,
    harness: null,
    fallbackServer: null,
  };
}

const decoder = new TextDecoder();

/**
 * Re-parses one kept line with the reader's own parser (Python's NaN/Infinity included). Only lines that
 * parsed once are re-parsed, so undefined means the line is not there.
 */
export function parseLine(dataset: Dataset, line: number): unknown {
  const bytes = dataset.lineBytes.get(line);
  if (!bytes) return undefined;
  const parsed = parseJsonLine(decoder.decode(bytes));
  return parsed.ok ? parsed.value : undefined;
}

export class Session {
  datasets: Dataset[] = [];

  summary(): SessionSummary {
    return { datasets: this.datasets.map(summarize) };
  }

  get(id: string): Dataset | undefined {
    return this.datasets.find((dataset) => dataset.id === id);
  }

  inputsFor(dataset: Dataset): Dataset | undefined {
    return dataset.pairedInputs === null ? undefined : this.get(dataset.pairedInputs);
  }

  /** How a rollout of `dataset` is verified: its paired input row (lib's pairing rule), the user's server. */
  rowContext(
    dataset: Dataset,
    rollout: unknown,
    override: string | null = dataset.serverOverride,
  ): RowContext {
    const inputs = this.inputsFor(dataset);
    const pairing = inputs?.inputIndex.pair(rollout);
    const input = inputs === undefined || pairing?.ref == null ? undefined : parseLine(inputs, pairing.ref);
    return {
      input,
      ...(pairing === undefined ? {} : { pairing }),
      override,
      sample: dataset.fallbackServer,
      harness: dataset.harness,
    };
  }

  /**
   * Reads every source, then analyzes the rollouts. A load made only of inputs files pairs them with the
   * rollouts already loaded; any other load replaces the session. A cancelled load changes nothing.
   */
  async load(
    sources: readonly Source[],
    fallbackServer: string | null,
    signal: AbortSignal,
    report: (progress: LoadProgress) => void,
  ): Promise<SessionSummary> {
    const progress = throttle(report);
    const loaded: Dataset[] = [];
    for (const source of sources) {
      const dataset = await readDataset(source, signal, progress);
      dataset.fallbackServer = fallbackServer;
      loaded.push(dataset);
    }
    const onlyInputs = loaded.every((dataset) => dataset.kind === "inputs");
    const hasRollouts = this.datasets.some((dataset) => dataset.kind === "rollouts");
    const next = onlyInputs && hasRollouts ? [...this.datasets, ...loaded] : loaded;
    const inputs = next.filter((dataset) => dataset.kind === "inputs");
    const rollouts = next.filter((dataset) => dataset.kind === "rollouts");
    for (const dataset of rollouts) {
      const analysis = await this.analyze(dataset, inputs, dataset.serverOverride, signal, progress);
      Object.assign(dataset, analysis);
    }
    this.datasets = next;
    return this.summary();
  }

  /**
   * Recomputes a rollouts dataset's index for another verifying server (null: each row's default) or another
   * harness. A cancelled recomputation keeps the previous index.
   */
  async reanalyze(
    id: string,
    server: string | null,
    harness: HarnessId | null,
    signal: AbortSignal,
    report: (progress: LoadProgress) => void,
  ): Promise<SessionSummary> {
    const dataset = this.get(id);
    if (dataset?.kind !== "rollouts") return this.summary();
    if (dataset.serverOverride === server && dataset.harness === harness) return this.summary();
    const inputs = this.datasets.filter((d) => d.kind === "inputs");
    const analysis = await this.analyze({ ...dataset, harness }, inputs, server, signal, throttle(report));
    Object.assign(dataset, analysis, { serverOverride: server, harness });
    return this.summary();
  }

  private async analyze(
    dataset: Dataset,
    inputs: readonly Dataset[],
    serverOverride: string | null,
    signal: AbortSignal,
    progress: (progress: LoadProgress, force?: boolean) => void,
  ): Promise<Pick<Dataset, "index" | "byLine" | "errors" | "pairedInputs" | "pairedRows">> {
    // Pair with the inputs file that matches the most rows; usually there is one.
    let best: { dataset: Dataset; matches: number } | null = null;
    for (const candidate of inputs) {
      let matches = 0;
      for (const line of dataset.okLines) {
        if (candidate.inputIndex.pair(parseLine(dataset, line)).ref !== null) matches++;
      }
      if (matches > 0 && (best === null || matches > best.matches)) best = { dataset: candidate, matches };
    }
    const parseErrors = dataset.errors.filter((error) => !error.error.startsWith(SCHEMA_ERROR_PREFIX));
    const schemaErrors: LineError[] = [];
    const index: RolloutIndexEntry[] = [];
    const byLine = new Map<number, number>();
    let pairedRows = 0;
    let lastYield = Date.now();
    for (const [position, line] of dataset.okLines.entries()) {
      if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
        await yieldToEventLoop();
        lastYield = Date.now();
      }
      if (signal.aborted) throw new DOMException("cancelled", "AbortError");
      const value = parseLine(dataset, line);
      const bytes = dataset.lineBytes.get(line);
      const read = readRollout(value);
      if (!read.ok) {
        schemaErrors.push({
          line,
          offset: dataset.lineOffsets.get(line) ?? 0,
          length: bytes?.length ?? 0,
          error: `${SCHEMA_ERROR_PREFIX}${read.issues.join("; ")}`,
        });
        continue;
      }
      const pairing = best?.dataset.inputIndex.pair(value);
      const input = best === null || pairing?.ref == null ? undefined : parseLine(best.dataset, pairing.ref);
      if (input !== undefined) pairedRows++;
      byLine.set(line, index.length);
      index.push(
        analyzeRollout(line, value, read.rollout, {
          input,
          ...(pairing === undefined ? {} : { pairing }),
          override: serverOverride,
          sample: dataset.fallbackServer,
          harness: dataset.harness,
        }),
      );
      progress({
        phase: "analyzing",
        file: dataset.name,
        done: position + 1,
        total: dataset.okLines.length,
        rows: index.length,
      });
    }
    progress(
      {
        phase: "analyzing",
        file: dataset.name,
        done: dataset.okLines.length,
        total: dataset.okLines.length,
        rows: index.length,
      },
      true,
    );
    const errors = [...parseErrors, ...schemaErrors].sort((a, b) => a.line - b.line);
    return { index, byLine, errors, pairedInputs: best?.dataset.id ?? null, pairedRows };
  }

  /**
   * Lines whose text contains `text` (case-insensitive). Searches the raw line, so every field counts. Yields
   * to the event loop now and then, so a newer search can cancel this one.
   */
  async search(id: string, text: string, signal: AbortSignal): Promise<number[]> {
    const dataset = this.get(id);
    if (!dataset) return [];
    const needle = text.toLowerCase();
    const lines: number[] = [];
    let lastYield = Date.now();
    for (const entry of dataset.index) {
      if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
        await yieldToEventLoop();
        lastYield = Date.now();
        if (signal.aborted) throw new DOMException("cancelled", "AbortError");
      }
      const bytes = dataset.lineBytes.get(entry.line);
      if (bytes && decoder.decode(bytes).toLowerCase().includes(needle)) lines.push(entry.line);
    }
    return lines;
  }
}

export const SCHEMA_ERROR_PREFIX = "not a rollout: ";

/** What a file without one rollout is instead, judged from its first lines' bytes (lib/filekind). */
function fileStart(dataset: Dataset): string | null {
  if (dataset.lineCount === 0) return null;
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let line = 1; line <= dataset.lineCount && size < SNIFF_BYTES; line++) {
    const bytes = dataset.lineBytes.get(line);
    if (bytes === undefined) continue;
    parts.push(bytes, NEWLINE);
    size += bytes.length + 1;
  }
  const start = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    start.set(part.subarray(0, Math.max(0, size - at)), at);
    at += part.length;
  }
  return fileProblem(start).message;
}

const NEWLINE = new Uint8Array([0x0a]);

function summarize(dataset: Dataset): DatasetSummary {
  return {
    id: dataset.id,
    name: dataset.name,
    kind: dataset.kind,
    bytes: dataset.bytes,
    lines: dataset.lineCount,
    rows: dataset.kind === "rollouts" ? dataset.index.length : dataset.okLines.length,
    errors: dataset.errors,
    paired_inputs: dataset.pairedInputs,
    paired_rows: dataset.pairedRows,
    server_override: dataset.serverOverride,
    harness: dataset.harness,
    fallback_server: dataset.fallbackServer,
    problem: dataset.kind === "rollouts" && dataset.index.length === 0 ? fileStart(dataset) : null,
  };
}

let runRevision = 0;
const runKeys = new WeakMap<RolloutIndexEntry[], string>();

/** A dataset's rollouts for the run view (worker/run.ts), keyed by its current index. */
export function runSource(session: Session, id: string): RunSource | null {
  const dataset = session.get(id);
  if (dataset?.kind !== "rollouts") return null;
  // A new index (another server or harness, inputs paired) is a new array: a new key.
  let key = runKeys.get(dataset.index);
  if (key === undefined) {
    key = `${id}#${++runRevision}`;
    runKeys.set(dataset.index, key);
  }
  return {
    key,
    harness: dataset.harness,
    // Every line that parsed as JSON, the ones that are not rollouts included (triage calls them malformed),
    // so the run view counts what `cli triage` counts.
    *rollouts() {
      for (const line of dataset.okLines) {
        const value = parseLine(dataset, line);
        const context = session.rowContext(dataset, value);
        yield {
          line,
          value,
          options: {
            server: context.override,
            sample: context.sample,
            ...(context.input === undefined ? {} : { input: context.input }),
            ...(context.pairing === undefined ? {} : { pairing: context.pairing }),
            ...(context.harness === null ? {} : { harness: context.harness }),
          },
        };
      }
    },
  };
}
