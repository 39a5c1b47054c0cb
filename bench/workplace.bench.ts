/**
 * workplace_assistant verification throughput: the golden rollouts (fixtures/golden/workplace-rollouts/
 * wa_rollouts.jsonl) verified under the legacy policy's verifier names, in a loop for about BENCH_SECONDS on
 * one core. Gym takes about 60 ms per rollout; the target is 100x faster (< 0.6 ms). Run directly:
 *
 *   npx tsx bench/workplace.bench.ts
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { workplaceAssistantVerifier } from "../lib/verifiers/workplace_assistant";

const BENCH_SECONDS = 3;
/** Excluded from the timing: the one-time CSV parse and JIT warm-up. */
const WARMUP_ROUNDS = 3;
const DIR = join(process.cwd(), "fixtures/golden/workplace-rollouts");

const Expected = z.object({ legacy: z.object({ calls: z.array(z.object({ verifier_name: z.string() })) }) });
const Rollout = z.looseObject({ response: z.looseObject({ output: z.array(z.unknown()) }) });
const Item = z.looseObject({ type: z.unknown() });

function lines(name: string): unknown[] {
  return readFileSync(join(DIR, name), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

/** The verify requests the pipeline would build under the legacy policy. */
function legacyRequests(): Record<string, unknown>[] {
  const expected = lines("wa_expected.jsonl").map((e) => Expected.parse(e));
  return lines("wa_rollouts.jsonl").map((raw, i) => {
    const rollout = Rollout.parse(raw);
    const names = expected[i]!.legacy.calls.map((c) => c.verifier_name);
    let next = 0;
    const output = rollout.response.output.map((item) => {
      const typed = Item.safeParse(item);
      return typed.success && typed.data.type === "function_call"
        ? { ...typed.data, name: names[next++] }
        : item;
    });
    return { ...rollout, response: { ...rollout.response, output } };
  });
}

export interface WorkplaceBenchResult {
  name: string;
  rolloutsPerSecond: number;
  msPerRollout: number;
  /** CPU time (user + system) per rollout: steadier than wall time when the machine is shared. */
  cpuMsPerRollout: number;
}

export function benchWorkplace(): WorkplaceBenchResult {
  const requests = legacyRequests();
  let checksum = 0;
  for (let r = 0; r < WARMUP_ROUNDS; r++) {
    for (const request of requests) checksum += workplaceAssistantVerifier.verify(request).reward;
  }
  let verified = 0;
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  const deadline = started + BENCH_SECONDS * 1000;
  while (performance.now() < deadline) {
    for (const request of requests) checksum += workplaceAssistantVerifier.verify(request).reward;
    verified += requests.length;
  }
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStarted);
  if (checksum < 0) throw new Error("unreachable: keeps the loop from being optimized away");
  return {
    name: "workplace_assistant verify (golden wa_rollouts, legacy names)",
    rolloutsPerSecond: Math.round((verified / elapsedMs) * 1000),
    msPerRollout: elapsedMs / verified,
    cpuMsPerRollout: (cpu.user + cpu.system) / 1000 / verified,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = benchWorkplace();
  console.log(
    `${result.name}: ${result.rolloutsPerSecond} rollouts/s, ${result.msPerRollout.toFixed(4)} ms per rollout ` +
      `(${result.cpuMsPerRollout.toFixed(4)} ms CPU per rollout)`,
  );
}
