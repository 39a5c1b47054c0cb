/**
 * Runs the CLI in a child node process and reports its peak resident memory (VmHWM from /proc, Linux
 * only) and wall time: the measurement behind bench:memory and bench/nested-line.bench.ts.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** How often the child's peak RSS is sampled; VmHWM is a high-water mark, so sampling only needs to be last. */
const SAMPLE_MS = 100;

function peakRssMiB(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] === undefined ? null : Number(match[1]) / 1024;
  } catch {
    return null; // the process has exited
  }
}

export interface ChildRun {
  readonly peakMiB: number;
  readonly seconds: number;
  readonly code: number | null;
  readonly stdout: string;
}

/** `cli/main.ts args` in one node process (no npm or tsx wrapper), so /proc/<pid> is the CLI itself. */
export async function measureCli(args: readonly string[]): Promise<ChildRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "cli/main.ts", ...args], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  let peak = 0;
  const timer = setInterval(() => {
    if (child.pid !== undefined) peak = Math.max(peak, peakRssMiB(child.pid) ?? 0);
  }, SAMPLE_MS);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(timer);
  return { peakMiB: peak, seconds: (performance.now() - started) / 1000, code, stdout };
}
