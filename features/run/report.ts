/**
 * The report's data (lib/report renders it): the run view's breakdown and metrics for a filter, and the
 * chosen rollouts' calls and transcripts, for one file or for every rollouts file of a folder. Shared by the page's download (./handlers.ts) and
 * `cli report`, so both write the same bytes for the same file, filter and rollouts.
 */

import { comparePaths, hiddenText, type RoleDecision } from "@/lib/folder";
import {
  REPORT_MAX_ITEMS,
  REPORT_OUTCOME_CHARS,
  type ReportData,
  type ReportItem,
  type ReportRollout,
  type ReportRun,
  type UnreadableLine,
} from "@/lib/report";
import { type Reward, rewardName, rowTask, runRow } from "@/lib/run";
import { evidencePolicy, readCallOutcomes, recordedFieldsFor } from "@/lib/triage";
import { verifyBothPolicies } from "@/lib/verify";
import { inputMessages, transcript } from "@/worker/core";
import type { TranscriptItem } from "@/worker/protocol";
import { type RunSource, type RunSourceLine, type RunView, runView, wholeFolderView } from "./run-view";

/**
 * Rollouts shown in full when none are marked (`cli report` without --mark): the first this many the filter
 * keeps that scored 0 or below (the first of all when none did).
 */
export const REPORT_DEFAULT_ROLLOUTS = 20;

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)}… (${text.length - chars} more characters)`;
}

function reportItem(item: TranscriptItem): ReportItem {
  if (item.kind === "message") return { kind: "message", role: item.role, text: item.text };
  if (item.kind === "reasoning") return { kind: "reasoning", text: item.text };
  if (item.kind === "call")
    return { kind: "call", name: item.name, arguments: item.arguments, output: item.output };
  if (item.kind === "output") return { kind: "output", output: item.output };
  return { kind: "other", type: item.type, json: item.json };
}

/** One rollout as the report shows it: its facts, its calls' identities and outcomes, its transcript. */
export function reportRollout({ line, value, options }: RunSourceLine, file: string | null): ReportRollout {
  const both = verifyBothPolicies(value, options);
  const { contract, legacy } = both;
  const row = runRow(line, value, { ...options, contract, legacy });
  const items = transcript(value, { contract: contract.resolution.calls, legacy: legacy.resolution.calls });
  const outputs = new Map<number, string | null>();
  for (const item of items) if (item.kind === "call") outputs.set(item.call_index, item.output);
  // The outcomes of the replay the app's badges show (the policy that scored 0), not always the contract's.
  const outcomePolicy = evidencePolicy(contract, legacy);
  const records = new Map(
    readCallOutcomes(both[outcomePolicy].details).map((record) => [record.index, record]),
  );
  const calls = contract.resolution.calls.map((call) => {
    const record = records.get(call.index);
    const output = outputs.get(call.index) ?? null;
    const outcome =
      record !== undefined
        ? `${record.outcome}${record.message === undefined ? "" : `: ${record.message}`}`
        : output === null
          ? "no output"
          : `output: ${output}`;
    return {
      index: call.index,
      emitted: call.emitted,
      provenance:
        call.provenance === null ? null : `${call.provenance.server_name} / ${call.provenance.tool_name}`,
      verifier_name: call.verifier_name,
      status: call.status,
      outcome: clip(outcome, REPORT_OUTCOME_CHARS),
    };
  });
  const transcriptItems = items.map(reportItem);
  const task = rowTask(row);
  return {
    line,
    file,
    task,
    agent: row.agent,
    server: row.server,
    recorded: row.recorded,
    contract: row.contract,
    legacy: row.legacy,
    cause: row.cause,
    cause_sentence: row.cause_sentence,
    recorded_fields:
      row.cause === null ? [] : recordedFieldsFor(row.cause, value, options.input, options.taskKeys),
    unverified: contract.unverified?.message ?? null,
    flags: row.flags,
    outcome_policy: outcomePolicy,
    input: inputMessages(value.responses_create_params),
    calls: calls.slice(0, REPORT_MAX_ITEMS),
    transcript: transcriptItems.slice(0, REPORT_MAX_ITEMS),
    omitted: {
      calls: Math.max(0, calls.length - REPORT_MAX_ITEMS),
      items: Math.max(0, transcriptItems.length - REPORT_MAX_ITEMS),
    },
  };
}

/** One rollouts file of a report: its run view's source, how its chosen rollouts are read, its label. */
export interface ReportSource {
  /** Relative to the folder; null for the report of a single file. */
  readonly file: string | null;
  readonly source: RunSource;
  read(lines: readonly number[]): Iterable<RunSourceLine> | AsyncIterable<RunSourceLine>;
  /** Its first REPORT_UNREADABLE_MAX unreadable lines with what each is, in line order (once read). */
  unreadable(): readonly UnreadableLine[];
  /** For a file without one rollout: what it is instead (the page's banner), else null (once read). */
  problem(): string | null;
}

/** A rollout the user marked: its file (relative to the folder; null for a single file) and line. */
export interface ReportMark {
  readonly file: string | null;
  readonly line: number;
}

export interface ReportRequest {
  readonly title: string;
  readonly filter: string;
  /** The rollouts the user marked, or null: the first REPORT_DEFAULT_ROLLOUTS the filter keeps. */
  readonly marked: readonly ReportMark[] | null;
  /** The run view's reward setting (lib/run reward.ts): the breakdown's zeros and pass@k's reward. */
  readonly reward: Reward;
  /** The opened folder's files as each front end decided their roles, and its hidden entries; null for a file. */
  readonly folder: ReportFolder | null;
}

/** What a folder's report says of the folder beside its rollouts files. */
export interface ReportFolder {
  readonly files: readonly Pick<RoleDecision, "path" | "role" | "reason" | "chosen">[];
  /** lib/folder hiddenEntries of the folder. */
  readonly hidden: readonly string[];
}

const byFile = (a: ReportSource, b: ReportSource) =>
  (a.file ?? "") < (b.file ?? "") ? -1 : (a.file ?? "") > (b.file ?? "") ? 1 : 0;

/**
 * The report of a file or of every rollouts file of a folder (in path order): each file's breakdown and
 * metrics under the filter, and the chosen rollouts, each labelled with its file.
 */
export async function reportData(
  sources: readonly ReportSource[],
  request: ReportRequest,
): Promise<ReportData | { error: string }> {
  const ordered = [...sources].sort(byFile);
  const views: { source: ReportSource; view: RunView }[] = [];
  for (const source of ordered) {
    const view = await runView(source.source, request.filter, { reward: request.reward });
    if (view.filter_error !== null) return { error: view.filter_error };
    views.push({ source, view });
  }
  const chosenLines = new Map<ReportSource, number[]>();
  let chosen: string;
  if (request.marked !== null) {
    for (const { source } of views) {
      const lines = request.marked.filter((mark) => mark.file === source.file).map((mark) => mark.line);
      chosenLines.set(
        source,
        [...new Set(lines)].sort((a, b) => a - b),
      );
    }
    // Said once the marked lines are read: a mark that is no rollout of the run is named, never counted.
    chosen = "";
  } else {
    // None marked: the rollouts that scored 0 or below first (what the report is for), the first ones the
    // filter keeps when none did.
    const zeros = views.map(({ view }) => zeroLines(view, request.reward));
    const anyZero = zeros.some((lines) => lines.length > 0);
    let total = 0;
    let left = REPORT_DEFAULT_ROLLOUTS;
    for (const [i, { source, view }] of views.entries()) {
      const all = anyZero ? (zeros[i] ?? []) : (view.lines ?? (await allLines(source.source)));
      total += all.length;
      const lines = all.slice(0, left);
      left -= lines.length;
      chosenLines.set(source, lines);
    }
    const shown = REPORT_DEFAULT_ROLLOUTS - left;
    const of = request.filter === "" ? "in the run" : "the filter keeps";
    const scope = `scored 0 or below in ${rewardName(request.reward)}`;
    const noun = total === 1 ? "rollout" : "rollouts";
    const what = anyZero ? `${noun} ${of} that ${scope}` : `${noun} ${of}`;
    const count =
      total === 1
        ? `the one ${what}`
        : shown === total
          ? `all ${total} ${what}`
          : `the first ${shown} of the ${total} ${what} (mark rollouts to choose others)`;
    chosen =
      total === 0
        ? `No rollout ${of}.`
        : anyZero
          ? `${count.charAt(0).toUpperCase()}${count.slice(1)}.`
          : `No rollout ${of} ${scope}: ${count}.`;
  }
  const runs: ReportRun[] = [];
  for (const { source, view } of views) {
    const rollouts: ReportRollout[] = [];
    for await (const item of source.read(chosenLines.get(source) ?? []))
      rollouts.push(reportRollout(item, source.file));
    rollouts.sort((a, b) => a.line - b.line);
    runs.push({
      file: source.file,
      counts: view.counts,
      triage: view.triage[request.reward],
      recorded_fields: view.recorded_fields,
      unverified: { counts: view.unverified, rollouts: view.breakdown_rollouts },
      metrics: view.metrics,
      rollouts,
      unreadable_lines: source.unreadable(),
      problem: source.problem(),
    });
  }
  if (request.marked !== null) {
    const shown = runs.flatMap((run) => run.rollouts.map((r) => `${r.file ?? ""}\n${r.line}`));
    const missing = [
      ...new Map(request.marked.map((mark) => [`${mark.file ?? ""}\n${mark.line}`, mark])).entries(),
    ]
      .filter(([key]) => !shown.includes(key))
      .map(([, mark]) => (mark.file === null ? `line ${mark.line}` : `${mark.file} line ${mark.line}`));
    const n = shown.length;
    chosen = `${n} rollout${n === 1 ? "" : "s"} marked.${
      missing.length === 0 ? "" : ` Marked but not a rollout of the run, so not shown: ${missing.join(", ")}.`
    }`;
  }
  // A folder's answer over all its rows, as the page's Whole folder has it (unfiltered: a filter is a file's).
  const summed = views.length > 1 && request.filter === "" ? ordered : [];
  const whole =
    summed.length === 0
      ? null
      : await wholeFolderView(
          request.title,
          summed.map(({ file, source }) => ({ dataset: file ?? "", file: file ?? "", source })),
        );
  const folderFiles = (request.folder?.files ?? [])
    .flatMap(({ path, role, reason, chosen }) =>
      role === "rollouts" ? [] : [{ path, role, reason, chosen }],
    )
    .sort((a, b) => comparePaths(a.path, b.path));
  return {
    title: request.title,
    filter: request.filter,
    runs,
    chosen,
    folder_files: folderFiles,
    folder_hidden: request.folder === null ? null : hiddenText(request.folder.hidden),
    folder_answer:
      whole === null
        ? null
        : {
            metrics: whole.metrics[request.reward],
            recorded_fields: whole.recorded_fields,
            unverified: whole.unverified,
            triage: whole.triage[request.reward],
          },
  };
}

/** The lines of the view that scored 0 or below in the reward (its breakdown's), among those the filter keeps. */
function zeroLines(view: RunView, reward: Reward): number[] {
  const zeros = Object.values(view.triage[reward].lines).flat();
  const kept = view.lines === null ? null : new Set(view.lines);
  return [...new Set(zeros)].filter((line) => kept === null || kept.has(line)).sort((a, b) => a - b);
}

async function allLines(source: RunSource): Promise<number[]> {
  const lines: number[] = [];
  if (source.rows) for (const row of (await source.rows()).rows) lines.push(row.line);
  else for await (const { line } of source.rollouts()) lines.push(line);
  return lines;
}
