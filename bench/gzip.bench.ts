/**
 * Gzip read throughput (issue 10): lib/jsonl's one decoder (lib/jsonl/gzip.ts, JS so it behaves the same in
 * the browser and the CLI) against the native decoders, on the same 64 MB of Gym-like rollouts built at run
 * time, held in memory (no disk):
 * - read+parse: readJsonl over the plain bytes; over the gzip bytes (lib's decoder); and over the gzip bytes
 *   decompressed by the native decoders, the web DecompressionStream and node:zlib's createGunzip (what a CLI-only path
 *   would use). Neither native decoder is used by lib: DecompressionStream stops after the first member in
 *   browsers and both drop the data decoded before damage.
 * - decode only: lib's gunzip, and node:zlib's gunzipSync (the ceiling for a native decoder).
 * Cold figures are the median of COLD_RUNS reads, each in a fresh process; warm ones the best of BENCH_ROUNDS, since the machine
 * is shared. All are MB/s of decompressed data.
 *
 *   npx tsx bench/gzip.bench.ts      (or through bench/run.ts)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createGunzip, gunzipSync, gzipSync } from "node:zlib";
import { gunzip, readJsonl } from "../lib/jsonl";
import { makeRolloutsBytes } from "../scripts/gen-big-rollouts";

const TOTAL_BYTES = 64 * 1024 * 1024;
/** Chunk size of the simulated source, as cli/open.ts reads files. */
const CHUNK_BYTES = 1024 * 1024;
const WARMUP_BYTES = 8 * 1024 * 1024;
const BENCH_ROUNDS = 3;
/** Fresh processes per cold figure (the median is kept): one cold run swings by 2x on a shared machine. */
const COLD_RUNS = 5;
const PLAIN_FILE = "rollouts.jsonl";
const GZIP_FILE = "rollouts.jsonl.gz";

export interface GzipRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) controller.close();
        else {
          controller.enqueue(bytes.subarray(at, at + CHUNK_BYTES));
          at += CHUNK_BYTES;
        }
      },
    },
    { highWaterMark: 0 },
  );
}

async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
}

async function readAll(source: ReadableStream<Uint8Array>, gzip: boolean | "auto"): Promise<number> {
  let items = 0;
  for await (const item of readJsonl(source, { gzip })) {
    if (!item.ok) throw new Error(`bench line ${item.line} did not parse: ${item.error}`);
    items++;
  }
  return items;
}

async function decodeAll(gz: Uint8Array): Promise<number> {
  let bytes = 0;
  for await (const chunk of gunzip(chunksOf(gz))) bytes += chunk.length;
  return bytes;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function best(run: () => Promise<unknown>): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < BENCH_ROUNDS; round++) {
    const started = performance.now();
    await run();
    fastest = Math.min(fastest, (performance.now() - started) / 1000);
  }
  return fastest;
}

type Path = "plain" | "lib" | "web" | "node";
const PATHS: Record<Path, string> = {
  plain: "readJsonl, plain",
  lib: "readJsonl, gzip through lib gunzip",
  web: "readJsonl over DecompressionStream (native, reference)",
  node: "readJsonl over node:zlib createGunzip (native, reference)",
};

interface Data {
  readonly plain: Uint8Array<ArrayBuffer>;
  readonly gz: Uint8Array<ArrayBuffer>;
}

function makeData(): Data {
  const plain = makeRolloutsBytes(11, TOTAL_BYTES);
  return { plain, gz: new Uint8Array(gzipSync(plain)) };
}

/** One full read of the data along `path`. */
function reader({ plain, gz }: Data, path: Path): () => Promise<number> {
  switch (path) {
    case "plain":
      return () => readAll(streamOf(plain), "auto");
    case "lib":
      return () => readAll(streamOf(gz), "auto");
    // A Blob's stream, as the browser reads a File (lib/live/token.ts does the same).
    case "web":
      return () => readAll(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")), false);
    case "node":
      return () => readAll(Readable.toWeb(Readable.from([gz]).pipe(createGunzip())), false);
  }
}

/**
 * A path's first read in a fresh process (`--cold PATH`): the JIT warm-up of the inflate and the parser
 * included, as a CLI run on a file of this size pays it.
 */
function coldSeconds(path: Path, dataDir: string): number {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--cold", path, dataDir],
    {
      encoding: "utf8",
    },
  );
  const seconds = Number(result.stdout.trim());
  if (result.status !== 0 || !Number.isFinite(seconds))
    throw new Error(`cold ${path} run failed: ${result.stderr}`);
  return seconds;
}

export async function benchGzip(): Promise<GzipRow[]> {
  const data = makeData();
  const { plain, gz } = data;
  const mb = (seconds: number) => Math.round((plain.length / 1e6 / seconds) * 10) / 10;
  const label = `${Math.round(plain.length / 1e6)} MB, ${Math.round(gz.length / 1e6)} MB gzip`;
  const rows: GzipRow[] = [];
  // The cold runs read the same bytes from files (generating them again in each process would take longer
  // than the reads).
  const dataDir = mkdtempSync(join(tmpdir(), "gzip-bench-"));
  writeFileSync(join(dataDir, PLAIN_FILE), plain);
  writeFileSync(join(dataDir, GZIP_FILE), gz);
  const paths = Object.keys(PATHS) as Path[];
  // Round-robin, so a burst of load elsewhere on the machine does not land on one path's runs only.
  const cold = new Map<Path, number[]>(paths.map((path) => [path, []]));
  for (let run = 0; run < COLD_RUNS; run++)
    for (const path of paths) cold.get(path)?.push(coldSeconds(path, dataDir));
  rmSync(dataDir, { recursive: true });
  for (const path of paths)
    rows.push({
      name: `gzip cold: ${PATHS[path]} (${label})`,
      value: mb(median(cold.get(path) ?? [])),
      unit: "MB/s",
    });

  // Warm-up: the JS inflate and the parser run several times faster once optimized, as they are within a
  // long file's first megabytes.
  const warm = plain.subarray(0, plain.indexOf(0x0a, WARMUP_BYTES) + 1);
  await reader({ plain: warm, gz: new Uint8Array(gzipSync(warm)) }, "lib")();
  await reader({ plain: warm, gz: warm }, "plain")();
  for (const path of paths)
    rows.push({ name: `gzip warm: ${PATHS[path]}`, value: mb(await best(reader(data, path))), unit: "MB/s" });

  const decoded = await decodeAll(gz);
  if (decoded !== plain.length) throw new Error(`lib gunzip decoded ${decoded} of ${plain.length} bytes`);
  rows.push(
    { name: "gzip warm: decode only, lib gunzip", value: mb(await best(() => decodeAll(gz))), unit: "MB/s" },
    {
      name: "gzip warm: decode only, node:zlib gunzipSync (native ceiling)",
      value: mb(await best(async () => gunzipSync(gz))),
      unit: "MB/s",
    },
  );
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cold = process.argv.indexOf("--cold");
  const [path, dataDir] = process.argv.slice(cold + 1);
  if (cold !== -1 && path !== undefined && path in PATHS && dataDir !== undefined) {
    const data = {
      plain: new Uint8Array(readFileSync(join(dataDir, PLAIN_FILE))),
      gz: new Uint8Array(readFileSync(join(dataDir, GZIP_FILE))),
    };
    const read = reader(data, path as Path);
    const started = performance.now();
    await read();
    process.stdout.write(`${(performance.now() - started) / 1000}\n`);
  } else {
    for (const row of await benchGzip()) process.stdout.write(`${row.name}: ${row.value} ${row.unit}\n`);
  }
}
