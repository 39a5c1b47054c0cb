/**
 * `npm run bench:blob-reads [-- --file F] [--ways slice1,slice4,...] [--out P]`: what reading a whole local
 * file from a Web Worker costs the browser, one way after another, in CPU per thread kind (from /proc): the
 * pool reads its rewards jobs' lines and its index batches as Blob slices, and the size of those slices is
 * the question (worker/rewards-scheduler.ts REWARD_BATCH_BYTES).
 *
 * Ways: `sliceN` awaits `file.slice(at, at + N MiB).arrayBuffer()` over the file; `streamN` reads each
 * N MiB slice's `stream()`; `stream` reads `file.stream()` once; `byob` reads it into one 4 MiB buffer;
 * `opfswrite8` copies the file into OPFS from 8 MiB slices, `opfs8` reads that copy back (run it after).
 * The file is read once first (page cache, JIT), then every way `--repeat` times (default 3), in a rotated
 * order each round; the medians are reported. CPU is each Chromium process's (/proc/PID/stat: its threads
 * that ended included), the browser's and the renderers' (the worker's own JavaScript counts there).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { chromium } from "@playwright/test";
import { z } from "zod";
import { ensureFile, label } from "./big-files";
import { CHROMIUM, CHROMIUM_ARGS } from "./browser-app";
import { descendants, statCpuMs } from "./proc";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const FILE = arg("--file") ?? ensureFile(1e9);
const WAYS = (arg("--ways") ?? "slice1,slice4,slice8,slice32,stream4,stream,byob").split(",");
const OUT = arg("--out") ?? "bench/blob-reads";
const REPEAT = Number(arg("--repeat") ?? "3");

// The worker reads the file it is handed one way, touching one byte of each chunk (nothing is optimized away).
const WORKER = `
const MiB = 1048576;
onmessage = async (event) => {
  const { file, way } = event.data;
  const started = performance.now();
  let bytes = 0, touched = 0;
  const take = (chunk) => { bytes += chunk.length; touched ^= chunk[0] ?? 0; };
  const sized = /^(slice|stream)(\\d+)$/.exec(way);
  if (sized) {
    const step = Number(sized[2]) * MiB;
    for (let at = 0; at < file.size; at += step) {
      const slice = file.slice(at, at + step);
      if (sized[1] === "slice") take(new Uint8Array(await slice.arrayBuffer()));
      else for (const reader = slice.stream().getReader(); ; ) {
        const { done, value } = await reader.read();
        if (done) break;
        take(value);
      }
    }
  } else if (way === "stream") {
    for (const reader = file.stream().getReader(); ; ) {
      const { done, value } = await reader.read();
      if (done) break;
      take(value);
    }
  } else if (way === "byob") {
    const reader = file.stream().getReader({ mode: "byob" });
    let buffer = new ArrayBuffer(4 * MiB);
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (value) { take(value); buffer = value.buffer; }
      if (done) break;
    }
  } else if (way === "opfswrite8" || way === "opfs8") {
    // A copy in the origin-private file system: written from 8 MiB slices through a sync access handle
    // (opfswrite8: the slices' reads included), or read back 8 MiB at a time through a read-only one.
    const step = 8 * MiB;
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle("bench-copy.bin", { create: true });
    if (way === "opfswrite8") {
      const access = await handle.createSyncAccessHandle();
      access.truncate(0);
      for (let at = 0; at < file.size; at += step) {
        const chunk = new Uint8Array(await file.slice(at, at + step).arrayBuffer());
        access.write(chunk, { at });
        take(chunk);
      }
      access.close();
    } else {
      const access = await handle.createSyncAccessHandle({ mode: "read-only" });
      const size = access.getSize();
      for (let at = 0; at < size; at += step) {
        const chunk = new Uint8Array(Math.min(step, size - at));
        take(chunk.subarray(0, access.read(chunk, { at })));
      }
      access.close();
    }
  } else throw new Error("no such way: " + way);
  postMessage({ ms: performance.now() - started, bytes, touched });
};`;

const PAGE = `<!doctype html><input type="file" id="file"><script>
const worker = new Worker("/worker.js");
window.read = (way) => new Promise((resolve, reject) => {
  worker.onmessage = (event) => resolve(event.data);
  worker.onerror = (event) => reject(new Error(event.message));
  worker.postMessage({ file: document.getElementById("file").files[0], way });
});
</script>`;

/**
 * CPU ms of this process's Chromium processes by kind ("browser", "renderer", ...; a process's own stat
 * counts its threads that ended), and of their threads by "kind:thread name" (the breakdown).
 */
function chromiumCpu(): { processes: Map<string, number>; threads: Map<string, number> } {
  const processes = new Map<string, number>();
  const threads = new Map<string, number>();
  for (const pid of descendants(process.pid)) {
    if (pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "chromium") continue;
      const kind = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8"))?.[1] ?? "browser";
      processes.set(kind, (processes.get(kind) ?? 0) + statCpuMs(`/proc/${pid}/stat`));
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const name = readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim();
        const key = `${kind}:${name}`;
        threads.set(key, (threads.get(key) ?? 0) + statCpuMs(`/proc/${pid}/task/${task}/stat`));
      }
    } catch {
      // gone since the listing
    }
  }
  return { processes, threads };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
}

const ReadResult = z.object({ ms: z.number(), bytes: z.number() });

interface Run {
  readonly wall_ms: number;
  /** CPU ms over the read: the browser process (the blob store, its file reads, IPC), the renderer. */
  readonly browser_ms: number;
  readonly renderer_ms: number;
  readonly threads: Record<string, number>;
}

interface WayResult {
  readonly way: string;
  /** Medians over the runs. */
  readonly wall_ms: number;
  readonly browser_ms: number;
  readonly renderer_ms: number;
  readonly runs: readonly Run[];
}

async function main(): Promise<void> {
  const server = createServer((request, response) => {
    const script = request.url === "/worker.js";
    response.setHeader("content-type", script ? "text/javascript" : "text/html");
    response.end(script ? WORKER : PAGE);
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = z.object({ port: z.number() }).parse(server.address());
  const loadBefore = loadavg()[0] ?? 0;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const results: WayResult[] = [];
  let size = 0;
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.locator("#file").setInputFiles(FILE);
    const read = async (way: string): Promise<Run> => {
      const before = chromiumCpu();
      const result = ReadResult.parse(await page.evaluate((name) => Reflect.get(window, "read")(name), way));
      const after = chromiumCpu();
      size = result.bytes;
      const spent = (a: Map<string, number>, b: Map<string, number>, key: string) =>
        Math.round((a.get(key) ?? 0) - (b.get(key) ?? 0));
      const threads: Record<string, number> = {};
      for (const key of after.threads.keys()) {
        const ms = spent(after.threads, before.threads, key);
        if (ms > 0) threads[key] = ms;
      }
      return {
        wall_ms: Math.round(result.ms),
        browser_ms: spent(after.processes, before.processes, "browser"),
        renderer_ms: spent(after.processes, before.processes, "renderer"),
        threads,
      };
    };
    await read("stream");
    const runs = new Map<string, Run[]>(WAYS.map((way) => [way, []]));
    for (let round = 0; round < REPEAT; round++) {
      for (const [i] of WAYS.entries()) {
        const way = WAYS[(i + round) % WAYS.length] ?? "stream";
        const run = await read(way);
        runs.get(way)?.push(run);
        console.log(round, way, run.wall_ms, run.browser_ms, run.renderer_ms);
      }
    }
    for (const [way, of] of runs) {
      results.push({
        way,
        wall_ms: median(of.map((run) => run.wall_ms)),
        browser_ms: median(of.map((run) => run.browser_ms)),
        renderer_ms: median(of.map((run) => run.renderer_ms)),
        runs: of,
      });
    }
  } finally {
    await browser.close();
    server.close();
  }
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const rows = results.map(
    (r) =>
      `| ${r.way} | ${r.wall_ms} | ${r.browser_ms} | ${r.renderer_ms} | ${r.browser_ms + r.renderer_ms} |`,
  );
  const markdown = [
    "# Reading a local file in a Web Worker (`npm run bench:blob-reads`)",
    "",
    `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpu}), ${CHROMIUM}; a ${label(size)} file read by one worker, once to warm up, then each way ${REPEAT} times in a rotated order (medians); 1-minute load ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after.`,
    "",
    "| way | wall ms | browser process CPU ms | renderer CPU ms (the worker's own JavaScript included) | both |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    "How to read it: `sliceN` awaits `file.slice(at, at + N MiB).arrayBuffer()` over the whole file, `streamN`",
    "reads each such slice's `stream()`, `stream` reads `file.stream()` once, `byob` reads that stream into one",
    "4 MiB buffer. Each read request costs about the same whatever its size (the browser process opens the file",
    "and a data pipe for it), so the cost per GB falls with the slice's size until it meets the one stream's.",
    "The pool reads each rewards job's lines with one such slice (worker/jobs.ts readLines), so the job's size",
    "(worker/rewards-scheduler.ts REWARD_BATCH_BYTES) sets how many requests a pass makes; bench/profile-rewards.md",
    "has what changing it did to a whole drop. The GPU and utility processes are left out (they do not take part).",
    "",
  ].join("\n");
  writeFileSync(`${OUT}.json`, `${JSON.stringify({ file: FILE, bytes: size, results }, null, 2)}\n`);
  writeFileSync(`${OUT}.md`, markdown);
  console.log(`wrote ${OUT}.md and ${OUT}.json`);
}

await main();
