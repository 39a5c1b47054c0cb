/**
 * `npm run bench:browser`: loads generated 300 MB and 1 GB rollouts files in Debian's Chromium through the
 * app's file input and records, side by side, what issue 9 sets goals for:
 *
 * - the reader's raw throughput on the same File in the same browser (a bare worker that only streams the
 *   bytes, and one that streams them and JSON.parses every line): the floor the app is measured against;
 * - time from the drop to the first rows, to the complete index (data-ready) and to every reward
 *   (data-rewarded);
 * - the longest main-thread task from the drop to the end of the searches (PerformanceObserver "longtask"),
 *   and on its own every such task from the drop to every reward (issue 21's window: the complete answer);
 * - memory: resident memory (RSS) of the renderer process, which runs the page, the data worker and the
 *   pool, above its level before the drop (a conservative bound on the data worker's own memory), and the
 *   browser process's, where Chromium keeps Blob bytes;
 * - search latency for a rare and a common term: from the request to the worker (after the typing debounce)
 *   to its first matches (data-search-first-ms) and to the complete answer (data-search-ms);
 * - then `cli triage` on the same file, on one thread and on one per core (bench/cli-triage.ts), and issue 21's
 *   ratios (RATIO_GOALS): every reward in the browser against the single-thread CLI, the CLI's threads against
 *   its one thread, the index against the stream + parse floor, a term in every rollout against the raw stream.
 *
 * It needs a production build (`npx next build`); it starts `next start` on BENCH_PORT (default 3190) unless
 * BASE_URL names a running app. Files are generated once into BENCH_DIR (default $TMPDIR/rollout-inspector-bench)
 * with scripts/gen-big-rollouts.ts. Sizes: `--sizes 3e8,1e9` (default). Writes bench/browser.json and
 * bench/browser.md (`--out PREFIX`: PREFIX.json and PREFIX.md instead; `--no-cli`: no `cli triage`). `--throttle 2` slows the page's main
 * thread 2x from before the drop (CDP Emulation.setCPUThrottlingRate on the page). Heavy: run it alone
 * (`flock /tmp/heavy.lock npm run bench:browser`).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { z } from "zod";
import { ensureFile, label } from "./big-files";
import { CHROMIUM, CHROMIUM_ARGS, ROOT, serveApp } from "./browser-app";
import { compareTriage, type TriageComparison } from "./cli-triage";
import { SourceMaps } from "./cpuprofile";
import { readPageMarks, watchPageMarks } from "./page-marks";
import { longTasks, TRACE_CATEGORIES } from "./trace-tasks";

const PORT = Number(process.env.BENCH_PORT ?? 3190);
/** A term in one rollout's call ids, and one in every rollout's tool descriptions. */
const RARE_TERM = "call_4242_3";
const COMMON_TERM = "Workplace Tool";
const SAMPLE_MS = 200;
const LOAD_TIMEOUT_MS = 30 * 60_000;

/**
 * Issue 21's goals: ratios of two figures measured in the same run (so they hold from machine to machine).
 * The CLI's figures are `cli triage` on the same file, on one thread and on one per core, run right after the
 * browser's measurement of that file.
 */
export const RATIO_GOALS = {
  /** Every reward and the why-zero answer in the browser / single-thread `cli triage`. */
  rewards_over_cli_triage: 0.75,
  /** `cli triage` on every core / on one thread. */
  cli_multi_over_single: 0.6,
  /** Complete index / the same browser's stream + JSON.parse floor. */
  index_over_stream_and_parse: 1.5,
  /** A term in every rollout, complete answer / the raw stream of the file. */
  search_every_rollout_over_stream: 1.2,
} as const;

type Ratios = { readonly [K in keyof typeof RATIO_GOALS]: number | null };

/** Issue 9's goals on the 2-core development machine. */
export const GOALS = {
  first_rows_ms: 1_000,
  index_1gb_ms: 10_000,
  longest_task_ms: 50,
  worker_memory_fraction: 0.25,
  search_300mb_ms: 500,
} as const;

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const sizes = (arg("--sizes") ?? "3e8,1e9").split(",").map(Number);
/** `--throttle 2`: the page's main thread slowed 2x (CDP Emulation.setCPUThrottlingRate) from the drop on. */
const THROTTLE = Number(arg("--throttle") ?? 1);
/** Where the report goes: PREFIX.json and PREFIX.md (default bench/browser). */
const OUT = arg("--out") ?? "bench/browser";
/** `--no-cli`: the browser's figures only (no `cli triage` and no ratios), for page-side A/B runs. */
const NO_CLI = process.argv.includes("--no-cli");
/**
 * BENCH_TRACE=DIR: a Chromium trace from the drop to every reward, its long main-thread tasks explained in
 * DIR/trace-SIZE.json (bench/trace-tasks.ts). Tracing slows the page: its runs say what, not how long.
 */
const TRACE_DIR = process.env.BENCH_TRACE;
/** BENCH_TRACE_PHASE=searches: trace the two searches after every reward instead of the load. */
const TRACE_PHASE = process.env.BENCH_TRACE_PHASE === "searches" ? "searches" : "load";

/**
 * Stops the trace begun with `startTracing` and writes it whole (raw-NAME.json, for DevTools' Performance
 * panel) and its long main-thread tasks explained (trace-NAME.json), named through the build's source maps
 * when it has them (SOURCE_MAPS=1 npx next build).
 */
async function writeTrace(browser: Browser, dir: string, name: string) {
  const raw = await browser.stopTracing();
  mkdirSync(dir, { recursive: true });
  const base = name.replaceAll(" ", "");
  writeFileSync(path.join(dir, `raw-${base}.json`), raw);
  const tasks = longTasks(
    JSON.parse(raw.toString("utf8")),
    GOALS.longest_task_ms,
    0,
    new SourceMaps(process.cwd()),
  );
  const out = path.join(dir, `trace-${base}.json`);
  writeFileSync(out, JSON.stringify(tasks, null, 2));
  console.error(`long tasks: ${out}`);
}

/** Resident memory (KiB) of every process under `root` whose command line matches. */
function rssOf(root: number, match: (cmdline: string) => boolean): number {
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      cmd.set(pid, readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      // the process ended meanwhile
    }
  }
  const under = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parent.get(at))
      if (at === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, line] of cmd) {
    if (!under(pid) || !match(line)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // ended
    }
  }
  return total;
}

const isRenderer = (cmdline: string) => cmdline.includes("--type=renderer");

interface HeapUsage {
  readonly usedSize: number;
  readonly totalSize: number;
  /** ArrayBuffers and other off-heap backing stores held by the worker. */
  readonly backingStorageSize: number;
}

/**
 * Each worker's V8 heap (allocated) plus its ArrayBuffer backing stores, read over the DevTools protocol
 * (Runtime.getHeapUsage in each worker target, reached with Target.sendMessageToTarget).
 */
class WorkerHeaps {
  private readonly targets = new Map<string, string>();
  private readonly waiting = new Map<number, (value: HeapUsage | null) => void>();
  private nextId = 1;
  readonly peak = new Map<string, number>();

  static async attach(page: Page): Promise<WorkerHeaps> {
    const heaps = new WorkerHeaps();
    const cdp = await page.context().newCDPSession(page);
    const Attached = z.object({
      sessionId: z.string(),
      targetInfo: z.object({ title: z.string(), type: z.string() }),
    });
    const Message = z.object({ message: z.string() });
    const Reply = z.object({
      id: z.number(),
      result: z
        .object({ usedSize: z.number(), totalSize: z.number(), backingStorageSize: z.number() })
        .optional(),
    });
    cdp.on("Target.attachedToTarget", (event) => {
      const parsed = Attached.safeParse(event);
      if (parsed.success && parsed.data.targetInfo.type === "worker") {
        heaps.targets.set(parsed.data.targetInfo.title, parsed.data.sessionId);
      }
    });
    cdp.on("Target.receivedMessageFromTarget", (event) => {
      const message = Message.safeParse(event);
      if (!message.success) return;
      const reply = Reply.safeParse(JSON.parse(message.data.message));
      if (reply.success) heaps.waiting.get(reply.data.id)?.(reply.data.result ?? null);
    });
    await cdp.send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
    heaps.send = (sessionId, message) => cdp.send("Target.sendMessageToTarget", { sessionId, message });
    return heaps;
  }

  private send: (sessionId: string, message: string) => Promise<unknown> = async () => undefined;

  /** Bytes per worker title (data, pool-0, ...): allocated heap plus backing stores. */
  async sample(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    await Promise.all(
      [...this.targets].map(async ([title, sessionId]) => {
        const id = this.nextId++;
        const usage = await new Promise<HeapUsage | null>((resolve) => {
          this.waiting.set(id, resolve);
          void this.send(sessionId, JSON.stringify({ id, method: "Runtime.getHeapUsage" })).catch(() =>
            resolve(null),
          );
          setTimeout(() => resolve(null), 2_000);
        });
        this.waiting.delete(id);
        if (usage === null) return;
        const bytes = usage.totalSize + usage.backingStorageSize;
        out.set(title, bytes);
        this.peak.set(title, Math.max(this.peak.get(title) ?? 0, bytes));
      }),
    );
    return out;
  }
}

/** Streams the file (and then streams + JSON.parses it) in a bare worker of the same page. */
async function rawReader(page: Page, file: string) {
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.type = "file";
    input.id = "bench-raw";
    input.hidden = true;
    document.body.append(input);
  });
  await page.locator("#bench-raw").setInputFiles(file);
  return page.evaluate(async () => {
    const input = document.querySelector<HTMLInputElement>("#bench-raw");
    const picked = input?.files?.[0];
    if (!picked) throw new Error("no file");
    const code = `onmessage = async (event) => {
      const file = event.data;
      // Read once untimed: the app's reads find the file in the OS's cache (the benchmark made or read it
      // just before), and a first read from disk took 2.4 s of 1 GB where a cached one takes 0.4-0.6 s.
      const warm = file.stream().getReader();
      for (;;) { const { done } = await warm.read(); if (done) break; }
      let t0 = performance.now();
      let bytes = 0;
      const reader = file.stream().getReader();
      for (;;) { const { done, value } = await reader.read(); if (done) break; bytes += value.length; }
      const readMs = performance.now() - t0;
      t0 = performance.now();
      const text = file.stream().pipeThrough(new TextDecoderStream()).getReader();
      let rest = "";
      let lines = 0;
      for (;;) {
        const { done, value } = await text.read();
        if (done) break;
        rest += value;
        let start = 0;
        for (let end = rest.indexOf("\\n", start); end !== -1; end = rest.indexOf("\\n", start)) {
          const line = rest.slice(start, end);
          start = end + 1;
          if (line.trim() === "") continue;
          lines++;
          try { JSON.parse(line); } catch { /* Python NaN lines */ }
        }
        rest = rest.slice(start);
      }
      postMessage({ bytes, lines, read_ms: readMs, parse_ms: performance.now() - t0 });
    };`;
    const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
    const worker = new Worker(url);
    const result = await new Promise<{ bytes: number; lines: number; read_ms: number; parse_ms: number }>(
      (resolve, reject) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(event.message));
        worker.postMessage(picked);
      },
    );
    worker.terminate();
    URL.revokeObjectURL(url);
    input?.remove();
    return result;
  });
}

/** Rows the list shows for a search, and the worker's time to its first and to its last matches. */
interface SearchTiming {
  readonly first_ms: number | null;
  readonly complete_ms: number;
  readonly rows: number;
}

async function search(page: Page, term: string): Promise<SearchTiming> {
  const box = page.getByRole("searchbox", { name: "Search rollouts" });
  await box.fill("");
  await page.locator("main[data-ready]:not([data-search-ms])").waitFor();
  await box.fill(term);
  const main = page.locator("main[data-ready][data-search-ms]");
  await main.waitFor({ timeout: 120_000 });
  const first = await main.getAttribute("data-search-first-ms");
  return {
    first_ms: first === null ? null : Number(first),
    complete_ms: Number(await main.getAttribute("data-search-ms")),
    rows: Number(await page.locator("[data-testid=rollout-table]").getAttribute("data-rows")),
  };
}

async function measure(base: string, file: string, bytes: number) {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  const browserPid = server.process().pid ?? 0;
  const browser = await chromium.connect(server.wsEndpoint());
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // tsx compiles the functions handed to page.evaluate with esbuild's keepNames, which calls __name.
    await page.addInitScript("globalThis.__name = (target) => target");
    await page.goto(base);
    await page.getByTestId("file-input").first().waitFor({ state: "attached" });
    const raw = await rawReader(page, file);
    // A fresh page for the app itself, so the raw reader's garbage does not count against it.
    await page.goto("about:blank");
    await page.goto(base);
    await page.getByTestId("file-input").first().waitFor({ state: "attached" });
    await page.waitForTimeout(1_000);
    if (THROTTLE > 1) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: THROTTLE });
    }
    const rendererBefore = rssOf(browserPid, isRenderer);
    const browserBefore = rssOf(browserPid, (cmd) => !cmd.includes("--type="));
    await watchPageMarks(page);
    let rendererPeak = rendererBefore;
    let browserPeak = browserBefore;
    const heaps = await WorkerHeaps.attach(page);
    const heapsBefore = await heaps.sample();
    heaps.peak.clear();
    const sampler = setInterval(() => {
      void heaps.sample();
      rendererPeak = Math.max(rendererPeak, rssOf(browserPid, isRenderer));
      browserPeak = Math.max(
        browserPeak,
        rssOf(browserPid, (cmd) => !cmd.includes("--type=")),
      );
    }, SAMPLE_MS);
    if (TRACE_DIR && TRACE_PHASE === "load")
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.getByTestId("file-input").first().setInputFiles(file);
    await page.locator("main[data-ready='true']").waitFor({ timeout: LOAD_TIMEOUT_MS });
    await page.locator("main[data-ready][data-rewarded='true']").waitFor({ timeout: LOAD_TIMEOUT_MS });
    if (TRACE_DIR && TRACE_PHASE === "load") await writeTrace(browser, TRACE_DIR, `load-${label(bytes)}`);
    const rendererAfterLoad = rssOf(browserPid, isRenderer);
    const heapsAfterLoad = await heaps.sample();
    if (TRACE_DIR && TRACE_PHASE === "searches")
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const rare = await search(page, RARE_TERM);
    const common = await search(page, COMMON_TERM);
    if (TRACE_DIR && TRACE_PHASE === "searches")
      await writeTrace(browser, TRACE_DIR, `searches-${label(bytes)}`);
    clearInterval(sampler);
    const marks = await readPageMarks(page);
    const drop = marks.drop ?? 0;
    const since = (at: number | null) => (at === null ? null : Math.round(at - drop));
    const rows = Number(await page.getByTestId("rollout-count").textContent());
    const mb = bytes / 1024 / 1024;
    return {
      file: path.basename(file),
      bytes,
      rollouts: rows,
      raw_reader: {
        stream_ms: Math.round(raw.read_ms),
        stream_mb_s: Math.round(mb / (raw.read_ms / 1000)),
        stream_and_parse_ms: Math.round(raw.parse_ms),
        stream_and_parse_mb_s: Math.round(mb / (raw.parse_ms / 1000)),
      },
      first_rows_ms: since(marks.first_rows),
      index_ms: since(marks.ready),
      index_mb_s: marks.ready === null ? null : Math.round(mb / ((marks.ready - drop) / 1000)),
      rewards_ms: since(marks.rewarded),
      longest_task_ms: Math.round(
        Math.max(0, ...marks.tasks.filter((t) => t.start >= drop).map((t) => t.ms)),
      ),
      long_tasks: marks.tasks.filter((t) => t.start >= drop).length,
      /** Issue 21's window: from the drop to the complete answer (every reward in), the searches after it left out. */
      // Objects, as longest_tasks: JSON.stringify's layout of them is biome's (npm run lint checks bench/*.json).
      answer_long_tasks: marks.tasks
        .filter((t) => t.start >= drop && marks.rewarded !== null && t.start < marks.rewarded)
        .map((t) => ({ at_ms: Math.round(t.start - drop), ms: Math.round(t.ms) })),
      /** The frames of 50 ms or more in the same window, split into script, render callbacks and rendering. */
      answer_long_frames: marks.frames
        .filter((f) => f.start >= drop && marks.rewarded !== null && f.start < marks.rewarded)
        .map(({ start, ...frame }) => ({ ...frame, at_ms: Math.round(start - drop) })),
      /** The longest tasks, from the drop, with the phase they fell in (where to look next). */
      longest_tasks: marks.tasks
        .filter((t) => t.start >= drop)
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 8)
        .map((t) => ({
          at_ms: Math.round(t.start - drop),
          ms: Math.round(t.ms),
          phase:
            marks.first_rows === null || t.start < marks.first_rows
              ? "before first rows"
              : marks.ready === null || t.start < marks.ready
                ? "indexing"
                : marks.rewarded === null || t.start < marks.rewarded
                  ? "rewards"
                  : "searches",
        })),
      renderer_rss_mb: {
        before: Math.round(rendererBefore / 1024),
        peak_above_before: Math.round((rendererPeak - rendererBefore) / 1024),
        after_load_above_before: Math.round((rendererAfterLoad - rendererBefore) / 1024),
      },
      renderer_peak_fraction_of_file:
        Math.round(((rendererPeak - rendererBefore) * 1024 * 1000) / bytes) / 1000,
      browser_process_rss_peak_above_before_mb: Math.round((browserPeak - browserBefore) / 1024),
      /** The data worker's V8 heap (allocated) + ArrayBuffers: before the drop, peak, and once loaded. */
      data_worker_mb: {
        before: Math.round((heapsBefore.get("data") ?? 0) / 2 ** 20),
        peak: Math.round((heaps.peak.get("data") ?? 0) / 2 ** 20),
        after_load: Math.round((heapsAfterLoad.get("data") ?? 0) / 2 ** 20),
      },
      data_worker_peak_fraction_of_file: Math.round(((heaps.peak.get("data") ?? 0) * 1000) / bytes) / 1000,
      pool_worker_peak_mb: Math.round(
        Math.max(0, ...[...heaps.peak].filter(([title]) => title.startsWith("pool")).map(([, b]) => b)) /
          2 ** 20,
      ),
      search: { [RARE_TERM]: rare, [COMMON_TERM]: common },
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** A file's browser figures, then `cli triage` on it and the ratios (absent from runs before issue 21). */
type Result = Awaited<ReturnType<typeof measure>> & {
  readonly cli_triage?: TriageComparison;
  readonly ratios?: Ratios;
};

function ratio(a: number | null, b: number | null): number | null {
  return a === null || b === null || b === 0 ? null : Math.round((a / b) * 100) / 100;
}

function ratiosOf(r: Awaited<ReturnType<typeof measure>>, cli: TriageComparison): Ratios {
  return {
    rewards_over_cli_triage: ratio(r.rewards_ms, cli.single.wall_s * 1000),
    cli_multi_over_single: cli.multi_over_single,
    index_over_stream_and_parse: ratio(r.index_ms, r.raw_reader.stream_and_parse_ms),
    search_every_rollout_over_stream: ratio(
      r.search[COMMON_TERM]?.complete_ms ?? null,
      r.raw_reader.stream_ms,
    ),
  };
}

/** Issue 21's table: the CLI's figures and each ratio against its goal. */
function ratioTable(results: readonly Result[]): string {
  const measured = results.filter((r) => r.cli_triage !== undefined && r.ratios !== undefined);
  if (measured.length === 0) return "";
  const cell = (value: number | null, goal: number) =>
    value === null ? "—" : `${value} (${verdict(value <= goal)})`;
  const threads = measured[0]?.cli_triage?.multi.threads ?? 0;
  const lines = [
    "Issue 21: `cli triage` on the same file in the same run, and the ratios it sets goals for:",
    "",
    `| file | cli triage, 1 thread / ${threads} threads: wall (peak RSS) | every reward in the browser / cli triage 1 thread (goal ≤ ${RATIO_GOALS.rewards_over_cli_triage}) | cli triage ${threads} threads / 1 (goal ≤ ${RATIO_GOALS.cli_multi_over_single}) | complete index / stream+parse floor (goal ≤ ${RATIO_GOALS.index_over_stream_and_parse}) | "${COMMON_TERM}" (every rollout) complete / raw stream (goal ≤ ${RATIO_GOALS.search_every_rollout_over_stream}) | main-thread tasks ≥ 50 ms from the drop to every reward (goal: none) |`,
    "|---|---|---|---|---|---|---|",
  ];
  for (const r of measured) {
    const cli = r.cli_triage!;
    const q = r.ratios!;
    lines.push(
      `| ${label(r.bytes)} | ${cli.single.wall_s} s (${cli.single.peak_rss_mib} MiB) / ${cli.multi.wall_s} s (${cli.multi.peak_rss_mib} MiB)${cli.identical ? "" : ", OUTPUTS DIFFER"} | ${cell(q.rewards_over_cli_triage, RATIO_GOALS.rewards_over_cli_triage)} | ${cell(q.cli_multi_over_single, RATIO_GOALS.cli_multi_over_single)} | ${cell(q.index_over_stream_and_parse, RATIO_GOALS.index_over_stream_and_parse)} | ${cell(q.search_every_rollout_over_stream, RATIO_GOALS.search_every_rollout_over_stream)} | ${r.answer_long_tasks.length === 0 ? "none (meets)" : `${r.answer_long_tasks.map((t) => t.ms).join(", ")} ms (misses)`} |`,
    );
  }
  return `\n\n${lines.join("\n")}`;
}

function timing(t: SearchTiming | undefined): string {
  if (!t) return "—";
  return `${t.first_ms ?? "—"} / ${t.complete_ms} ms (${t.rows} rows)`;
}

function verdict(ok: boolean): string {
  return ok ? "meets" : "misses";
}

function table(results: readonly Result[]): string {
  const lines = [
    "| file | rollouts | raw stream / stream+parse | first rows | complete index | all rewards | longest main-thread task | tasks ≥ 50 ms, drop to every reward | data worker peak (share of file) | one pool worker peak | renderer RSS peak above start | search rare: first / complete | search common: first / complete |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    lines.push(
      `| ${label(r.bytes)} | ${r.rollouts} | ${(r.raw_reader.stream_ms / 1000).toFixed(1)} s / ${(r.raw_reader.stream_and_parse_ms / 1000).toFixed(1)} s | ${r.first_rows_ms} ms | ${((r.index_ms ?? 0) / 1000).toFixed(1)} s (${r.index_mb_s} MB/s) | ${((r.rewards_ms ?? 0) / 1000).toFixed(1)} s | ${r.longest_task_ms === 0 ? "none ≥ 50 ms" : `${r.longest_task_ms} ms`} | ${r.answer_long_tasks.length === 0 ? "none" : `${r.answer_long_tasks.map((t) => t.ms).join(", ")} ms`} | ${r.data_worker_mb.peak} MiB (${(r.data_worker_peak_fraction_of_file * 100).toFixed(1)}%) | ${r.pool_worker_peak_mb} MiB | ${r.renderer_rss_mb.peak_above_before} MiB (${Math.round(r.renderer_peak_fraction_of_file * 100)}%) | ${timing(r.search[RARE_TERM])} | ${timing(r.search[COMMON_TERM])} |`,
    );
  }
  const small = results.find((r) => r.bytes < 5e8);
  const big = results.find((r) => r.bytes >= 1e9);
  lines.push("", "Goals (issue 9):", "");
  const worst = (f: (r: Result) => number) => Math.max(...results.map(f));
  lines.push(
    `- first rows within ${GOALS.first_rows_ms} ms of the drop: ${verdict(worst((r) => r.first_rows_ms ?? Infinity) <= GOALS.first_rows_ms)} (worst ${worst((r) => r.first_rows_ms ?? Infinity)} ms)`,
  );
  if (big) {
    lines.push(
      `- complete index of 1 GB within ${GOALS.index_1gb_ms / 1000} s: ${verdict((big.index_ms ?? Infinity) <= GOALS.index_1gb_ms)} (${((big.index_ms ?? 0) / 1000).toFixed(1)} s)`,
    );
  }
  lines.push(
    // The Long Tasks API reports tasks of 50 ms or more only: 0 means none was seen.
    `- longest main-thread task under ${GOALS.longest_task_ms} ms: ${verdict(worst((r) => r.longest_task_ms) < GOALS.longest_task_ms)} (${worst((r) => r.longest_task_ms) === 0 ? "no task of 50 ms or more" : `worst ${worst((r) => r.longest_task_ms)} ms, ${results.reduce((n, r) => n + r.long_tasks, 0)} such task(s)`} from the drop to the end of the searches)`,
    `- data worker memory under ${GOALS.worker_memory_fraction * 100}% of the file: ${verdict(worst((r) => r.data_worker_peak_fraction_of_file) < GOALS.worker_memory_fraction)} (worst ${(worst((r) => r.data_worker_peak_fraction_of_file) * 100).toFixed(1)}%; the whole renderer, page + data worker + pool, peaked at ${Math.round(worst((r) => r.renderer_peak_fraction_of_file) * 100)}% above its start)`,
  );
  if (small) {
    for (const [term, t] of Object.entries(small.search)) {
      lines.push(
        `- search over 300 MB under ${GOALS.search_300mb_ms} ms, "${term}" (${t.rows} rows): complete ${verdict(t.complete_ms < GOALS.search_300mb_ms)} (first matches ${t.first_ms ?? "—"} ms, complete ${t.complete_ms} ms)`,
      );
    }
  }
  return lines.join("\n");
}

interface Machine {
  readonly cpus: number;
  readonly cpu: string;
  readonly chromium: string;
  readonly load_before: number;
  readonly load_after: number;
  /** The main thread's CPU throttling rate (1: none); absent from runs before it was an option. */
  readonly throttle: number;
}

/** bench/browser.md from one run's figures (also `--report-only`: again from bench/browser.json). */
function writeReport(run: { date: string; machine: Machine; results: readonly Result[] }): void {
  const { machine } = run;
  const report = `# Browser benchmark (\`npm run bench:browser\`)

${run.date.slice(0, 10)}, ${machine.cpus} cores (${machine.cpu}), ${machine.chromium}${machine.throttle > 1 ? `, the page's main thread throttled ${machine.throttle}x (CDP Emulation.setCPUThrottlingRate)` : ""}; 1-minute load average ${machine.load_before.toFixed(1)} before the run, ${machine.load_after.toFixed(1)} after (other work on the machine inflates every wall-clock figure, the longest task most).

${table(run.results)}${ratioTable(run.results)}

How to read it:

- Search times run from the request to the data worker (after the 200 ms typing debounce) to its first
  matches and to the complete answer; rows is what the list then shows. Text of 3+ ASCII bytes is answered
  from the per-rollout trigram filters built once every reward is in (the searches run right after it: lines
  whose filter is not built yet are read whole), so a rare term reads a few lines; a term in every rollout must read every byte, so its complete time is bounded
  below by the raw stream column (the same file read in the same browser, its second read: the first, from
  disk, is not timed, as the app's reads find the file in the OS's cache).
- Memory is the data worker's V8 heap (allocated) plus ArrayBuffers, from \`Runtime.getHeapUsage\`: the line
  table, the index rows, the run rows and the search filters (about 1/16 of a byte per file byte).
- The longest main-thread task is the Long Tasks API's (tasks of 50 ms or more) from the drop to the end of
  the searches; \`longest_tasks\` in browser.json gives each one's start and phase. What runs in them, and
  where each thread's time goes in the rewards pass: bench/profile-rewards.md (\`bench/profile-rewards.ts\`).
- The task when the first rollout's detail opens (~200 ms after the first rows) was 83 / 94 ms while its
  virtualized lists read layout inside React's commit (the scroller's size, each new row's offsetHeight, the
  attach-time scrollTo, the transcript's offset, the rollout list's scrollToIndex of an on-screen row; a
  Chromium trace put over half the task in those forced layouts). They now wait for ResizeObservers and the
  next frame (components/virtual.ts); what is left near 50 ms is the browser's own first layout and paint
  of the pane.
`;
  writeFileSync(path.resolve(ROOT, `${OUT}.md`), report);
  console.log(report);
}

async function main(): Promise<void> {
  if (process.argv.includes("--report-only")) {
    const run = JSON.parse(readFileSync(path.resolve(ROOT, `${OUT}.json`), "utf8"));
    writeReport({ ...run, machine: { throttle: 1, ...run.machine } });
    return;
  }
  const files = sizes.map((bytes) => ({ bytes, file: ensureFile(bytes) }));
  const loadBefore = loadavg()[0] ?? 0;
  const { base, stop } = await serveApp(PORT);
  try {
    const results: Result[] = [];
    for (const { bytes, file } of files) {
      console.error(`measuring ${label(bytes)} (${statSync(file).size} bytes)…`);
      const browser = await measure(base, file, statSync(file).size);
      if (NO_CLI) {
        console.error(JSON.stringify(browser));
        results.push(browser);
        continue;
      }
      console.error(`cli triage on ${label(bytes)}: one thread, then one per core…`);
      const cli = await compareTriage(file);
      const result = { ...browser, cli_triage: cli, ratios: ratiosOf(browser, cli) };
      console.error(JSON.stringify(result));
      results.push(result);
    }
    const machine = {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? "unknown",
      chromium: CHROMIUM,
      // Other work on the machine skews every figure: the 1-minute load average before and after the run.
      load_before: loadBefore,
      load_after: loadavg()[0] ?? 0,
      throttle: THROTTLE,
    };
    writeFileSync(
      path.resolve(ROOT, `${OUT}.json`),
      `${JSON.stringify({ date: new Date().toISOString(), machine, goals: GOALS, ratio_goals: RATIO_GOALS, results }, null, 2)}\n`,
    );
    writeReport({ date: new Date().toISOString(), machine, results });
  } finally {
    stop();
  }
}

await main();
