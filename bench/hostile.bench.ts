/**
 * Issue 10's size-controlled costs, on inputs built at run time by scripts/gen-hostile.ts:
 * - compare: two 16k-call rollouts that differ throughout (target: under 5 s; was 88 s), and two
 *   100k-call rollouts (was: never finished). The alignment's cap is MAX_ALIGNMENT_EDITS (lib/compare).
 * - junk lines: readJsonl over lines that are not JSON (was ~90 µs per line in the CLI).
 * - gzip: readJsonl over gzip data through lib/jsonl's own decoder (pako), vs the same bytes plain.
 *
 *   npx tsx bench/hostile.bench.ts      (or through bench/run.ts)
 */
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { compareRuns } from "../lib/compare";
import { readJsonl } from "../lib/jsonl";
import { rolloutOrThrow } from "../lib/schemas";
import { createRng, makeRolloutLine } from "../scripts/gen-big-rollouts";
import { junkLines, manyCalls, rollout } from "../scripts/gen-hostile";

export interface HostileRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
}

function streamOf(bytes: Uint8Array, chunk = 1024 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) controller.close();
        else {
          controller.enqueue(bytes.subarray(at, at + chunk));
          at += chunk;
        }
      },
    },
    { highWaterMark: 0 },
  );
}

function timeCompare(calls: number): HostileRow {
  const a = rollout(manyCalls(calls, 1, "a"));
  const b = rollout(manyCalls(calls, 2, "b"));
  const started = performance.now();
  const report = compareRuns([rolloutOrThrow(a)], [rolloutOrThrow(b)], { server: "workplace_assistant" });
  const seconds = (performance.now() - started) / 1000;
  if (report.pairs[0]?.alignment_capped === null) throw new Error("expected a capped alignment");
  return {
    name: `compare: two ${calls / 1000}k-call rollouts differing throughout (compareRuns, verify included)`,
    value: Math.round(seconds * 100) / 100,
    unit: "s",
  };
}

async function readSeconds(bytes: Uint8Array): Promise<{ seconds: number; items: number }> {
  let items = 0;
  const started = performance.now();
  for await (const _ of readJsonl(streamOf(bytes))) items++;
  return { seconds: (performance.now() - started) / 1000, items };
}

async function timeJunk(): Promise<HostileRow> {
  const bytes = new TextEncoder().encode(junkLines(8 * 1024 * 1024));
  await readSeconds(bytes.subarray(0, 256 * 1024));
  const { seconds, items } = await readSeconds(bytes);
  return {
    name: "jsonl: junk lines (not JSON), readJsonl per line",
    value: Math.round((seconds / items) * 1e6 * 100) / 100,
    unit: `µs/line (${items} lines)`,
  };
}

async function timeGzip(): Promise<HostileRow[]> {
  const rng = createRng(11);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 64 * 1024 * 1024; i++) {
    const line = `${makeRolloutLine(i, rng)}\n`;
    lines.push(line);
    size += line.length;
  }
  const plain = new TextEncoder().encode(lines.join(""));
  const gz = new Uint8Array(gzipSync(plain));
  // Warm-up: the JS inflate runs several times faster once optimized, as it is within a real file's first MBs.
  await readSeconds(new Uint8Array(gzipSync(plain.subarray(0, 8 * 1024 * 1024))));
  const plainRun = await readSeconds(plain);
  const gzRun = await readSeconds(gz);
  return [
    {
      name: "jsonl: readJsonl, 64 MB plain (same data as below)",
      value: mb(plain, plainRun.seconds),
      unit: "MB/s",
    },
    {
      name: "jsonl: readJsonl, the same 64 MB gzip (lib gunzip)",
      value: mb(plain, gzRun.seconds),
      unit: "MB/s decompressed",
    },
  ];
}

const mb = (bytes: Uint8Array, seconds: number) => Math.round((bytes.length / 1e6 / seconds) * 10) / 10;

export async function benchHostile(): Promise<HostileRow[]> {
  return [timeCompare(16_000), timeCompare(100_000), await timeJunk(), ...(await timeGzip())];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchHostile()) process.stdout.write(`${row.name}: ${row.value} ${row.unit}\n`);
}
