/**
 * The generated rollouts files the benchmarks read (scripts/gen-big-rollouts.ts, seed 1), made once into
 * BENCH_DIR (default $TMPDIR/rollout-inspector-bench) and kept there for the next run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./browser-app";

export const BENCH_DIR = process.env.BENCH_DIR ?? path.join(tmpdir(), "rollout-inspector-bench");

/** "300 MB", "1 GB". */
export function label(bytes: number): string {
  return bytes >= 1e9 ? `${bytes / 1e9} GB` : `${bytes / 1e6} MB`;
}

/** The path of a generated file of about `bytes`, generating it first when it is not there. */
export function ensureFile(bytes: number): string {
  mkdirSync(BENCH_DIR, { recursive: true });
  const file = path.join(BENCH_DIR, `rollouts-${bytes}.jsonl`);
  if (!existsSync(file)) {
    console.error(`generating ${label(bytes)} into ${file}…`);
    const result = spawnSync("npx", ["tsx", "scripts/gen-big-rollouts.ts", file, "--bytes", String(bytes)], {
      cwd: ROOT,
      stdio: "inherit",
    });
    if (result.status !== 0) throw new Error("could not generate the benchmark file");
  }
  return file;
}
