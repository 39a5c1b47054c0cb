/**
 * `npx tsx bench/results-cache.bench.ts [--rows 1000,10000,...] [--out bench/results-cache]`: what the kept
 * results (worker/results-cache.ts) cost against the number of rows, to justify MAX_CACHED_ROWS.
 *
 * Rows are real: SAMPLE rollouts of the big-file generator (scripts/gen-big-rollouts.ts, seed 1) analysed
 * as the rewards pass analyses them (worker/core analyzeRolloutRun: both policies, run row, list entry),
 * then repeated with their line numbers renumbered up to each row count. For each count it writes the
 * results into a memory store (writeResults: JSON.stringify of every row) and reads them back
 * (readResults: JSON.parse, zod validation, the list entries rebuilt), and reports the document's size,
 * the write and read times (median of ROUNDS) and the heap the read rows hold. The cost it replaces is
 * the analysis of every row again: its per-row time is measured on the same sample.
 *
 * In the browser the same code runs in the data worker (the same V8); OPFS adds the write/read of the
 * document's bytes, which this does not measure. Results: bench/results-cache.md / .json.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseJsonLine } from "../lib/jsonl";
import { readRollout } from "../lib/schemas";
import { createRng, makeRolloutLine } from "../scripts/gen-big-rollouts";
import { type AnalyzedRollout, analyzeRolloutRun } from "../worker/core";
import { MAX_CACHED_ROWS, parseResults, resultsDocument, resultsKey } from "../worker/results-cache";

const SAMPLE = 300;
const ROUNDS = 3;
const DEFAULT_ROWS = [1_000, 10_000, 50_000, 100_000, 200_000];

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
}

/** SAMPLE generated rollouts analysed as the rewards pass does; and the time that took per row. */
function sampleRows(): { rows: AnalyzedRollout[]; msPerRow: number } {
  const rng = createRng(1);
  const rollouts = [];
  for (let i = 0; i < SAMPLE; i++) {
    const parsed = parseJsonLine(makeRolloutLine(i, rng));
    if (!parsed.ok) throw new Error(`generated line ${i + 1} does not parse`);
    const read = readRollout(parsed.value);
    if (!read.ok) throw new Error(`generated line ${i + 1} is not a rollout`);
    rollouts.push(read.rollout);
  }
  const context = { input: undefined, override: null, sample: null, harness: null } as const;
  const started = performance.now();
  const rows = rollouts.map((rollout, i) => analyzeRolloutRun(i + 1, rollout, context));
  return { rows, msPerRow: (performance.now() - started) / SAMPLE };
}

function rowsOf(sample: readonly AnalyzedRollout[], n: number): AnalyzedRollout[] {
  const out: AnalyzedRollout[] = [];
  for (let i = 0; i < n; i++) {
    const row = sample[i % sample.length];
    if (row === undefined) throw new Error("empty sample");
    const line = i + 1;
    out.push({ entry: { ...row.entry, line }, run: { ...row.run, line }, emitted: row.emitted });
  }
  return out;
}

interface Result {
  readonly rows: number;
  readonly bytes: number;
  readonly write_ms: number;
  readonly read_ms: number;
  readonly read_heap_mib: number;
  readonly recompute_s: number;
}

async function measure(sample: readonly AnalyzedRollout[], n: number, msPerRow: number): Promise<Result> {
  const rows = rowsOf(sample, n);
  const key = resultsKey("0".repeat(64), null);
  const writes: number[] = [];
  const reads: number[] = [];
  let bytes = 0;
  let heap = 0;
  // The rows read back, held while the heap is measured (what the data worker holds after a restore).
  let held: AnalyzedRollout[] | null = null;
  for (let round = 0; round < ROUNDS; round++) {
    gc();
    let started = performance.now();
    // What writeResults stores (it refuses more than MAX_CACHED_ROWS rows; measured past it all the same).
    const text = resultsDocument(key, rows);
    writes.push(performance.now() - started);
    bytes = Buffer.byteLength(text);
    gc();
    const before = process.memoryUsage().heapUsed;
    started = performance.now();
    // What readResults does with the stored text: parse, validate, rebuild the list entries.
    const read = parseResults(text, key);
    reads.push(performance.now() - started);
    if (read === null || read.length !== n) throw new Error(`read back ${read?.length ?? "nothing"} of ${n}`);
    held = read;
    gc();
    heap = Math.max(heap, (process.memoryUsage().heapUsed - before) / 2 ** 20);
    held = null;
  }
  void held;
  return {
    rows: n,
    bytes,
    write_ms: Math.round(median(writes)),
    read_ms: Math.round(median(reads)),
    read_heap_mib: Math.round(heap),
    recompute_s: Math.round((n * msPerRow) / 100) / 10,
  };
}

async function main(): Promise<void> {
  const counts = (option("--rows") ?? DEFAULT_ROWS.join(",")).split(",").map((text) => Number(text.trim()));
  const out = option("--out") ?? "bench/results-cache";
  const { rows: sample, msPerRow } = sampleRows();
  const results: Result[] = [];
  for (const n of counts) {
    const result = await measure(sample, n, msPerRow);
    results.push(result);
    console.log(JSON.stringify(result));
  }
  const machine = `${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)}, node ${process.version}`;
  writeFileSync(
    `${out}.json`,
    `${JSON.stringify({ machine, sample: SAMPLE, ms_per_row_analysis: msPerRow, results }, null, 2)}\n`,
  );
  const table = results
    .map(
      (r) =>
        `| ${r.rows.toLocaleString("en-US")} | ${(r.bytes / 2 ** 20).toFixed(1)} MiB | ${(r.bytes / r.rows) | 0} B | ${r.write_ms} ms | ${r.read_ms} ms | ${r.read_heap_mib} MiB | ${r.recompute_s} s |`,
    )
    .join("\n");
  console.log(`\n${machine}; analysis ${msPerRow.toFixed(2)} ms/row; MAX_CACHED_ROWS ${MAX_CACHED_ROWS}\n`);
  console.log(
    "| rows | document | per row | write (stringify) | read (parse + zod) | heap of read rows | recompute (1 core) |",
  );
  console.log("|---|---|---|---|---|---|---|");
  console.log(table);
}

await main();
