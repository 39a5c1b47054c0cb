/**
 * `npm run bench:pool-worker [-- --size 1e8 | --file F] [--lines 600] [--passes 3] [--out PREFIX]
 * [--only node,bare,app,drop] [--js-flags FLAGS] [--profile DIR]`: what one
 * rollout of the rewards pass costs in Node and in Chromium's workers, on the same lines, one after the other,
 * so the gap between the browser's pool and `cli triage` (bench/profile-rewards.md) is split into its causes:
 *
 * - `node`: bench/pool-worker-entry.ts bundled by esbuild (minified, as a production bundle), in Node;
 * - `chromium worker`: the same bundle in a bare module worker of Debian's Chromium (the flags the other
 *   browser benchmarks use), under a page carrying the app's production CSP (proxy.ts), the worker script
 *   served without one, as Next serves /_next/static;
 * - each of those with zod's compiled parsers off (`jitless`), as they would be in a worker under the page's
 *   CSP (no 'unsafe-eval');
 * - `app pool worker`: the app's own pool worker (worker/pool.worker.ts as Turbopack built it) started the
 *   way the app starts it, on the app's origin, sent the same rewards jobs over its MessagePort (needs a
 *   production build, `npx next build`, or BASE_URL);
 * - `drop`: the whole file dropped into the app, from the drop to every reward, with the CPU time of every
 *   thread of the browser's processes (Linux /proc) and of the whole machine, second by second: how much of
 *   a core each pool worker actually got.
 *
 * Wall and CPU time are both reported: on a shared machine a thread's wall clock counts its waits for a core.
 * Each runs `--passes` passes over the first `--lines` lines of the generated file (scripts/gen-big-rollouts.ts,
 * seed 1); the first pass includes warming up, the last is the steady state. Writes PREFIX.json and PREFIX.md
 * (default bench/pool-worker). Heavy: `flock /tmp/heavy.lock npm run bench:pool-worker`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { build } from "esbuild";
import { NextRequest } from "next/server";
import { z } from "zod";
import { proxy } from "../proxy";
import { REWARDS_IN_FLIGHT_PER_WORKER } from "../worker/rewards-scheduler";
import { ensureFile, label } from "./big-files";
import { CHROMIUM, CHROMIUM_ARGS, ROOT, serveApp } from "./browser-app";
import { Attached, workerChannel } from "./cdp-workers";
import { CpuProfile, SourceMaps, summarize, summaryMarkdown } from "./cpuprofile";
import { jobsOf, type Kind, lineRefs } from "./pool-worker-entry";
import { CLOCK_TICKS, descendants, statCpuMs } from "./proc";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const SIZE = Number(arg("--size") ?? 1e8);
const FILE = arg("--file") ?? ensureFile(SIZE);
const LINES = Number(arg("--lines") ?? 600);
const PASSES = Number(arg("--passes") ?? 3);
const OUT = arg("--out") ?? "bench/pool-worker";
const PORT = Number(process.env.BENCH_PORT ?? 3192);
/** `--js-flags "..."`: V8 flags for Chromium's bare-worker runs too (a second set of runs), to try V8's settings. */
const JS_FLAGS = arg("--js-flags");
/** `--profile DIR`: also a run of the bare worker and of the app's pool worker under the DevTools Profiler. */
const PROFILE = arg("--profile");
/** `--only node,bare,app,drop`: some of the runs (all by default; drop: the whole file into the app). */
/**
 * The runs in Node and in the bare worker: every kind with zod's jit on and off, then the rewards jobs alone
 * (their CPU time per rollout is comparable with the app pool worker's, which only does jobs).
 */
const RUNS: readonly { name: string; jitless: boolean; kinds: readonly Kind[] }[] = [
  { name: "chromium worker", jitless: false, kinds: ["jobs", "stages", "cli"] },
  { name: "chromium worker", jitless: true, kinds: ["jobs", "stages", "cli"] },
  { name: "chromium worker, jobs only", jitless: false, kinds: ["jobs"] },
];
/** Sampling interval of `--profile` runs. */
const PROFILE_SAMPLE_US = 200;
const ONLY = new Set((arg("--only") ?? "node,bare,app,drop").split(","));

const Pass = z.object({ ms: z.number(), rollouts: z.number(), stages: z.record(z.string(), z.number()) });
type Pass = z.infer<typeof Pass>;
const Run = z.object({
  evalAllowed: z.boolean(),
  jobs: z.array(Pass),
  stages: z.array(Pass),
  cli: z.array(Pass),
});
type Run = z.infer<typeof Run>;

interface Variant {
  readonly name: string;
  readonly jitless: boolean;
  readonly run: Run;
  /** The whole run (every pass of every kind): its wall time and its thread's CPU time. */
  readonly usage: Usage;
}

/** CPU ms of every Chromium worker thread ("DedicatedWorker") in the processes under `root`, by thread id. */
function workerThreadsCpu(root: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, { name, ms }] of threadsCpu(root)) if (name === "DedicatedWorker") out.set(id, ms);
  return out;
}

/**
 * Wall and CPU time of the busiest Chromium worker thread while `work` runs: CPU below wall is time the
 * thread waited for a core (or for I/O), which a wall-clock figure cannot tell from work.
 */
async function withWorkerCpu<T>(root: number, work: () => Promise<T>): Promise<{ value: T; usage: Usage }> {
  const before = workerThreadsCpu(root);
  const started = performance.now();
  const value = await work();
  const wall = performance.now() - started;
  let cpu = 0;
  for (const [thread, ms] of workerThreadsCpu(root)) cpu = Math.max(cpu, ms - (before.get(thread) ?? 0));
  return { value, usage: { wall_ms: Math.round(wall), cpu_ms: Math.round(cpu) } };
}

const UsageSchema = z.object({ wall_ms: z.number(), cpu_ms: z.number() });
type Usage = z.infer<typeof UsageSchema>;

/** Chromium as the other browser benchmarks start it, with its browser process's id (for /proc). */
async function launch(args: string[]) {
  const before = new Set(childChromiums());
  // Launched, not connected: a connected browser is handed a file for an input slowly, over its socket.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args });
  const pid = childChromiums().find((candidate) => !before.has(candidate)) ?? 0;
  return { browser, pid, close: () => browser.close() };
}

/** The Chromium browser processes this process started. */
function childChromiums(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      return parent === process.pid && readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "chromium";
    } catch {
      return false;
    }
  });
}

/** Lines of a file that hold more than white space (a generated file's lines are all rollouts), read as bytes: a 1 GB file is longer than a string may be. */
function countLines(file: string): number {
  const bytes = readFileSync(file);
  let count = 0;
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    for (let at = start; at < end; at++) {
      const byte = bytes[at];
      if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) {
        count++;
        break;
      }
    }
    start = end + 1;
  }
  return count;
}

/** The first `count` lines of the file (whole lines). */
function firstLines(file: string, count: number): Uint8Array {
  const bytes = readFileSync(file);
  let end = 0;
  for (let i = 0; i < count; i++) {
    const next = bytes.indexOf(0x0a, end);
    if (next === -1) return bytes;
    end = next + 1;
  }
  return bytes.subarray(0, end);
}

async function bundle(dir: string): Promise<string> {
  const out = path.join(dir, "bundle.mjs");
  await build({
    entryPoints: [path.join(ROOT, "bench/pool-worker-entry.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // Minified as a production bundle, but with its names: a profile of it reads by function.
    minifyWhitespace: true,
    minifySyntax: true,
    outfile: out,
    logLevel: "warning",
  });
  return out;
}

function inNode(
  bundlePath: string,
  linesPath: string,
  jitless: boolean,
  kinds: readonly Kind[],
): { run: Run; usage: Usage } {
  // The main thread's CPU time from /proc, as for Chromium's worker threads (not the GC's helper threads).
  const script = `
    import { readFileSync } from "node:fs";
    ${jitless ? "globalThis.__zod_globalConfig = { jitless: true };" : ""}
    const cpu = () => {
      const stat = readFileSync("/proc/self/task/" + process.pid + "/stat", "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / ${CLOCK_TICKS};
    };
    const { runAll } = await import(${JSON.stringify(bundlePath)});
    const bytes = new Uint8Array(readFileSync(${JSON.stringify(linesPath)}));
    const [cpuBefore, started] = [cpu(), performance.now()];
    const run = await runAll(bytes, ${PASSES}, ${JSON.stringify(kinds)});
    const usage = { wall_ms: Math.round(performance.now() - started), cpu_ms: Math.round(cpu() - cpuBefore) };
    process.stdout.write(JSON.stringify({ run, usage }));
  `;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`node run failed: ${result.stderr}`);
  return z.object({ run: Run, usage: UsageSchema }).parse(JSON.parse(result.stdout));
}

/** The page's CSP, as proxy.ts sets it in production, and its nonce. */
function pagePolicy(): { policy: string; nonce: string } {
  const response = proxy(new NextRequest("http://127.0.0.1/"));
  const policy = response.headers.get("Content-Security-Policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? "";
  return { policy, nonce };
}

/** A page with the app's CSP that starts a bare module worker on the bundle (served without a CSP). */
async function bareServer(bundlePath: string, lines: Uint8Array): Promise<Server> {
  const { policy, nonce } = pagePolicy();
  const worker = `
    self.onmessage = async (event) => {
      const { jitless, passes, kinds } = event.data;
      if (jitless) globalThis.__zod_globalConfig = { jitless: true };
      const { runAll } = await import("/bundle.mjs");
      const bytes = new Uint8Array(await (await fetch("/lines.jsonl")).arrayBuffer());
      postMessage(await runAll(bytes, passes, kinds));
    };`;
  const page = `<!doctype html><script nonce="${nonce}">
    window.benchRun = (options) => new Promise((resolve, reject) => {
      const worker = new Worker("/worker.mjs", { type: "module", name: "bench" });
      // Terminated by the next run (a profiled worker is asked for its profile first).
      window.benchWorker?.terminate();
      window.benchWorker = worker;
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
      worker.postMessage(options);
    });
  </script>`;
  const code = readFileSync(bundlePath);
  const server = createServer((request, response) => {
    const url = request.url ?? "/";
    if (url === "/bundle.mjs" || url === "/worker.mjs") {
      response.setHeader("Content-Type", "text/javascript");
      response.end(url === "/bundle.mjs" ? code : worker);
    } else if (url === "/lines.jsonl") {
      response.end(lines);
    } else {
      response.setHeader("Content-Type", "text/html");
      response.setHeader("Content-Security-Policy", policy);
      response.end(page);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

async function inBareWorker(
  bundlePath: string,
  lines: Uint8Array,
  runs: readonly { name: string; jitless: boolean; kinds: readonly Kind[] }[],
  jsFlags: string | undefined,
  profiles: CpuProfile[] | null = null,
): Promise<Variant[]> {
  const server = await bareServer(bundlePath, lines);
  const args = jsFlags === undefined ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, `--js-flags=${jsFlags}`];
  const browser = await launch(args);
  const out: Variant[] = [];
  try {
    const page = await browser.browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const pageEval = await page.evaluate(EVAL_PROBE);
    if (pageEval) throw new Error("the page allows eval: its CSP is not the app's");
    for (const { name, jitless, kinds } of runs) {
      const profiler = profiles === null ? null : await profileWorker(page, "bench");
      const { value, usage } = await withWorkerCpu(browser.pid, () =>
        page.evaluate((options) => window.benchRun(options), { jitless, passes: PASSES, kinds }),
      );
      if (profiler !== null) profiles?.push(await profiler.stop());
      out.push({ name, jitless, run: Run.parse(value), usage });
    }
  } finally {
    await browser.close();
    server.close();
  }
  return out;
}

/**
 * Profiles the worker named `title` from its first instruction (it waits for the debugger until the
 * Profiler runs); every other worker is let go at once. `stop` ends the profile.
 */
async function profileWorker(page: Page, title: string): Promise<{ stop: () => Promise<CpuProfile> }> {
  const cdp = await page.context().newCDPSession(page);
  const toWorker = workerChannel(cdp);
  let target: string | null = null;
  cdp.on("Target.attachedToTarget", (event) => {
    const attached = Attached.safeParse(event);
    if (!attached.success) return;
    const { sessionId, targetInfo } = attached.data;
    void (async () => {
      if (targetInfo.type === "worker" && targetInfo.title === title) {
        target = sessionId;
        await toWorker(sessionId, "Profiler.enable");
        await toWorker(sessionId, "Profiler.setSamplingInterval", { interval: PROFILE_SAMPLE_US });
        await toWorker(sessionId, "Profiler.start");
      }
      await toWorker(sessionId, "Runtime.runIfWaitingForDebugger");
    })();
  });
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return {
    stop: async () => {
      if (target === null) throw new Error(`no worker named ${title} was profiled`);
      return z.object({ profile: CpuProfile }).parse(await toWorker(target, "Profiler.stop")).profile;
    },
  };
}

declare global {
  interface Window {
    benchWorker?: Worker;
    benchRun(options: { jitless: boolean; passes: number; kinds: readonly Kind[] }): Promise<unknown>;
    benchWorkers: { url: string; options: WorkerOptions | undefined }[];
    benchLines?: Blob;
    benchAppPool(options: {
      url: string;
      options: WorkerOptions | undefined;
      jobs: { line: number; offset: number; length: number }[][];
      passes: number;
      inFlight: number;
    }): Promise<{ ms: number; rollouts: number }[]>;
  }
}

/** Records the workers the app starts (their URL and options), so one more pool worker can be started alike. */
const RECORD_WORKERS = `
  window.benchWorkers = [];
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(url, options) {
      super(url, options);
      window.benchWorkers.push({ url: String(url), options });
    }
  };`;

/** CPU ms of every thread under `root`, by "pid/tid", with its name. */
function threadsCpu(root: number): Map<string, { name: string; process: string; ms: number }> {
  const out = new Map<string, { name: string; process: string; ms: number }>();
  for (const pid of descendants(root)) {
    try {
      const type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8"))?.[1] ?? "browser";
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const dir = `/proc/${pid}/task/${task}`;
        const name = readFileSync(`${dir}/comm`, "utf8").trim();
        out.set(`${pid}/${task}`, {
          name,
          process: type,
          ms: statCpuMs(`${dir}/stat`),
        });
      }
    } catch {
      // gone since the listing
    }
  }
  return out;
}

/** CPU ms the whole machine was busy (every core; /proc/stat: all but idle and iowait). */
function machineBusyMs(): number {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return ((total - (fields[3] ?? 0) - (fields[4] ?? 0)) * 1000) / CLOCK_TICKS;
}

interface TimelineSecond {
  /** Seconds from the drop. */
  readonly at_s: number;
  /** CPU ms in that second: the whole machine's (every core), the browser's processes', the busiest workers'. */
  readonly machine_ms: number;
  readonly browser_ms: number;
  readonly workers_ms: readonly number[];
  /** CPU ms in the second per thread kind (process and thread name, summed over threads of that name). */
  readonly by_kind_ms: Readonly<Record<string, number>>;
}

interface DropUsage {
  readonly timeline: readonly TimelineSecond[];
  readonly rollouts: number;
  readonly wall_ms: number;
  /** CPU ms of the whole machine (every process, every core) and of the browser's processes over the drop. */
  readonly machine_cpu_ms: number;
  readonly browser_cpu_ms: number;
  /** The busiest threads of the browser's processes over the drop, CPU ms, the most first. */
  readonly threads: readonly { readonly name: string; readonly process: string; readonly cpu_ms: number }[];
}

/**
 * One drop of the file into the app (production build), from the drop to every reward, with each thread's
 * CPU time: the pool workers' CPU per rollout against the wall clock says how much of a pool worker's time
 * is its work and how much is waiting for a core.
 */
async function appDrop(file: string, rollouts: number): Promise<DropUsage | null> {
  let app: { base: string; stop: () => void };
  try {
    app = await serveApp(PORT);
  } catch (error) {
    console.error(`no app drop: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  const browser = await launch(CHROMIUM_ARGS);
  try {
    const page = await browser.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript("globalThis.__name = (target) => target");
    await page.goto(app.base);
    const input = page.getByTestId("file-input").first();
    await input.waitFor({ state: "attached" });
    await page.waitForTimeout(1_000);
    // The drop as the page sees it (Playwright hands the file to a connected browser slowly, before that).
    await page.evaluate(() => {
      document.addEventListener("change", () => Reflect.set(window, "benchDropAt", Date.now()), {
        capture: true,
        once: true,
      });
    });
    const before = threadsCpu(browser.pid);
    const machineBefore = machineBusyMs();
    const started = performance.now();
    // Every second: the machine's busy CPU and each worker thread's, to see when the pool waits and for what.
    const timeline: TimelineSecond[] = [];
    let last = { at: started, machine: machineBefore, threads: before };
    const tick = setInterval(() => {
      const now = { at: performance.now(), machine: machineBusyMs(), threads: threadsCpu(browser.pid) };
      const workers = [...now.threads]
        .filter(([, thread]) => thread.name === "DedicatedWorker")
        .map(([id, thread]) => Math.round(thread.ms - (last.threads.get(id)?.ms ?? 0)))
        .sort((a, b) => b - a);
      let browserMs = 0;
      const byKind: Record<string, number> = {};
      for (const [id, thread] of now.threads) {
        const ms = thread.ms - (last.threads.get(id)?.ms ?? 0);
        browserMs += ms;
        const kind = `${thread.process} ${thread.name}`;
        if (ms > 0) byKind[kind] = (byKind[kind] ?? 0) + Math.round(ms);
      }
      timeline.push({
        at_s: Math.round((now.at - started) / 100) / 10,
        machine_ms: Math.round(now.machine - last.machine),
        browser_ms: Math.round(browserMs),
        workers_ms: workers.slice(0, 3),
        by_kind_ms: byKind,
      });
      last = now;
    }, 1_000);
    await input.setInputFiles(file);
    await page.locator("main[data-ready][data-rewarded='true']").waitFor({ timeout: 10 * 60_000 });
    clearInterval(tick);
    const wall = Date.now() - z.number().parse(await page.evaluate(() => Reflect.get(window, "benchDropAt")));
    const machine = machineBusyMs() - machineBefore;
    const all = [...threadsCpu(browser.pid)].map(([id, { name, process, ms }]) => ({
      name,
      process,
      cpu_ms: Math.round(ms - (before.get(id)?.ms ?? 0)),
    }));
    const threads = all.filter((thread) => thread.cpu_ms >= 50).sort((a, b) => b.cpu_ms - a.cpu_ms);
    return {
      rollouts,
      wall_ms: Math.round(wall),
      machine_cpu_ms: Math.round(machine),
      browser_cpu_ms: all.reduce((sum, thread) => sum + thread.cpu_ms, 0),
      threads,
      timeline,
    };
  } finally {
    await browser.close();
    app.stop();
  }
}

/** A pool worker of the app's production build, fed the rewards jobs over its port (worker/pool.worker.ts). */
async function inAppPoolWorker(
  lines: Uint8Array,
  profile: boolean,
): Promise<{ run: Pass[]; usage: Usage; evalAllowed: boolean; profile: CpuProfile | null } | null> {
  let app: { base: string; stop: () => void };
  try {
    app = await serveApp(PORT);
  } catch (error) {
    console.error(`no app pool worker run: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  const browser = await launch(CHROMIUM_ARGS);
  try {
    const page = await browser.browser.newPage();
    // tsx names the functions it compiles with __name, which the page does not have.
    await page.addInitScript("globalThis.__name = (target) => target");
    await page.addInitScript(RECORD_WORKERS);
    await page.route("**/__bench/lines.jsonl", (route) => route.fulfill({ body: Buffer.from(lines) }));
    await page.goto(app.base);
    await page.waitForFunction(() => window.benchWorkers.some((worker) => worker.options?.name === "pool-0"));
    const pool = await page.evaluate(() =>
      window.benchWorkers.find((worker) => worker.options?.name === "pool-0"),
    );
    if (!pool) throw new Error("the app started no pool worker");
    const jobs = jobsOf(lineRefs(new Blob([]), lines)).map((job) =>
      job.lines.map(({ line, offset, length }) => ({ line, offset, length })),
    );
    await page.evaluate(defineAppPool);
    // Fetched before the measured part: Playwright's route hands the bytes over slowly.
    await page.evaluate(async () => {
      window.benchLines = await (await fetch("/__bench/lines.jsonl")).blob();
    });
    const profiler = profile ? await profileWorker(page, "bench-pool") : null;
    const bare = pool.url.split("#")[0];
    const seen = page.waitForEvent("worker", (worker) => worker.url().split("#")[0] === bare);
    let evalAllowed = false;
    const { value, usage } = await withWorkerCpu(browser.pid, async () => {
      const started = page.evaluate((options) => window.benchAppPool(options), {
        url: pool.url,
        options: { ...pool.options, name: "bench-pool" },
        jobs,
        passes: PASSES,
        inFlight: REWARDS_IN_FLIGHT_PER_WORKER,
      });
      // The app's own pool workers are started from the same URL: the new one is the first seen from now on.
      evalAllowed = await (await seen).evaluate(EVAL_PROBE);
      return await started;
    });
    const run = value.map((pass) => ({ ...pass, stages: {} }));
    return { run, usage, evalAllowed, profile: profiler === null ? null : await profiler.stop() };
  } finally {
    await browser.close();
    app.stop();
  }
}

/**
 * Whether the realm may compile code from strings. Asked from a task of the realm's own: code DevTools runs
 * directly (Playwright's evaluate) is not held to the CSP.
 */
function EVAL_PROBE(): Promise<boolean> {
  return new Promise((resolve) =>
    setTimeout(() => {
      try {
        new Function("");
        resolve(true);
      } catch {
        resolve(false);
      }
    }, 0),
  );
}

/** In the page: starts one more pool worker and sends it the jobs, one at a time, `passes` times. */
function defineAppPool(): void {
  window.benchAppPool = async ({ url, options, jobs, passes, inFlight }) => {
    const blob = window.benchLines;
    if (!blob) throw new Error("the lines were not fetched");
    const worker = new Worker(url, options);
    const channel = new MessageChannel();
    worker.postMessage({ type: "port", port: channel.port1 }, [channel.port1]);
    const port = channel.port2;
    port.start();
    let next = 0;
    const request = (params: unknown) =>
      new Promise<unknown[]>((resolve, reject) => {
        const id = ++next;
        const onMessage = (event: MessageEvent) => {
          if (event.data?.id !== id) return;
          port.removeEventListener("message", onMessage);
          if (event.data.type === "result") resolve(event.data.result);
          else reject(new Error(event.data.error));
        };
        port.addEventListener("message", onMessage);
        port.postMessage({ type: "request", id, method: "rewards", params });
      });
    const out: { ms: number; rollouts: number }[] = [];
    for (let pass = 0; pass < passes; pass++) {
      const started = performance.now();
      let rollouts = 0;
      let at = 0;
      // As many jobs in flight as the rewards scheduler keeps per pool worker.
      const lane = async () => {
        while (at < jobs.length) {
          const job = jobs[at++] ?? [];
          const rows = await request({
            lines: job.map((ref) => ({ ...ref, blob })),
            inputs: null,
            serverOverride: null,
            fallbackServer: null,
            harness: { all: null, agents: {} },
            configs: null,
            source: null,
          });
          rollouts += rows.length;
        }
      };
      await Promise.all(Array.from({ length: inFlight }, lane));
      out.push({ ms: performance.now() - started, rollouts });
    }
    // Left running until the page closes: a profiled worker is asked for its profile after its last job.
    return out;
  };
}

const perRollout = (pass: Pass | undefined): number | null =>
  pass === undefined || pass.rollouts === 0 ? null : pass.ms / pass.rollouts;
const fmt = (ms: number | null): string => (ms === null ? "–" : ms.toFixed(2));

/** The fastest pass after the first (the steady state; the machine is shared, so the least disturbed one). */
function best(passes: readonly Pass[]): Pass | undefined {
  const later = passes.slice(1);
  if (later.length === 0) return passes[0];
  return later.reduce((a, b) => ((perRollout(b) ?? Infinity) < (perRollout(a) ?? Infinity) ? b : a));
}

function dropMarkdown(report: Report): string[] {
  const drop = report.drop;
  if (drop === null) return [];
  const workers = drop.threads.filter((thread) => thread.name === "DedicatedWorker");
  // The two busiest workers are the pool (the data worker is mostly idle: bench/profile-rewards.md).
  const pool = workers.slice(0, 2);
  const poolCpu = pool.reduce((sum, thread) => sum + thread.cpu_ms, 0);
  return [
    `## One drop of the whole ${label(report.size)} file into the app (production build)`,
    "",
    `${drop.rollouts} rollouts, from the drop to every reward: ${(drop.wall_ms / 1000).toFixed(1)} s. CPU time of`,
    "each busy thread of the browser's processes over that time (Linux /proc; DedicatedWorker: the data worker",
    "and the pool workers; ThreadPoolForeg: Chromium's and V8's helper threads):",
    "",
    "| thread | process | CPU s | share of the wall clock |",
    "|---|---|---|---|",
    ...drop.threads
      .slice(0, 10)
      .map(
        (thread) =>
          `| ${thread.name} | ${thread.process} | ${(thread.cpu_ms / 1000).toFixed(1)} | ${Math.round((thread.cpu_ms * 100) / drop.wall_ms)}% |`,
      ),
    "",
    `The two pool workers: ${(poolCpu / 1000).toFixed(1)} s of CPU, ${fmt(poolCpu / drop.rollouts)} ms a rollout`,
    `(index pass, rewards and search filters together), against ${fmt((2 * drop.wall_ms) / drop.rollouts)} ms a`,
    "rollout of their wall clock. The machine over the same time: its cores busy",
    `${Math.round((drop.machine_cpu_ms * 100) / (report.cpus * drop.wall_ms))}% (${(
      drop.machine_cpu_ms / 1000
    ).toFixed(1)} s of CPU), of which the browser's processes ${(drop.browser_cpu_ms / 1000).toFixed(1)} s.`,
    "",
    "Each second from the file input (Playwright's hand-over of the file included), CPU ms used in it (a core",
    "gives 1000 a second):",
    "",
    "| s | machine (every core) | browser's processes | busiest workers |",
    "|---|---|---|---|",
    ...drop.timeline.map(
      (second) =>
        `| ${second.at_s} | ${second.machine_ms} | ${second.browser_ms} | ${second.workers_ms.join(", ")} |`,
    ),
    "",
  ];
}

function markdown(report: Report): string {
  const rows = report.variants.map((variant) => {
    const { wall_ms, cpu_ms } = variant.usage;
    const done = [...variant.jobs, ...variant.stages, ...variant.cli].reduce(
      (sum, pass) => sum + pass.rollouts,
      0,
    );
    return `| ${variant.name} | ${variant.evalAllowed ? "yes" : "no"} | ${variant.jitless ? "off" : "on"} | ${fmt(
      perRollout(variant.jobs[0]),
    )} | ${fmt(perRollout(best(variant.jobs)))} | ${fmt(perRollout(best(variant.stages)))} | ${fmt(
      perRollout(best(variant.cli)),
    )} | ${(wall_ms / 1000).toFixed(1)} | ${(cpu_ms / 1000).toFixed(1)} (${Math.round(
      (cpu_ms * 100) / wall_ms,
    )}%) | ${fmt(cpu_ms / done)} |`;
  });
  const stageNames = [
    ...new Set(report.variants.flatMap((v) => v.stages.flatMap((s) => Object.keys(s.stages)))),
  ];
  const stageRows = report.variants
    .filter((v) => v.stages.length > 0)
    .map((variant) => {
      const pass = best(variant.stages);
      const cli = best(variant.cli);
      if (!pass || !cli) return "";
      return `| ${variant.name}, jit ${variant.jitless ? "off" : "on"} | ${stageNames
        .map((stage) => fmt((pass.stages[stage] ?? 0) / pass.rollouts))
        .join(" | ")} | ${fmt((cli.stages.runRow ?? 0) / cli.rollouts)} |`;
    });
  return [
    "# One rollout of the rewards pass: Node and Chromium's workers (`npm run bench:pool-worker`)",
    "",
    `${report.date}: the first ${report.rollouts} rollouts (${(report.bytes / 1e6).toFixed(1)} MB) of the ${label(
      report.size,
    )} generated file, ${report.passes} passes of each kind; ${report.cpus} cores, 1-minute load ${report.load_before.toFixed(
      1,
    )} before and ${report.load_after.toFixed(1)} after. Node ${report.node}, ${report.chromium}.${
      report.js_flags === null ? "" : ` Chromium's flagged runs: \`--js-flags=${report.js_flags}\`.`
    }`,
    "",
    "Milliseconds per rollout. *jobs*: worker/jobs.ts rewardBatch in the scheduler's job sizes, two in flight",
    "(what a pool worker does in the rewards pass); *steps*: the same work step by step, each timed; *cli*: what",
    "`cli triage` does per line (JSON.parse, the rollout schema, runRow). *later*: the fastest pass after the",
    "first. *eval*: whether the realm may compile code from strings; *zod jit*: zod's compiled object parsers",
    "(off: `jitless`, as they would be under a CSP without 'unsafe-eval'). *wall* and *CPU*: the whole run (every",
    "pass, the app worker's start included) and its thread's CPU time from /proc: CPU below wall is waiting for",
    "a core. *CPU a rollout*: CPU time over every rollout of every pass (comparable between the *jobs only* runs",
    "and the app pool worker, which only do jobs; the app worker's start is in it).",
    "",
    "| where | eval | zod jit | jobs, first pass | jobs, later | steps, later | cli, later | wall s | CPU s | CPU a rollout |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "Each step, ms per rollout (the fastest pass after the first; and the CLI's runRow):",
    "",
    `| where | ${stageNames.join(" | ")} | cli runRow |`,
    `|---|${stageNames.map(() => "---|").join("")}---|`,
    ...stageRows,
    "",
    ...dropMarkdown(report),
  ].join("\n");
}

interface Report {
  readonly date: string;
  readonly file: string;
  readonly size: number;
  readonly bytes: number;
  readonly rollouts: number;
  readonly passes: number;
  readonly cpus: number;
  readonly load_before: number;
  readonly load_after: number;
  readonly node: string;
  readonly chromium: string;
  readonly js_flags: string | null;
  readonly variants: {
    readonly name: string;
    readonly evalAllowed: boolean;
    readonly jitless: boolean;
    readonly jobs: Pass[];
    readonly stages: Pass[];
    readonly cli: Pass[];
    readonly usage: Usage;
  }[];
  readonly drop: DropUsage | null;
}

/**
 * Profiled runs (one pass each way, timings not kept: the Profiler slows them): the bare worker's and the app
 * pool worker's self time by function, the raw profiles written into `dir`.
 */
async function profiles(bundlePath: string, lines: Uint8Array, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const bare: CpuProfile[] = [];
  const run = { name: "chromium worker", jitless: false, kinds: ["jobs"] as const };
  await inBareWorker(bundlePath, lines, [run], undefined, bare);
  const app = await inAppPoolWorker(lines, true);
  const maps = new SourceMaps(ROOT);
  const parts = ["# Profiles of `npm run bench:pool-worker -- --profile`", ""];
  const named: [string, CpuProfile | null | undefined][] = [
    ["chromium worker (esbuild bundle)", bare[0]],
    ["app pool worker (Turbopack build)", app?.profile],
  ];
  for (const [name, profile] of named) {
    if (!profile) continue;
    const file = path.join(dir, `${name.split(" (")[0]?.replaceAll(" ", "-")}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    parts.push(summaryMarkdown(name, summarize(profile, maps, 40), 30), "");
    console.error(`wrote ${file}`);
  }
  return parts.join("\n");
}

async function main(): Promise<void> {
  // `--markdown`: PREFIX.md again from PREFIX.json, without running anything.
  if (process.argv.includes("--markdown")) {
    const report: Report = JSON.parse(readFileSync(`${OUT}.json`, "utf8"));
    writeFileSync(`${OUT}.md`, markdown(report));
    return;
  }
  const loadBefore = loadavg()[0] ?? 0;
  const lines = firstLines(FILE, LINES);
  const dir = mkdtempSync(path.join(tmpdir(), "pool-worker-bench-"));
  const bundlePath = await bundle(dir);
  const linesPath = path.join(dir, "lines.jsonl");
  writeFileSync(linesPath, lines);

  const variants: Report["variants"][number][] = [];
  const add = (name: string, jitless: boolean, run: Run, usage: Usage) => {
    variants.push({ name, jitless, ...run, usage });
    const last = run.jobs[run.jobs.length - 1];
    console.error(`${name}: ${fmt(perRollout(last))} ms a rollout (jobs, last pass)`);
  };
  if (ONLY.has("node")) {
    for (const { name, jitless, kinds } of RUNS) {
      const { run, usage } = inNode(bundlePath, linesPath, jitless, kinds);
      add(name.replace("chromium worker", "node"), jitless, run, usage);
    }
  }
  if (ONLY.has("bare"))
    for (const variant of await inBareWorker(bundlePath, lines, RUNS, undefined))
      add(variant.name, variant.jitless, variant.run, variant.usage);
  if (JS_FLAGS !== undefined) {
    const flagged = RUNS.map((run) => ({ ...run, name: `${run.name}, --js-flags=${JS_FLAGS}` }));
    for (const variant of await inBareWorker(bundlePath, lines, flagged, JS_FLAGS))
      add(variant.name, variant.jitless, variant.run, variant.usage);
  }
  const app = ONLY.has("app") ? await inAppPoolWorker(lines, false) : null;
  if (app !== null)
    add(
      "app pool worker (Turbopack build)",
      false,
      { evalAllowed: app.evalAllowed, jobs: app.run, stages: [], cli: [] },
      app.usage,
    );

  const drop = ONLY.has("drop") ? await appDrop(FILE, countLines(FILE)) : null;

  const browser = await launch(CHROMIUM_ARGS);
  const version = browser.browser.version();
  await browser.close();
  const report: Report = {
    date: new Date().toISOString(),
    file: path.basename(FILE),
    size: SIZE,
    bytes: lines.length,
    rollouts: variants[0]?.jobs[0]?.rollouts ?? 0,
    passes: PASSES,
    cpus: cpus().length,
    load_before: loadBefore,
    load_after: loadavg()[0] ?? 0,
    node: process.version,
    chromium: `Chromium ${version}`,
    js_flags: JS_FLAGS ?? null,
    variants,
    drop,
  };
  if (PROFILE !== undefined) writeFileSync(`${OUT}-profiles.md`, await profiles(bundlePath, lines, PROFILE));
  writeFileSync(`${OUT}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${OUT}.md`, markdown(report));
  console.error(`wrote ${OUT}.md and ${OUT}.json`);
}

await main();
