/**
 * What the compare handlers compute, free of worker plumbing so it runs in Node tests too. A compared file
 * is read from the store into its source lines (exact bytes plus parsed value): comparisons and the what-if read the
 * parsed values, the repair rewrites the bytes losslessly.
 */
import {
  type Action,
  type CompareLines,
  type CompareOptions,
  type CompareReport,
  compareRuns,
  compareTasks,
  nameMismatch,
  taskLabel,
} from "@/lib/compare";
import {
  emptyRepairSummary,
  formatRepairSummary,
  readSourceLines,
  repairJsonl,
  type SourceLine,
} from "@/lib/export";
import { HARNESS_LABELS, type HarnessId } from "@/lib/harness";
import type { Policy } from "@/lib/identity/types";
import { canonicalJson } from "@/lib/jsonl";
import { createRepairer } from "@/lib/repair";
import { functionCalls, type Rollout, readRollout } from "@/lib/schemas";
import {
  chooseServer,
  InputIndex,
  knownTools,
  pairedInput,
  pairingKey,
  type RunServerChoice,
  rowLabel,
  taskInputKey,
  verifierServers,
  verifyRollout,
} from "@/lib/verify";
import { harnessWhatIf } from "@/lib/whatif";
import { datasetKind, isInputRow } from "@/worker/core";
import type {
  ActionView,
  CompareFileSummary,
  CompareLineError,
  CompareView,
  PairDetail,
  PairRow,
  RepairRolloutView,
  RepairServerInput,
  RepairView,
  RolloutListEntry,
  SideInputsView,
  WhatIfView,
} from "./protocol";

/**
 * Tasks listed in the comparison by task: a run of thousands of tasks lists the first of them in its order
 * (B's drops first, the largest first, then its gains) and counts the rest (the pair table and its CSV hold
 * every rollout).
 */
export const TASK_ROWS_SHOWN = 200;

/** Line errors listed per file; the rest are counted. */
export const MAX_REPORTED_ERRORS = 50;
/** Arguments longer than this are cut for display (the comparison itself uses the full value). */
export const MAX_ARGUMENT_CHARS = 4_000;

export interface LoadedFile {
  readonly name: string;
  readonly version: number;
  /** Materialized inputs (every parsed row an input row, as the inspector decides) or rollouts. */
  readonly kind: "rollouts" | "inputs";
  readonly bytes: number;
  readonly lines: readonly SourceLine[];
  /** Rollout lines (schema-valid) with their parsed values, in file order; none in an inputs file. */
  readonly rollouts: readonly { readonly line: number; readonly value: Rollout }[];
  /** An inputs file's parsed rows with their line numbers, in file order; none for rollouts. */
  readonly input_values: readonly { readonly line: number; readonly value: unknown }[];
  /**
   * The same rows indexed as every command pairs a rollout with them (lib/verify InputIndex: Gym's
   * indices, else the task input, so Gym's own task rows pair too); null for rollouts.
   */
  readonly inputs: InputIndex<unknown> | null;
  /** Rows of an inputs file (every row, a repeated key too). */
  readonly input_rows: number;
  readonly errors: readonly CompareLineError[];
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" ? value : null;
}

let nextVersion = 1;

/**
 * Reads a whole file (plain or gzip) into source lines; bad lines are listed, never dropped. A file whose
 * parsed rows are all materialized-inputs rows is an inputs file; any other is read as rollouts.
 */
export async function readFile(
  name: string,
  stream: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): Promise<LoadedFile> {
  const lines: SourceLine[] = [];
  const parsed: { line: number; value: unknown }[] = [];
  const parseErrors: CompareLineError[] = [];
  let inputRows = 0;
  let bytes = 0;
  for await (const src of readSourceLines(stream)) {
    if (signal?.aborted) throw new Error("cancelled");
    lines.push(src);
    bytes += src.bytes.length + (src.newline ? 1 : 0);
    if (src.parsed === null) continue;
    if (!src.parsed.ok) {
      parseErrors.push({ line: src.line, error: src.parsed.error });
      continue;
    }
    parsed.push({ line: src.line, value: src.parsed.value });
    if (isInputRow(src.parsed.value)) inputRows++;
  }
  const version = nextVersion++;
  if (datasetKind(inputRows, parsed.length) === "inputs") {
    return {
      name,
      version,
      kind: "inputs",
      bytes,
      lines,
      rollouts: [],
      input_values: parsed,
      inputs: indexRows([{ file: name, rows: parsed }]).index,
      input_rows: parsed.length,
      errors: parseErrors,
    };
  }
  const rollouts: { line: number; value: Rollout }[] = [];
  const errors = [...parseErrors];
  for (const p of parsed) {
    // Parse once at the edge: every later step takes the typed rollout.
    const read = readRollout(p.value);
    if (read.ok) rollouts.push({ line: p.line, value: read.rollout });
    else errors.push({ line: p.line, error: read.message });
  }
  errors.sort((x, y) => x.line - y.line);
  return {
    name,
    version,
    kind: "rollouts",
    bytes,
    lines,
    rollouts,
    input_values: [],
    inputs: null,
    input_rows: 0,
    errors,
  };
}

export function summarize(
  file: LoadedFile,
  run: RunServerChoice = {},
): Omit<CompareFileSummary, "id" | "analysis"> {
  const servers = new Map<string, number>();
  for (const r of file.rollouts) {
    // The one verifying-server rule (lib/verify chooseServer), with the run's own choice (its folder's configs).
    const server = chooseServer(r.value, run).server;
    if (server !== null) servers.set(server, (servers.get(server) ?? 0) + 1);
  }
  return {
    name: file.name,
    version: file.version,
    kind: file.kind,
    input_rows: file.input_rows,
    bytes: file.bytes,
    lines: file.lines.length,
    rollouts: file.rollouts.length,
    errors: file.errors.slice(0, MAX_REPORTED_ERRORS),
    error_count: file.errors.length,
    servers: [...servers.entries()].sort((x, y) => y[1] - x[1]).map(([s]) => s),
  };
}

/** Rollouts of a file that `inputs` pairs with a row. */
export function pairedRows(file: LoadedFile, inputs: InputIndex<unknown> | null): number {
  if (inputs === null) return 0;
  let paired = 0;
  for (const r of file.rollouts) if (inputs.pair(r.value).ref !== null) paired++;
  return paired;
}

export interface CombinedInputs {
  /** One index for compareRuns, which pairs every rollout with it (lib/verify InputIndex). */
  readonly inputs: InputIndex<unknown> | undefined;
  /** Keys whose row differs between A's and B's inputs; A's row is the one used for both sides. */
  readonly conflicts: readonly string[];
}

/**
 * Rows of one or more files in one index, in order. A row whose (_ng_task_index, _ng_rollout_index), or
 * for a row without them its task input, an earlier file already has is left out (that file's row is
 * used); where it differs from that row, it is a conflict, named by its key or its place.
 */
function indexRows(files: readonly { readonly file: string; readonly rows: LoadedFile["input_values"] }[]): {
  index: InputIndex<unknown>;
  conflicts: string[];
} {
  const index = new InputIndex<unknown>();
  const conflicts: string[] = [];
  // Canonical JSON of the earlier files' rows, by key and (rows without a key) by task input.
  const earlier = new Map<string, string>();
  for (const { file, rows } of files) {
    const own = new Map<string, string>();
    for (const { line, value } of rows) {
      const key = pairingKey(value);
      const input = key === null ? taskInputKey(value) : null;
      const known = key ?? (input === null ? null : `input ${input}`);
      const before = known === null ? undefined : earlier.get(known);
      if (before !== undefined) {
        if (before !== canonicalJson(value)) conflicts.push(key ?? rowLabel({ file, line }));
        continue;
      }
      if (known !== null) own.set(known, canonicalJson(value));
      index.add(value, value, { file, line });
    }
    for (const [known, content] of own) if (!earlier.has(known)) earlier.set(known, content);
  }
  return { index, conflicts };
}

/**
 * compareRuns takes one inputs index for both runs (as the CLI's --inputs). Each side's rows are merged into
 * it: the usual cases (one side with inputs, or both with the same task rows) pair every rollout with its
 * own side's row. Rows of the same key that differ are two different tasks under one key; they are
 * reported, and A's row is used.
 */
export function combineInputs(a: LoadedFile | null, b: LoadedFile | null): CombinedInputs {
  if (a === null && b === null) return { inputs: undefined, conflicts: [] };
  if (a === null || b === null || a === b) return { inputs: (a ?? b)?.inputs ?? undefined, conflicts: [] };
  const { index, conflicts } = indexRows([
    { file: a.name, rows: a.input_values },
    { file: b.name, rows: b.input_values },
  ]);
  return { inputs: index, conflicts };
}

/**
 * The inputs file one side was verified with: its own, else the other side's (compareRuns applies one
 * map to both runs), else none.
 */
export function sideInputsView(
  rollouts: LoadedFile,
  own: LoadedFile | null,
  other: { readonly side: "a" | "b"; readonly file: LoadedFile | null },
): SideInputsView | null {
  const inputs = own ?? other.file;
  if (inputs === null) return null;
  return {
    name: inputs.name,
    rows: inputs.input_rows,
    paired: pairedRows(rollouts, inputs.inputs),
    shared_from: own === null ? other.side : null,
  };
}

/** compareRuns over two loaded files (and their inputs files), with positions mapped back to line numbers. */
export function compareFiles(
  a: LoadedFile,
  b: LoadedFile,
  policy: Policy,
  inputs: CombinedInputs = combineInputs(null, null),
  runs: CompareOptions["runs"] = {},
): CompareReport {
  return compareRuns(
    a.rollouts.map((r) => r.value),
    b.rollouts.map((r) => r.value),
    { policy, runs, ...(inputs.inputs === undefined ? {} : { inputs: inputs.inputs }) },
  );
}

export function compareView(
  a: LoadedFile,
  b: LoadedFile,
  report: CompareReport,
  sides: { ai: LoadedFile | null; bi: LoadedFile | null; conflicts: readonly string[] } = {
    ai: null,
    bi: null,
    conflicts: [],
  },
): CompareView {
  const lineA = (position: number) => a.rollouts[position]?.line ?? 0;
  const lineB = (position: number) => b.rollouts[position]?.line ?? 0;
  const pairs = report.pairs.map(
    (p, id): PairRow => ({
      id,
      key: p.key,
      paired_by: p.paired_by,
      server: p.server,
      a: {
        line: lineA(p.a.position),
        recorded: p.a.recorded_reward,
        reward: p.a.reward,
        error: p.a.error ?? null,
        calls: p.a.actions.length,
      },
      b: {
        line: lineB(p.b.position),
        recorded: p.b.recorded_reward,
        reward: p.b.reward,
        error: p.b.error ?? null,
        calls: p.b.actions.length,
      },
      verdict: p.verdict,
      reward_basis: p.reward_basis,
      names_decided: p.names_decided,
      tasks_differ: p.tasks_differ,
      repeats: p.repeats,
      divergence: p.first_divergence?.message ?? null,
      divergence_step: p.first_divergence?.step ?? null,
      name_mismatch: nameMismatch(p),
    }),
  );
  const byTask = compareTasks(report);
  const differing = byTask.tasks.filter((task) => task.delta !== null && task.delta !== 0);
  const tasks = {
    summary: byTask.summary,
    differing: differing.length,
    rows: differing.slice(0, TASK_ROWS_SHOWN).map((task) => {
      const first = pairs[task.pairs[0] ?? -1];
      return {
        ...task,
        pairs: task.pairs.length,
        label: taskLabel(task, "A", first?.a.line ?? null),
      };
    }),
  };
  return {
    a: a.name,
    b: b.name,
    policy: report.policy,
    summary: report.summary,
    pairs,
    tasks,
    unpaired_a: report.unpaired_a.map(lineA),
    unpaired_b: report.unpaired_b.map(lineB),
    inputs_a: sideInputsView(a, sides.ai, { side: "b", file: sides.bi }),
    inputs_b: sideInputsView(b, sides.bi, { side: "a", file: sides.ai }),
    input_conflicts: sides.conflicts.length,
  };
}

function argumentText(action: Action): string {
  const text = action.arguments_valid ? JSON.stringify(action.arguments) : String(action.arguments);
  return text.length > MAX_ARGUMENT_CHARS ? `${text.slice(0, MAX_ARGUMENT_CHARS)}…` : text;
}

function actionView(action: Action | null): ActionView | null {
  if (action === null) return null;
  return {
    index: action.index,
    server: action.server,
    tool: action.tool,
    emitted: action.emitted,
    call_id: action.call_id,
    status: action.status,
    verifier_name: action.verifier_name,
    named_by: action.named_by,
    arguments: argumentText(action),
    arguments_valid: action.arguments_valid,
  };
}

export function pairDetail(report: CompareReport, id: number): PairDetail | null {
  const pair = report.pairs[id];
  if (pair === undefined) return null;
  return {
    id,
    steps: pair.alignment.map((s) => ({ kind: s.kind, a: actionView(s.a), b: actionView(s.b) })),
    first_divergence: pair.first_divergence?.step ?? null,
    alignment_note: pair.alignment_capped?.message ?? null,
    a_error: pair.a.error ?? null,
    b_error: pair.b.error ?? null,
  };
}

export function rolloutList(file: LoadedFile): RolloutListEntry[] {
  return file.rollouts.map((r) => {
    const o = r.value;
    return {
      line: r.line,
      task_index: numberOrNull(o._ng_task_index),
      rollout_index: numberOrNull(o._ng_rollout_index),
      recorded: numberOrNull(o.reward),
      calls: functionCalls(o).length,
    };
  });
}

export function whatIf(
  file: LoadedFile,
  line: number,
  inputs: LoadedFile | null = null,
  run: RunServerChoice = {},
): WhatIfView | null {
  const found = file.rollouts.find((r) => r.line === line);
  if (found === undefined) return null;
  // Paired here once, so the page can say how (or why not) beside the reward it explains.
  const pairing = inputs?.inputs ? inputs.inputs.pair(found.value) : null;
  const report = harnessWhatIf(found.value, {
    ...run,
    ...(pairing === null ? {} : { pairing }),
  });
  return {
    file: file.name,
    line,
    server: report.server,
    server_reason: report.server_reason,
    input:
      inputs === null || pairing === null
        ? null
        : {
            file: inputs.name,
            paired: pairing.ref !== null,
            reason: pairing.reason,
            disagrees: pairing.disagreement !== undefined,
          },
    recorded: numberOrNull(found.value.reward),
    http: {
      reward: report.http.reward,
      // Why the line did not pair is said once, on the task row's line (`input`), not again at the end here.
      error: withoutTrailing(report.http.error ?? null, pairing === null ? null : pairing.reason),
      names: report.http.verifierNames,
    },
    rows: report.rows.map((row) => ({
      harness: row.harness,
      label: HARNESS_LABELS[row.harness],
      with_provenance: row.withProvenance,
      reward: row.reward,
      error: row.error ?? null,
      equals_http: row.equalsHttp,
      emitted: row.emittedNames,
      verifier_names: row.verifierNames,
      statuses: row.statuses,
    })),
    reemitted_calls: report.reemitted_calls,
    error: report.error ?? null,
    error_kind: report.error_kind ?? null,
  };
}

/** Every registered verifying server with its tool list (the repair form's defaults). */
export function serverTools(): RepairServerInput[] {
  return verifierServers().map((name) => ({ name, tools: knownTools(name) ?? [] }));
}

export interface RepairOutput {
  readonly view: Omit<RepairView, "id">;
  /** The repaired file, line by line, as the lossless writer produced it. */
  readonly chunks: readonly Uint8Array[];
}

/**
 * Repairs a file losslessly (lib/export repairJsonl) and, per rollout, lists what was derived and
 * what stayed out, with the contract reward before and after.
 */
export async function repairFile(
  file: LoadedFile,
  harness: HarnessId,
  servers: readonly RepairServerInput[],
  inputs: LoadedFile | null = null,
  run: RunServerChoice = {},
): Promise<RepairOutput> {
  const options = { harness, servers };
  const summary = emptyRepairSummary(harness, { keepDetails: false });
  const chunks: Uint8Array[] = [];
  let changed = 0;
  let outputBytes = 0;
  for await (const written of repairJsonl(file.lines, options, summary)) {
    chunks.push(written.bytes);
    outputBytes += written.bytes.length;
    if (written.changed) changed++;
  }
  // The per-call derivation is recomputed from the same options to list call_id -> server/tool.
  const repair = createRepairer(options);
  const rollouts = file.rollouts.map((r): RepairRolloutView => {
    const result = repair(r.value);
    const verifyOptions = {
      policy: "contract" as const,
      server: run.override ?? null,
      sample: run.sample ?? null,
      config: run.config ?? null,
      ...pairedInput(inputs?.inputs?.pair(r.value)),
    };
    const before = verifyRollout(r.value, verifyOptions);
    const after = result.status === "repaired" ? verifyRollout(result.rollout, verifyOptions) : before;
    return {
      line: r.line,
      status: result.status,
      message: result.message,
      derived: result.derived.map((d) => ({
        call_id: d.call_id,
        emitted: d.emitted,
        server_name: d.server_name,
        tool_name: d.tool_name,
      })),
      unresolved: result.unresolved.map((u) => ({
        call_id: u.call_id,
        emitted: u.emitted,
        reason: u.reason,
        message: u.message,
      })),
      recorded: before.recorded_reward,
      before: before.reward,
      after: after.reward,
      before_error: before.error ?? null,
      after_error: after.error ?? null,
    };
  });
  return {
    view: {
      file: file.name,
      harness,
      servers,
      // Nothing repaired: the harnesses whose aliases the left-out names are (lib/export suggestHarnesses).
      suggested: summary.suggested,
      summary_text: formatRepairSummary(summary),
      repaired: summary.repaired,
      unchanged: summary.unchanged,
      skipped: summary.skipped,
      invalid: summary.invalid,
      derived_calls: summary.derived_calls,
      unresolved: summary.unresolved,
      collisions: summary.collisions.map((c) => ({
        alias: c.alias,
        identities: c.identities.map((i) => `${i.server} / ${i.tool}`),
      })),
      changed_lines: changed,
      output_bytes: outputBytes,
      rollouts,
    },
    chunks,
  };
}

/** A file's own name without .jsonl(.gz): a folder's file is named by its path there, the download beside it. */
function fileStem(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return base.replace(/\.gz$/i, "").replace(/\.jsonl?$/i, "");
}

/** The repaired file's name: the original's stem with ".repaired" before the extension. */
export function repairedName(name: string, harness: HarnessId): string {
  return `${fileStem(name)}.repaired-${harness}.jsonl`;
}

/** The comparison's CSV: both runs' names and the policy in it (the two policies' downloads differ). */
export function comparedName(a: string, b: string, policy: Policy): string {
  let [x, y] = [fileStem(a), fileStem(b)];
  if (x === y) {
    // Two runs' files of one name (runs/http/rollouts.jsonl, runs/mcp/rollouts.jsonl): the nearest folders
    // that tell them apart lead their stems.
    const [da, db] = [a.split("/").slice(0, -1), b.split("/").slice(0, -1)];
    while (da.length > 0 && db.length > 0 && da.at(-1) === db.at(-1)) {
      da.pop();
      db.pop();
    }
    x = [da.at(-1), x].filter(Boolean).join("-");
    y = [db.at(-1), y].filter(Boolean).join("-");
  }
  return `${x}-vs-${y}.${policy}.compare.csv`;
}

/** Each side's rollouts with their lines by position, as compareRuns was given them (lib/compare's CSV). */
export function compareLines(a: LoadedFile, b: LoadedFile): CompareLines {
  return { a: a.rollouts, b: b.rollouts };
}

/** `text` without `tail` at its end (a sentence said on a line of its own already). */
export function withoutTrailing(text: string | null, tail: string | null): string | null {
  return text !== null && tail !== null && tail !== "" && text.endsWith(tail)
    ? text.slice(0, -tail.length).trimEnd()
    : text;
}
