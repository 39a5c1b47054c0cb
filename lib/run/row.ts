/**
 * One row per rollout, the one row model: the rollout's own fields (read here, once, with one schema) and
 * what verifying it under both policies found make a RolloutRow, what the inspector's list shows (the
 * worker adds only its own state); the run view's RunRow adds the why-zero triage, response.model/usage and
 * the call flags, and is what the run view filters, counts and exports. Computed once per rollout, so the
 * CLI and the browser list the same rows (and an export from either is the same bytes).
 */

import { z } from "zod";
import type { MapState } from "../identity/types";
import { type MetricsRow, readModelUsage } from "../metrics";
import type { Rollout } from "../schemas";
import {
  countedFields,
  explainDrift,
  type RecordedField,
  type Reproduction,
  reproducedBy,
  sameFailureTasks,
  triageRollout,
  type ZeroCause,
} from "../triage";
import {
  type BothPolicies,
  type InputIndex,
  lineAgent,
  type PairedBy,
  type Pairing,
  pairedInput,
  pairingKey,
  type ServerSource,
  type UnverifiedCode,
  type VerifyOptions,
  verifyBothPolicies,
} from "../verify";
import type { VerifyResult } from "../verify/types";

/** What a rollout line says about itself (with its paired input row's task id and environment). */
export interface RolloutFields {
  readonly task_index: number | null;
  readonly rollout_index: number | null;
  /**
   * The task's own name (the line's, else its input row's), stringified: the first of `task_id`,
   * `problem_id`, `instance_id` (the fields Gym names a trajectory's task by) and `id`.
   */
  readonly task_id: string | null;
  /** The task the rollout counts toward (pass@k, task-wide causes, by task): rolloutTask. */
  readonly task: string | null;
  readonly agent: string | null;
  readonly environment: string | null;
  readonly recorded: number | null;
  /** The (_ng_task_index, _ng_rollout_index) pairing key, when the row has both (lib/verify pairingKey). */
  readonly key: string | null;
}

/** The row the inspector lists: the rollout's fields and what verifying it under both policies found. */
export interface RolloutRow extends RolloutFields {
  readonly line: number;
  /** The verifying server (lib/verify chooseServer). */
  readonly server: string | null;
  /** Which evidence chose it: override, environment_name, input, provenance, declared_tools, sample, none. */
  readonly server_source: ServerSource;
  /** Recomputed reward per policy; null when no verifier ran. */
  readonly contract: number | null;
  readonly legacy: number | null;
  /** Why `contract` (resp. `legacy`) is null: a stable reason code (lib/verify UnverifiedCode). */
  readonly unverified: UnverifiedCode | null;
  readonly legacy_unverified: UnverifiedCode | null;
  readonly calls: number;
  readonly map_state: MapState;
  /** Whether Gym's request checks would refuse the rollout; null until the rewards pass resolved its calls. */
  readonly gym_would_reject: boolean | null;
  /** Why no reward could be recomputed under the contract policy. */
  readonly error: string | null;
  /** Whether an input row was paired with the rollout. */
  readonly paired: boolean;
  /** How the inputs row was found: by Gym's indices, by an equal task input, or not at all. */
  readonly paired_by: PairedBy;
}

export interface RunRow extends RolloutRow {
  readonly model: string | null;
  readonly cause: ZeroCause | null;
  readonly cause_sentence: string | null;
  /** Which policy's recomputation equals the recorded reward (null: nothing to compare). */
  readonly reproduced_by: Reproduction | null;
  /** When the recorded reward matches neither policy's: what differs and which number to trust. */
  readonly drift: string | null;
  /** The calls that lost the reward: 0-based indexes of the function_call items in response.output order. */
  readonly decisive_calls: readonly number[];
  /** The harness whose provenance map makes this zero score above 0 (lib/triage what_if_map), or null. */
  readonly what_if_map: string | null;
  /** The response makes no function_call and writes its call as text (lib/triage text_call). */
  readonly text_call: boolean;
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
  /**
   * What Gym's verifier wrote beside the recorded reward, its short fields (lib/triage countedFields), where
   * this project did not verify the rollout: the run's account of such zeros (summarizeRecordedFields) and
   * what a `verifier:` filter clause reads. Empty where it did.
   */
  readonly recorded_fields: readonly RecordedField[];
}

/**
 * CSV column order (every RunRow key but the internal signature and recorded_fields, a list of records that
 * JSONL rows carry; lists joined with spaces).
 */
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
  // Last: added after the others, so a reader of the columns by position finds them where they were.
  "what_if_map",
] as const satisfies readonly (keyof RunRow)[];

/** How the row's rollout is verified (lib/verify's options, without the policy: both are computed). */
export interface RunRowOptions extends Omit<VerifyOptions, "policy"> {
  /** The open task rows' keys (lib/verify InputIndex taskKeys): never counted as the verifier's fields. */
  readonly taskKeys?: ReadonlySet<string>;
  /** Precomputed results for the same options. */
  readonly contract?: VerifyResult;
  readonly legacy?: VerifyResult;
}

/** The rollout's own fields; each one that is absent or of another type is read as absent. */
const TaskName = z.union([z.string(), z.number()]).optional().catch(undefined);
const FieldsSchema = z.looseObject({
  _ng_task_index: z.number().int().optional().catch(undefined),
  _ng_rollout_index: z.number().int().optional().catch(undefined),
  task_id: TaskName,
  problem_id: TaskName,
  instance_id: TaskName,
  id: TaskName,
  environment_name: z.string().optional().catch(undefined),
});

function fieldsOf(value: unknown): z.infer<typeof FieldsSchema> {
  const parsed = FieldsSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

type Fields = z.infer<typeof FieldsSchema>;

/** The task's own name: Gym's order (rollout_collection.py _trajectory_identity), then the dataset's `id`. */
function taskName(fields: Fields): string | number | undefined {
  return fields.task_id ?? fields.problem_id ?? fields.instance_id ?? fields.id;
}

/**
 * The task a rollout counts toward, decided here once for the CLI and the run view. Gym groups a run's
 * rollouts by `_ng_task_index` (reward_profile.py `_group_by_task`), which collection stamps on every
 * rollout and its materialized row; a line without it counts toward its paired row's `_ng_task_index`, else
 * the task's own name (taskName), else the paired row itself (`row`, its label): a raw dataset row such as
 * example.jsonl's, to which Gym's collection gives a task index of its own (equal rows share one). A line
 * with none of these belongs to no task, never to a guessed one.
 */
function rolloutTask(own: Fields, paired: Fields, row: string | undefined): string | null {
  const index = own._ng_task_index ?? paired._ng_task_index;
  if (index !== undefined) return String(index);
  const name = taskName(own) ?? taskName(paired);
  if (name !== undefined) return String(name);
  return row ?? null;
}

/**
 * A rollout's own fields, the task id, agent and environment falling back to its paired input row's (`input`,
 * named `row` in sentences: lib/verify Pairing.row).
 */
export function readRolloutFields(value: Rollout, input?: unknown, row?: string): RolloutFields {
  const own = fieldsOf(value);
  const paired = input === undefined ? {} : fieldsOf(input);
  const id = taskName(own) ?? taskName(paired);
  return {
    task_index: own._ng_task_index ?? null,
    rollout_index: own._ng_rollout_index ?? null,
    task_id: id === undefined ? null : String(id),
    task: rolloutTask(own, paired, input === undefined ? undefined : row),
    agent: lineAgent(value, input),
    environment: own.environment_name ?? paired.environment_name ?? null,
    recorded: typeof value.reward === "number" ? value.reward : null,
    key: pairingKey(value),
  };
}

/**
 * The list's row of a rollout from its two verifications (`input`: its paired input row, if any, which
 * sentences name `row`).
 */
export function rolloutRow(
  line: number,
  value: Rollout,
  both: BothPolicies,
  input?: unknown,
  row?: string,
): RolloutRow {
  const { contract, legacy } = both;
  return {
    line,
    ...readRolloutFields(value, input, row),
    server: contract.server === "" ? null : contract.server,
    server_source: contract.server_source,
    contract: contract.reward,
    legacy: legacy.reward,
    unverified: contract.unverified?.code ?? null,
    legacy_unverified: legacy.unverified?.code ?? null,
    calls: contract.resolution.calls.length,
    map_state: contract.resolution.map_state,
    gym_would_reject: (contract.gym_would_reject?.length ?? 0) > 0,
    error: contract.error ?? null,
    paired: input !== undefined,
    paired_by: contract.paired_by,
  };
}

/** The list's row within a run row: nothing else, since the list's rows all cross to the page. */
export function rolloutRowOf(row: RunRow): RolloutRow {
  const {
    model: _model,
    cause: _cause,
    cause_sentence: _sentence,
    reproduced_by: _reproduced,
    drift: _drift,
    decisive_calls: _decisive,
    what_if_map: _whatIfMap,
    text_call: _textCall,
    signature: _signature,
    flags: _flags,
    input_tokens: _input,
    output_tokens: _output,
    total_tokens: _total,
    cached_tokens: _cached,
    reasoning_tokens: _reasoning,
    recorded_fields: _recordedFields,
    ...rolloutRow
  } = row;
  // A field added to RunRow alone must be left out above: the list row stays exactly a RolloutRow.
  const exact: Exclude<keyof typeof rolloutRow, keyof RolloutRow> extends never ? true : false = true;
  void exact;
  return rolloutRow;
}

function flagsOf(result: VerifyResult): string[] {
  const names = new Set<string>();
  for (const call of result.resolution.calls) {
    if (call.highlight !== "none") names.add(call.highlight);
    for (const flag of call.flags) names.add(flag.name);
  }
  return [...names].sort();
}

/**
 * A line's options from the open task rows, for every front end that pairs through an InputIndex: how the
 * line paired (lib/verify pairedInput) and the rows' keys, which are never counted as the verifier's.
 */
export function pairedRowOptions(
  inputs: InputIndex<unknown> | null | undefined,
  pairing: Pairing<unknown> | undefined,
): Pick<RunRowOptions, "pairing" | "input" | "taskKeys"> {
  return { ...pairedInput(pairing), ...(inputs ? { taskKeys: inputs.taskKeys() } : {}) };
}

export function runRow(line: number, value: Rollout, options: RunRowOptions = {}): RunRow {
  const { contract: givenContract, legacy: givenLegacy, taskKeys: _taskKeys, ...verifyOptions } = options;
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
  const { model, usage } = readModelUsage(value);
  return {
    ...rolloutRow(line, value, { contract, legacy }, options.input, options.pairing?.row),
    model,
    cause: triage?.cause ?? null,
    cause_sentence: triage?.sentence ?? null,
    reproduced_by: reproducedBy(contract.recorded_reward, contract.reward, legacy.reward),
    drift: triage === null ? explainDrift(value, contract, legacy, contract) : triage.drift,
    decisive_calls: triage?.decisive.map((call) => call.index) ?? [],
    what_if_map: triage?.what_if_map ?? null,
    text_call: triage?.text_call !== undefined,
    signature: triage?.signature ?? null,
    flags: flagsOf(contract),
    input_tokens: usage?.input_tokens ?? null,
    output_tokens: usage?.output_tokens ?? null,
    total_tokens: usage?.total_tokens ?? null,
    cached_tokens: usage?.cached_tokens ?? null,
    reasoning_tokens: usage?.reasoning_tokens ?? null,
    recorded_fields:
      contract.reward === null && typeof value.reward === "number"
        ? countedFields(value, options.input, options.taskKeys)
        : [],
  };
}

/**
 * The metrics view of a row (lib/metrics). `run` names the rollouts file the row came from when the rows of
 * several runs are summed (a folder): Gym groups tasks within one run, so one file's task 0 is not another's.
 */
export function metricsOf(row: RunRow, run?: string): MetricsRow {
  const task = rowTask(row);
  return {
    line: row.line,
    agent: row.agent,
    task: run === undefined || task === null ? task : `${run}: ${task}`,
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

/** The task a row counts toward for grouping and pass@k (decided once, when the row is read: rolloutTask). */
export function rowTask(row: RunRow): string | null {
  return row.task;
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
