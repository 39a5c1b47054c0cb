/**
 * Verify results JSONL and the per-rollout report.
 *
 * Verify results: each rollout line, written losslessly, gains one key, VERIFY_KEY, holding the
 * recomputed result (the recorded `reward` stays as it was). With `setReward`, `reward` is replaced
 * by the recomputed one, formatted like the recorded token (`1.0` stays float-looking), and the
 * recorded value survives in VERIFY_KEY.recorded_reward, as Gym's reverify writes a fresh reward.
 *
 * Report: one new JSON object per line (bad lines included, with their error), comparing the two
 * policies so a reader sees what provenance changes.
 */
import { type LineKind, type LineKindAnswer, readLine, unparsedLine } from "../folder";
import type { Policy } from "../identity/types";
import { SHORT_LINE_CHARS } from "../jsonl";
import { readRolloutFields } from "../run/row";
import type { Rollout } from "../schemas";
import {
  type ConfigRouter,
  type InputIndex,
  type LineSource,
  pairedInput,
  type VerifyOptions,
  type VerifyResult,
  VerifyTally,
  verifyBothPolicies,
  verifyRollout,
} from "../verify";
import { formatNumberLike, rawValueOf, type TopLevelEdit } from "./edit";
import type { SourceLine } from "./lines";
import { type WrittenLine, writeLine } from "./write";

export const VERIFY_KEY = "rollout_inspector_verify";

export interface VerifyExportOptions {
  /** The verifying server; verifyRollout infers it when absent. */
  readonly server?: string;
  readonly policy?: Policy;
  /**
   * The run's materialized inputs (indexInputs). Each rollout is paired by Gym's indices, else by equal task
   * input; an unpaired rollout is verified with its own echoed fields and says how it was (not) paired.
   */
  readonly inputs?: InputIndex<unknown>;
  /** Replace `reward` with the recomputed reward. */
  readonly setReward?: boolean;
  /** The opened folder's config routes (chooseServer's `config` source). */
  readonly config?: ConfigRouter | null;
  /** The rollouts file's path relative to an opened folder: records and report rows then carry `file`. */
  readonly file?: string;
  /** The rollouts file and its config files, for the next steps an unverified line names (as `verify`'s). */
  readonly source?: LineSource;
}

export interface VerifyExportSummary {
  lines: number;
  /** The rollouts' rewards and reasons, and the unreadable lines, counted as `cli verify` counts them. */
  readonly tally: VerifyTally;
  /**
   * Lines without a reward: rollouts that could not be verified (no verifier, no paired input), and lines
   * that are not rollouts, with their kind (lib/folder readLine). `file`: a folder's file, as options name it.
   */
  errors: { file?: string; line: number; error: string; kind?: LineKind }[];
  /** Lines that are not JSON, with their kind (a placeholder row, or not_json). */
  bad: { file?: string; line: number; error: string; kind: LineKind }[];
}

export function emptyVerifySummary(): VerifyExportSummary {
  return { lines: 0, tally: new VerifyTally(), errors: [], bad: [] };
}

/** lib/verify's options for one line (paired with the run's inputs, when given), without the policy. */
function lineOptions(value: Rollout, options: VerifyExportOptions): Omit<VerifyOptions, "policy"> {
  return {
    config: options.config ?? null,
    ...(options.source === undefined ? {} : { source: options.source }),
    ...(options.server === undefined ? {} : { server: options.server }),
    ...pairedInput(options.inputs?.pair(value)),
  };
}

const textDecoder = new TextDecoder();

/** What a line that is not JSON is (lib/folder unparsedLine: a placeholder row, or not JSON). */
function unparsed(src: SourceLine, error: string): LineKindAnswer {
  const short = src.bytes.length <= SHORT_LINE_CHARS ? textDecoder.decode(src.bytes) : null;
  return unparsedLine(error, short);
}

/** Runs verification for one parsed line; never throws for bad data. */
export function verifyLine(value: Rollout, options: VerifyExportOptions, policy?: Policy): VerifyResult {
  const chosen = policy ?? options.policy;
  return verifyRollout(value, {
    ...lineOptions(value, options),
    ...(chosen === undefined ? {} : { policy: chosen }),
  });
}

/** The JSON-safe record written under VERIFY_KEY. */
export function verifyRecord(result: VerifyResult): Record<string, unknown> {
  return {
    server: result.server,
    server_source: result.server_source,
    paired_by: result.paired_by,
    policy: result.policy,
    reward: result.reward,
    ...(result.unverified === undefined ? {} : { unverified: result.unverified.code }),
    recorded_reward: result.recorded_reward,
    ...(result.components === undefined ? {} : { components: result.components }),
    explanation: result.explanation,
    ...(result.error === undefined ? {} : { error: result.error }),
    ...(result.gym_would_reject === undefined ? {} : { gym_would_reject: result.gym_would_reject }),
    map_state: result.resolution.map_state,
    calls: result.resolution.calls.map((c) => ({
      index: c.index,
      call_id: c.call_id,
      emitted: c.emitted,
      status: c.status,
      verifier_name: c.verifier_name,
      flags: c.flags.map((f) => f.name),
    })),
  };
}

/** Verify results JSONL, line by line; the summary is complete once the generator is exhausted. */
export async function* verifyJsonl(
  lines: AsyncIterable<SourceLine> | Iterable<SourceLine>,
  options: VerifyExportOptions,
  summary: VerifyExportSummary = emptyVerifySummary(),
): AsyncGenerator<WrittenLine> {
  const file = options.file === undefined ? {} : { file: options.file };
  for await (const src of lines) {
    summary.lines++;
    if (src.parsed !== null && !src.parsed.ok) {
      const answer = unparsed(src, src.parsed.error);
      summary.bad.push({ ...file, line: src.line, error: answer.message, kind: answer.kind });
      summary.tally.unreadable++;
    }
    // Counted once: as a rollout or a line that is none, or as a line whose edit failed.
    let counted = src.parsed !== null && !src.parsed.ok;
    const written = writeLine(src, (value, line, raw) => {
      counted = true;
      // Parse once at the edge, as every command does: aviary's transitions read, other lines named by kind.
      const read = readLine(value);
      if (!read.ok) {
        summary.errors.push({ ...file, line, error: `${read.message} (written unchanged)`, kind: read.kind });
        summary.tally.unreadable++;
        return null;
      }
      const result = verifyLine(read.rollout, options);
      summary.tally.add(result.recorded_reward, result.reward, result.unverified?.code ?? null);
      if (result.error !== undefined) summary.errors.push({ ...file, line, error: result.error });
      const edits: TopLevelEdit[] = [];
      if (options.setReward && result.reward !== null) {
        edits.push({ key: "reward", raw: formatNumberLike(rawValueOf(raw, "reward"), result.reward) });
      }
      const record = {
        ...verifyRecord(result),
        ...(read.note === undefined ? {} : { read_as: read.note }),
      };
      edits.push({
        key: VERIFY_KEY,
        value: options.file === undefined ? record : { file: options.file, line, ...record },
      });
      return edits;
    });
    if (written.error !== undefined) {
      summary.bad.push({ ...file, line: src.line, error: written.error, kind: "not_json" });
      if (!counted) summary.tally.unreadable++;
    }
    yield written;
  }
}

export interface ReportRow {
  /** The rollouts file, relative to an opened folder. */
  readonly file?: string;
  readonly line: number;
  readonly task_index?: number;
  readonly rollout_index?: number;
  readonly id?: unknown;
  /** What a line that is not a rollout is instead (lib/folder LineKind), with `error` its sentence. */
  readonly kind?: LineKind;
  readonly error?: string;
  /** Set when the line was read through a documented shape (aviary's transitions): says how. */
  readonly read_as?: string;
  readonly recorded_reward?: number | null;
  readonly server?: string | null;
  readonly server_source?: string;
  readonly map_state?: string;
  readonly contract?: PolicyReport;
  readonly legacy?: PolicyReport;
  /** True when the two policies give different rewards: provenance changes this rollout's score. */
  readonly policies_differ?: boolean;
  readonly findings?: readonly string[];
}

export interface PolicyReport {
  readonly reward: number | null;
  readonly error?: string;
  /** The unverified reason code when reward is null. */
  readonly unverified?: string;
  readonly gym_would_reject?: readonly string[];
  readonly calls: readonly {
    emitted: string;
    status: string;
    verifier_name: string;
    flags: readonly string[];
  }[];
}

function policyReport(result: VerifyResult): PolicyReport {
  return {
    reward: result.reward,
    ...(result.error === undefined ? {} : { error: result.error }),
    ...(result.unverified === undefined ? {} : { unverified: result.unverified.code }),
    ...(result.gym_would_reject === undefined ? {} : { gym_would_reject: result.gym_would_reject }),
    calls: result.resolution.calls.map((c) => ({
      emitted: c.emitted,
      status: c.status,
      verifier_name: c.verifier_name,
      flags: c.flags.map((f) => f.name),
    })),
  };
}

/** One report row for one source line (null for a blank line). */
export function reportLine(src: SourceLine, options: VerifyExportOptions): ReportRow | null {
  if (src.parsed === null) return null;
  const at = options.file === undefined ? { line: src.line } : { file: options.file, line: src.line };
  if (!src.parsed.ok) {
    const answer = unparsed(src, src.parsed.error);
    return { ...at, kind: answer.kind, error: answer.message };
  }
  const read = readLine(src.parsed.value);
  if (!read.ok) return { ...at, kind: read.kind, error: read.message };
  const value = read.rollout;
  const { contract, legacy } = verifyBothPolicies(value, lineOptions(value, options));
  const head: { file?: string; line: number; task_index?: number; rollout_index?: number; id?: unknown } = at;
  const { task_index, rollout_index } = readRolloutFields(value);
  if (task_index !== null) head.task_index = task_index;
  if (rollout_index !== null) head.rollout_index = rollout_index;
  // The task id as the line spells it (the run row's task_id is its text).
  const id = value.id;
  if (id !== undefined) head.id = id;
  const c = policyReport(contract);
  const l = policyReport(legacy);
  return {
    ...head,
    recorded_reward: contract.recorded_reward,
    server: contract.server,
    server_source: contract.server_source,
    map_state: contract.resolution.map_state,
    contract: c,
    legacy: l,
    policies_differ: c.reward !== l.reward,
    findings: contract.resolution.findings.map((f) => f.message),
    ...(read.note === undefined ? {} : { read_as: read.note }),
  };
}

/** The report as JSONL text, one row per non-blank line. */
export async function* reportJsonl(
  lines: AsyncIterable<SourceLine> | Iterable<SourceLine>,
  options: VerifyExportOptions,
): AsyncGenerator<string> {
  for await (const src of lines) {
    const row = reportLine(src, options);
    if (row !== null) yield `${JSON.stringify(row)}\n`;
  }
}
