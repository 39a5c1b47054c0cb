/**
 * `npm run bench`: runs every benchmark, prints a table and writes bench/results.json.
 *
 * The headline is workplace_assistant verification throughput on one core (this process is single-threaded):
 * Gym takes about GYM_MS_PER_ROLLOUT per rollout, and the target is TARGET_SPEEDUP times faster. The
 * verifier alone (bench/workplace.bench.ts) and the whole pipeline (resolve + canonical copy + verify, here)
 * are both measured, so the cost of the call-identity work is visible.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { rolloutOrThrow } from "../lib/schemas";
import { verifyRollout } from "../lib/verify";
import { benchGzip } from "./gzip.bench";
import { benchHostile } from "./hostile.bench";
import { benchJsonl } from "./jsonl.bench";
import { benchWorkplace } from "./workplace.bench";

/** Gym's workplace_assistant /verify cost per rollout (pandas replay), from the project brief. */
const GYM_MS_PER_ROLLOUT = 60;
const TARGET_SPEEDUP = 100;
const PIPELINE_SECONDS = 3;
const PIPELINE_WARMUP_ROUNDS = 3;
const RESULTS_FILE = join(process.cwd(), "bench/results.json");
const GOLDEN_WORKPLACE = join(process.cwd(), "fixtures/golden/workplace-rollouts/wa_rollouts.jsonl");

interface Row {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** For per-rollout verification: how many times faster than Gym's GYM_MS_PER_ROLLOUT. */
  readonly speedup_vs_gym?: number;
  readonly meets_target?: boolean;
  readonly cpu_ms_per_rollout?: number;
}

function verificationRow(name: string, rolloutsPerSecond: number, msPerRollout: number): Row {
  const speedup = GYM_MS_PER_ROLLOUT / msPerRollout;
  return {
    name,
    value: rolloutsPerSecond,
    unit: `rollouts/s (${msPerRollout.toFixed(4)} ms each)`,
    speedup_vs_gym: Math.round(speedup * 10) / 10,
    meets_target: speedup >= TARGET_SPEEDUP,
  };
}

/** verifyRollout end to end on the golden workplace rollouts, contract policy, for PIPELINE_SECONDS. */
function benchPipeline(): Row {
  const rollouts = readFileSync(GOLDEN_WORKPLACE, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => rolloutOrThrow(JSON.parse(line)));
  let checksum = 0;
  const once = () => {
    for (const rollout of rollouts) checksum += verifyRollout(rollout, { policy: "contract" }).reward ?? 0;
  };
  for (let i = 0; i < PIPELINE_WARMUP_ROUNDS; i++) once();
  let verified = 0;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const deadline = started + PIPELINE_SECONDS * 1000;
  while (performance.now() < deadline) {
    once();
    verified += rollouts.length;
  }
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  if (checksum < 0) throw new Error("unreachable: keeps the loop from being optimized away");
  return {
    ...verificationRow(
      "workplace_assistant verifyRollout pipeline (resolve + canonicalize + verify, golden, contract)",
      Math.round((verified / elapsed) * 1000),
      elapsed / verified,
    ),
    // CPU time (including GC helper threads) is less sensitive than wall time to other processes on the machine.
    cpu_ms_per_rollout: Math.round(((cpu.user + cpu.system) / 1000 / verified) * 10_000) / 10_000,
  };
}

function printTable(rows: readonly Row[]): void {
  const nameWidth = Math.max(...rows.map((r) => r.name.length));
  for (const row of rows) {
    const speed =
      row.speedup_vs_gym === undefined
        ? ""
        : `  ${row.speedup_vs_gym}x Gym (target ${TARGET_SPEEDUP}x: ${row.meets_target ? "met" : "NOT met"})`;
    const cpu = row.cpu_ms_per_rollout === undefined ? "" : `  (cpu ${row.cpu_ms_per_rollout} ms each)`;
    process.stdout.write(
      `${row.name.padEnd(nameWidth)}  ${row.value.toFixed(1).padStart(10)} ${row.unit}${speed}${cpu}\n`,
    );
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const workplace = benchWorkplace();
  rows.push(verificationRow(workplace.name, workplace.rolloutsPerSecond, workplace.msPerRollout));
  rows.push(benchPipeline());
  const jsonl = await benchJsonl();
  rows.push({ name: jsonl.name, value: Math.round(jsonl.mbPerSecond * 10) / 10, unit: "MB/s" });
  rows.push(...(await benchHostile()));
  rows.push(...(await benchGzip()));

  printTable(rows);
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    // Other processes share the machine; a load above the core count slows every number here.
    load_average_1min: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    gym_ms_per_rollout: GYM_MS_PER_ROLLOUT,
    target_speedup: TARGET_SPEEDUP,
    results: rows,
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`wrote ${RESULTS_FILE}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
