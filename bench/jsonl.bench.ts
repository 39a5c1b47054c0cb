/**
 * Throughput of lib/jsonl's streaming reader on ~200 MB of Gym-like rollouts held in memory (no disk, so
 * it measures splitting, UTF-8 decoding and JSON parsing only). Run directly:
 *
 *   npx tsx bench/jsonl.bench.ts
 *
 * or through bench/run.ts, which imports benchJsonl().
 */
import { pathToFileURL } from "node:url";
import { readJsonl } from "../lib/jsonl";
import { makeRolloutsBytes } from "../scripts/gen-big-rollouts";

const TOTAL_BYTES = 200 * 1024 * 1024;
/** Distinct rollouts repeated to reach TOTAL_BYTES; enough variety without holding 200 MB of strings. */
const PATTERN_BYTES = 8 * 1024 * 1024;
/** Chunk size of the simulated source, like a file stream's reads. */
const CHUNK_BYTES = 1024 * 1024;

/** Repeats the pattern until totalBytes, in CHUNK_BYTES views (chunk edges fall mid-line, as in files). */
function repeatedStream(pattern: Uint8Array, totalBytes: number): ReadableStream<Uint8Array> {
  let emitted = 0;
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (emitted >= totalBytes) {
          controller.close();
          return;
        }
        const end = Math.min(at + CHUNK_BYTES, pattern.length);
        controller.enqueue(pattern.subarray(at, end));
        emitted += end - at;
        at = end === pattern.length ? 0 : end;
      },
    },
    { highWaterMark: 0 },
  );
}

export async function benchJsonl(): Promise<{ name: string; mbPerSecond: number }> {
  const pattern = makeRolloutsBytes(7, PATTERN_BYTES);
  const total = Math.ceil(TOTAL_BYTES / pattern.length) * pattern.length;
  let items = 0;
  let errors = 0;
  const started = performance.now();
  for await (const item of readJsonl(repeatedStream(pattern, total))) {
    items++;
    if (!item.ok) errors++;
  }
  const seconds = (performance.now() - started) / 1000;
  if (items === 0 || errors > 0) throw new Error(`bench read ${items} items with ${errors} errors`);
  return { name: "jsonl: readJsonl, 200 MB Gym-like rollouts in memory", mbPerSecond: total / 1e6 / seconds };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchJsonl();
  process.stdout.write(`${result.name}: ${result.mbPerSecond.toFixed(1)} MB/s\n`);
}
