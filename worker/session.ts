/**
 * What the worker keeps for one page: every loaded file as raw line bytes, plus an index row per rollout.
 * Rollouts are re-parsed from their bytes when opened, so memory stays close to the files' size instead of
 * the (several times larger) size of their parsed objects, and copy/download give back the exact bytes.
 */
import { z } from "zod";
import { parseJsonLine, readJsonl } from "../lib/jsonl";
import { readRollout } from "../lib/schemas";
import { analyzeRollout, defaultServer, inputKey, rolloutKey } from "./core";
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
  /** inputs datasets: pairing key -> line. */
  readonly inputKeys: Map<string, number>;
  pairedInputs: string | null;
  pairedRows: number;
  /** The verifying server the index was computed for when the user overrode the default. */
  serverOverride: string | null;
  /** The harness whose alias rules feed the diagnostic flags of the index, when the user named one. */
  harness: HarnessId | null;
  /** The verifying server of rows that name none (no environment_name, no paired input, no provenance hint). */
  fallbackServer: string | null;
}

const GymRowSchema = z.looseObject({
  _ng_task_index: z.unknown().optional(),
  _ng_rollout_index: z.unknown().optional(),
  response: z.unknown().optional(),
});

/** A materialized-inputs row: Gym's indexes but no `response` yet. (Also the compare worker's test.) */
export function isInputRow(value: unknown): boolean {
  const row = GymRowSchema.safeParse(value);
  if (!row.success) return false;
  return (
    row.data._ng_task_index !== undefined &&
    row.data._ng_rollout_index !== undefined &&
    row.data.response === undefined
  );
}

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
  const inputKeys = new Map<string, number>();
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
      const key = inputKey(item.value);
      // A repeated key keeps the last row, as Gym's dict built in file order does.
      if (key !== null) inputKeys.set(key, item.line);
    }
  }
  report(true);
  const kind = datasetKind(inputRows, okLines.length);
  if (kind === "rollouts") inputKeys.clear();
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
    inputKeys,
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

  /** The paired materialized-input row of a rollout, if an inputs file was loaded. */
  inputRow(dataset: Dataset, rollout: unknown): unknown {
    const inputs = this.inputsFor(dataset);
    if (!inputs) return undefined;
    const key = rolloutKey(rollout);
    if (key === null) return undefined;
    const line = inputs.inputKeys.get(key);
    return line === undefined ? undefined : parseLine(inputs, line);
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
        const key = rolloutKey(parseLine(dataset, line));
        if (key !== null && candidate.inputKeys.has(key)) matches++;
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
      let input: unknown;
      if (best) {
        const key = rolloutKey(value);
        const inputLine = key === null ? undefined : best.dataset.inputKeys.get(key);
        if (inputLine !== undefined) {
          input = parseLine(best.dataset, inputLine);
          pairedRows++;
        }
      }
      const server = serverOverride ?? defaultServer(value, input) ?? dataset.fallbackServer;
      byLine.set(line, index.length);
      index.push(analyzeRollout(line, value, read.rollout, input, server, dataset.harness));
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
        const input = session.inputRow(dataset, value);
        const position = dataset.byLine.get(line);
        const entry = position === undefined ? undefined : dataset.index[position];
        const server =
          entry?.server ?? dataset.serverOverride ?? defaultServer(value, input) ?? dataset.fallbackServer;
        yield { line, value, input, server };
      }
    },
  };
}
