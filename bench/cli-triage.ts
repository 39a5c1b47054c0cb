/**
 * `cli triage FILE` timed under `/usr/bin/time -v` (GNU time): wall clock, CPU time and peak resident memory
 * of the one node process (its worker threads included), on one thread and on N. Shared by
 * bench/cli-threads.ts and bench/browser.ts (which sets the browser's figures beside the CLI's).
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { ROOT } from "./browser-app";

export interface TriageRun {
  readonly threads: number;
  readonly wall_s: number;
  /** User + system CPU seconds: above wall_s when more than one core worked. */
  readonly cpu_s: number;
  readonly peak_rss_mib: number;
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
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
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
