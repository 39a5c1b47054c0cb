/**
 * `cli triage FILE` timed under `/usr/bin/time -v` (GNU time): wall clock, CPU time and peak resident memory
 * of the one node process (its worker threads included), on one thread and on N. Shared by
 * bench/cli-threads.ts and bench/browser.ts (which sets the browser's figures beside the CLI's).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { ROOT } from "./browser-app";

export interface TriageRun {
  readonly threads: number;
  readonly wall_s: number;
  /** User + system CPU seconds: above wall_s when more than one core worked. */
  readonly cpu_s: number;
  readonly peak_rss_mib: number;
  /** CPU seconds per kind of thread of the node process (Linux /proc only; null elsewhere). */
  readonly thread_cpu_s: ThreadCpu | null;
}

/**
 * The node process's CPU by thread: its main thread; the threads it started once running (the worker
 * threads: the pool starts after the command's modules have loaded); the threads it started at once (V8's
 * GC and compiler threads, libuv's).
 */
export interface ThreadCpu {
  readonly main: number;
  readonly workers: number;
  readonly helpers: number;
}

/** Threads started this long after the process are its worker threads (V8's and libuv's start in its first 0.1 s). */
const WORKER_AFTER_S = 0.2;
/** How often the threads' CPU is read: a thread's last interval before it ends is not counted. */
export const SAMPLE_MS = 50;
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** utime + stime and start time (in clock ticks) of a /proc stat line (fields 14, 15 and 22). */
function statTimes(text: string): { cpu: number; start: number } {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { cpu: Number(fields[11]) + Number(fields[12]), start: Number(fields[19]) };
}

/**
 * Reads the CPU of each thread of the process GNU time runs as `timePid`, every SAMPLE_MS until stopped;
 * null when /proc cannot be read.
 */
function sampleThreads(timePid: number): () => ThreadCpu | null {
  const last = new Map<number, { cpu: number; start: number }>();
  let node: number | null = null;
  let failed = false;
  const sample = () => {
    try {
      node ??=
        Number(readFileSync(`/proc/${timePid}/task/${timePid}/children`, "utf8").trim().split(" ")[0]) ||
        null;
      if (node === null) return;
      for (const tid of readdirSync(`/proc/${node}/task`)) {
        try {
          last.set(Number(tid), statTimes(readFileSync(`/proc/${node}/task/${tid}/stat`, "utf8")));
        } catch {
          // The thread ended between the listing and the read: its last sample stands.
        }
      }
    } catch {
      // Not started yet, or already gone; with no sample at all, no figures.
      if (last.size === 0 && node !== null) failed = true;
    }
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    const main = node === null ? undefined : last.get(node);
    if (failed || main === undefined) return null;
    const totals = { main: main.cpu, workers: 0, helpers: 0 };
    for (const [tid, times] of last) {
      if (tid === node) continue;
      if ((times.start - main.start) / TICKS >= WORKER_AFTER_S) totals.workers += times.cpu;
      else totals.helpers += times.cpu;
    }
    const seconds = (ticks: number) => Math.round((ticks / TICKS) * 100) / 100;
    return { main: seconds(totals.main), workers: seconds(totals.workers), helpers: seconds(totals.helpers) };
  };
}

const GNU_TIME = "/usr/bin/time";

/** A field of `/usr/bin/time -v`'s report. */
function field(report: string, name: string): string {
  const line = report
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.startsWith(`${name}: `));
  if (line === undefined) throw new Error(`/usr/bin/time -v gave no "${name}"`);
  return line.slice(name.length + 2);
}

/** "h:mm:ss" or "m:ss.ss" in seconds. */
function clock(text: string): number {
  return text.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

/** Runs `cli triage FILE --threads N` (node --import tsx, no npm wrapper); returns its figures and stdout. */
export async function timeTriage(file: string, threads: number): Promise<TriageRun & { stdout: string }> {
  const child = spawn(
    GNU_TIME,
    ["-v", process.execPath, "--import", "tsx", "cli/main.ts", "triage", file, "--threads", String(threads)],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  const threadCpu = child.pid === undefined ? () => null : sampleThreads(child.pid);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const thread_cpu_s = threadCpu();
  if (code !== 0)
    throw new Error(`cli triage --threads ${threads} exited with ${code}:\n${stderr.slice(-2000)}`);
  const report = stderr.slice(stderr.lastIndexOf("Command being timed:"));
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    threads,
    wall_s: round(clock(field(report, "Elapsed (wall clock) time (h:mm:ss or m:ss)"))),
    cpu_s: round(
      Number(field(report, "User time (seconds)")) + Number(field(report, "System time (seconds)")),
    ),
    peak_rss_mib: Math.round(Number(field(report, "Maximum resident set size (kbytes)")) / 1024),
    thread_cpu_s,
    stdout,
  };
}

export interface TriageComparison {
  readonly single: TriageRun;
  readonly multi: TriageRun;
  /** multi wall / single wall: issue 21 asks for 0.6 or less. */
  readonly multi_over_single: number;
  /** The two summaries were byte for byte the same. */
  readonly identical: boolean;
}

/** `cli triage` on one thread, then on one per core (`threads`), on the same file. */
export async function compareTriage(
  file: string,
  threads = availableParallelism(),
): Promise<TriageComparison> {
  const { stdout: one, ...single } = await timeTriage(file, 1);
  const { stdout: many, ...multi } = await timeTriage(file, threads);
  return {
    single,
    multi,
    multi_over_single: Math.round((multi.wall_s / single.wall_s) * 100) / 100,
    identical: one === many,
  };
}
