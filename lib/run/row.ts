/**
 * One run row per rollout: what the run view lists, filters, counts and exports. Computed once per rollout
 * from the verify results under both policies, the why-zero triage and response.model/usage, so the CLI and
 * the browser list the same rows (and an export from either is the same bytes).
 */

import { z } from "zod";
import { type MetricsRow, readModelUsage } from "../metrics";
import type { Rollout } from "../schemas";
import {
  explainDrift,
  type Reproduction,
  reproducedBy,
  sameFailureTasks,
  triageRollout,
  type ZeroCause,
} from "../triage";
import { type VerifyOptions, verifyBothPolicies } from "../verify";
import type { VerifyResult } from "../verify/types";

export interface RunRow {
  readonly line: number;
  readonly task_index: number | null;
  readonly rollout_index: number | null;
  readonly task_id: string | null;
  readonly agent: string | null;
  readonly server: string | null;
  readonly model: string | null;
  readonly recorded: number | null;
  readonly contract: number | null;
  readonly legacy: number | null;
  readonly cause: ZeroCause | null;
  readonly cause_sentence: string | null;
  /** Which policy's recomputation equals the recorded reward (null: nothing to compare). */
  readonly reproduced_by: Reproduction | null;
  /** When the recorded reward matches neither policy's: what differs and which number to trust. */
  readonly drift: string | null;
  /** The calls that lost the reward: 0-based indexes of the function_call items in response.output order. */
  readonly decisive_calls: readonly number[];
  /** How the rollout failed, comparable between rollouts (task_wide); not exported. */
  readonly signature: string | null;
  readonly calls: number;
  /** Distinct call flags and highlights under the contract policy, sorted (e.g. alias_guess, ambiguous). */
  readonly flags: readonly string[];
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly total_tokens: number | null;
  readonly cached_tokens: number | null;
  readonly reasoning_tokens: number | null;
  /** Why no reward could be recomputed under the contract policy. */
  readonly error: string | null;
}

/** CSV column order (every RunRow key but the internal signature; lists joined with spaces). */
export const RUN_ROW_COLUMNS = [
  "line",
  "task_index",
  "rollout_index",
  "task_id",
  "agent",
  "server",
  "model",
  "recorded",
  "contract",
  "legacy",
  "cause",
  "cause_sentence",
  "reproduced_by",
  "drift",
  "decisive_calls",
  "calls",
  "flags",
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "cached_tokens",
  "reasoning_tokens",
  "error",
] as const satisfies readonly (keyof RunRow)[];

/** How the row's rollout is verified (lib/verify's options, without the policy: both are computed). */
export interface RunRowOptions extends Omit<VerifyOptions, "policy"> {
  /** Precomputed results for the same options. */
  readonly contract?: VerifyResult;
  readonly legacy?: VerifyResult;
}

const MetaSchema = z.looseObject({
  _ng_task_index: z.number().int().optional().catch(undefined),
  _ng_rollout_index: z.number().int().optional().catch(undefined),
  id: z.union([z.string(), z.number()]).optional().catch(undefined),
  agent_ref: z
    .looseObject({ name: z.string().optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

function flagsOf(result: VerifyResult): string[] {
  const names = new Set<string>();
  for (const call of result.resolution.calls) {
    if (call.highlight !== "none") names.add(call.highlight);
    for (const flag of call.flags) names.add(flag.name);
  }
  return [...names].sort();
}

export function runRow(line: number, value: Rollout, options: RunRowOptions = {}): RunRow {
  const { contract: givenContract, legacy: givenLegacy, ...verifyOptions } = options;
  const { contract, legacy } = verifyBothPolicies(value, verifyOptions, {
    contract: givenContract,
    legacy: givenLegacy,
  });
  const triage = triageRollout(value, {
    ...(contract.server === null ? {} : { server: contract.server }),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.harness === undefined ? {} : { harness: options.harness }),
    contract,
    legacy,
  });
  const parsed = MetaSchema.safeParse(value);
  const meta = parsed.success ? parsed.data : {};
  const inputMeta = MetaSchema.safeParse(options.input);
  const id = meta.id ?? (inputMeta.success ? inputMeta.data.id : undefined);
  const { model, usage } = readModelUsage(value);
  return {
    line,
    task_index: meta._ng_task_index ?? null,
    rollout_index: meta._ng_rollout_index ?? null,
    task_id: id === undefined ? null : String(id),
    agent: meta.agent_ref?.name ?? null,
    server: contract.server === "" ? null : contract.server,
    model,
    recorded: contract.recorded_reward,
    contract: contract.reward,
    legacy: legacy.reward,
    cause: triage?.cause ?? null,
    cause_sentence: triage?.sentence ?? null,
    reproduced_by: reproducedBy(contract.recorded_reward, contract.reward, legacy.reward),
    drift: triage === null ? explainDrift(value, contract, legacy, contract) : triage.drift,
    decisive_calls: triage?.decisive.map((call) => call.index) ?? [],
    signature: triage?.signature ?? null,
    calls: contract.resolution.calls.length,
    flags: flagsOf(contract),
    input_tokens: usage?.input_tokens ?? null,
    output_tokens: usage?.output_tokens ?? null,
    total_tokens: usage?.total_tokens ?? null,
    cached_tokens: usage?.cached_tokens ?? null,
    reasoning_tokens: usage?.reasoning_tokens ?? null,
    error: contract.error ?? null,
  };
}

/** The metrics view of a row (lib/metrics). */
export function metricsOf(row: RunRow): MetricsRow {
  return {
    line: row.line,
    agent: row.agent,
    task: rowTask(row),
    server: row.server,
    recorded: row.recorded,
    contract: row.contract,
    legacy: row.legacy,
    model: row.model,
    usage:
      row.total_tokens === null
        ? null
        : {
            input_tokens: row.input_tokens ?? 0,
            output_tokens: row.output_tokens ?? 0,
            total_tokens: row.total_tokens,
            cached_tokens: row.cached_tokens ?? 0,
            reasoning_tokens: row.reasoning_tokens ?? 0,
          },
  };
}

/** The task a row counts toward for grouping and pass@k: its _ng_task_index, else its task id. */
export function rowTask(row: RunRow): string | null {
  return row.task_index !== null ? String(row.task_index) : row.task_id;
}

/**
 * The run-level cause (lib/triage task-wide): the rows of every task whose rollouts all failed the same way
 * become task_wide, their sentence saying so before the rollout's own. Needs every row of the run.
 */
export function withTaskWide(rows: readonly RunRow[]): RunRow[] {
  const tasks = sameFailureTasks(
    rows.map((row) => ({ task: rowTask(row), cause: row.cause, signature: row.signature })),
  );
  if (tasks.size === 0) return [...rows];
  const sizes = new Map<string, number>();
  for (const row of rows) {
    const task = rowTask(row);
    if (task !== null) sizes.set(task, (sizes.get(task) ?? 0) + 1);
  }
  return rows.map((row) => {
    const task = rowTask(row);
    if (task === null || !tasks.has(task)) return row;
    return {
      ...row,
      cause: "task_wide",
      cause_sentence: `Every rollout of task ${task} (${sizes.get(task)}) failed the same way: ${row.cause_sentence ?? ""}`,
    };
  });
}
