/**
 * The rewards pass of one pool worker, over lines given as bytes, for bench/pool-worker.ts: bundled once
 * (esbuild) and run the same in Node and in a bare Chromium worker, so the two are compared on the same code.
 *
 * - `jobsPass`: worker/jobs.ts rewardBatch, in jobs the size the rewards scheduler makes, as the pool runs it;
 * - `stagesPass`: the same steps one by one, each timed (decode + JSON.parse, the rollout schema, the row
 *   context, analyzeRolloutRun, the search filter);
 * - `cliPass`: what `cli triage` does per line (JSON.parse, the rollout schema, runRow), for the gap between
 *   the two front ends' work.
 */
import { readLine } from "../lib/folder";
import { parseJsonLine } from "../lib/jsonl";
import { runRow } from "../lib/run";
import { analyzeRolloutRun } from "../worker/core";
import {
  DROPPED_FILE,
  type LineRef,
  type RewardJob,
  rewardBatch,
  rolloutOf,
  rowContext,
} from "../worker/jobs";
import {
  REWARD_BATCH_BYTES,
  REWARD_BATCH_LINES,
  REWARDS_IN_FLIGHT_PER_WORKER,
} from "../worker/rewards-scheduler";
import { lineFilter } from "../worker/search";

export interface Pass {
  readonly ms: number;
  readonly rollouts: number;
  /** Milliseconds per step (stagesPass only). */
  readonly stages: Readonly<Record<string, number>>;
}

/** Every line of `bytes` (a JSONL text), as the data worker would name them in the Blob. */
export function lineRefs(blob: Blob, bytes: Uint8Array): LineRef[] {
  const refs: LineRef[] = [];
  let offset = 0;
  let line = 1;
  while (offset < bytes.length) {
    let end = bytes.indexOf(0x0a, offset);
    if (end === -1) end = bytes.length;
    if (end > offset) refs.push({ line, blob, offset, length: end - offset });
    offset = end + 1;
    line++;
  }
  return refs;
}

/** The rewards scheduler's jobs: about REWARD_BATCH_BYTES of lines, at most REWARD_BATCH_LINES. */
export function jobsOf(refs: readonly LineRef[]): RewardJob[] {
  const jobs: RewardJob[] = [];
  let lines: LineRef[] = [];
  let bytes = 0;
  for (const ref of refs) {
    if (lines.length > 0 && (bytes + ref.length > REWARD_BATCH_BYTES || lines.length >= REWARD_BATCH_LINES)) {
      jobs.push({ lines, inputs: null, ...DROPPED_FILE });
      lines = [];
      bytes = 0;
    }
    lines.push(ref);
    bytes += ref.length;
  }
  if (lines.length > 0) jobs.push({ lines, inputs: null, ...DROPPED_FILE });
  return jobs;
}

/** The jobs, REWARDS_IN_FLIGHT_PER_WORKER at a time as the scheduler sends them (one's read overlaps another's work). */
export async function jobsPass(refs: readonly LineRef[]): Promise<Pass> {
  const started = performance.now();
  const jobs = jobsOf(refs);
  let rollouts = 0;
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      // Not `rollouts += await ...`: that reads `rollouts` before the await, losing the other lane's count.
      const rows = await rewardBatch(jobs[next++]!);
      rollouts += rows.length;
    }
  };
  await Promise.all(Array.from({ length: REWARDS_IN_FLIGHT_PER_WORKER }, lane));
  return { ms: performance.now() - started, rollouts, stages: {} };
}

const decoder = new TextDecoder();

export async function stagesPass(refs: readonly LineRef[], bytes: Uint8Array): Promise<Pass> {
  const stages = { parse: 0, rollout: 0, context: 0, analyze: 0, filter: 0 };
  let rollouts = 0;
  const started = performance.now();
  for (const ref of refs) {
    const lineBytes = bytes.subarray(ref.offset, ref.offset + ref.length);
    let at = performance.now();
    const parsed = parseJsonLine(decoder.decode(lineBytes));
    let now = performance.now();
    stages.parse += now - at;
    at = now;
    const rollout = rolloutOf(parsed.ok ? parsed.value : undefined);
    now = performance.now();
    stages.rollout += now - at;
    at = now;
    if (rollout === null) continue;
    const context = await rowContext(rollout, null, DROPPED_FILE);
    now = performance.now();
    stages.context += now - at;
    at = now;
    analyzeRolloutRun(ref.line, rollout, context);
    now = performance.now();
    stages.analyze += now - at;
    at = now;
    lineFilter(lineBytes);
    stages.filter += performance.now() - at;
    rollouts++;
  }
  return { ms: performance.now() - started, rollouts, stages };
}

export function cliPass(refs: readonly LineRef[], bytes: Uint8Array): Pass {
  const stages = { parse: 0, rollout: 0, runRow: 0 };
  let rollouts = 0;
  const started = performance.now();
  for (const ref of refs) {
    let at = performance.now();
    const parsed = parseJsonLine(decoder.decode(bytes.subarray(ref.offset, ref.offset + ref.length)));
    let now = performance.now();
    stages.parse += now - at;
    at = now;
    if (!parsed.ok) continue;
    const read = readLine(parsed.value);
    now = performance.now();
    stages.rollout += now - at;
    at = now;
    if (!read.ok) continue;
    runRow(ref.line, read.rollout, { config: null });
    stages.runRow += performance.now() - at;
    rollouts++;
  }
  return { ms: performance.now() - started, rollouts, stages };
}

/** Whether this realm may compile code from strings (zod's compiled object parsers need it). */
export function evalAllowed(): boolean {
  try {
    new Function("");
    return true;
  } catch {
    return false;
  }
}

export interface Run {
  readonly evalAllowed: boolean;
  /** Each kind's passes over the same lines, in order (the first one includes warming up). */
  readonly jobs: Pass[];
  readonly stages: Pass[];
  readonly cli: Pass[];
}

export type Kind = "jobs" | "stages" | "cli";

/** `passes` passes of each kind over the lines of `bytes`. */
export async function runAll(
  bytes: Uint8Array<ArrayBuffer>,
  passes: number,
  kinds: readonly Kind[] = ["jobs", "stages", "cli"],
): Promise<Run> {
  const refs = lineRefs(new Blob([bytes]), bytes);
  const run = {
    evalAllowed: evalAllowed(),
    jobs: [] as Pass[],
    stages: [] as Pass[],
    cli: [] as Pass[],
  };
  for (let i = 0; i < passes; i++) {
    if (kinds.includes("jobs")) run.jobs.push(await jobsPass(refs));
    if (kinds.includes("stages")) run.stages.push(await stagesPass(refs, bytes));
    if (kinds.includes("cli")) run.cli.push(cliPass(refs, bytes));
  }
  return run;
}
