/**
 * The report's data (lib/report renders it): the run view's breakdown and metrics for a filter, and the
 * chosen rollouts' calls and transcripts. Shared by the page's download (./handlers.ts) and
 * `cli report`, so both write the same bytes for the same file, filter and rollouts.
 */
import {
  REPORT_MAX_ITEMS,
  REPORT_OUTCOME_CHARS,
  type ReportData,
  type ReportItem,
  type ReportRollout,
} from "@/lib/report";
import { type Reward, rowTask, runRow } from "@/lib/run";
import { readCallOutcomes } from "@/lib/triage";
import { verifyBothPolicies } from "@/lib/verify";
import { inputMessages, transcript } from "@/worker/core";
import type { TranscriptItem } from "@/worker/protocol";
import { type RunSource, type RunSourceLine, runView } from "./run-view";

/** Rollouts shown in full when none are marked (`cli report` without --mark): the first this many the filter keeps. */
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
  const { contract, legacy } = verifyBothPolicies(value, options);
  const row = runRow(line, value, { ...options, contract, legacy });
  const items = transcript(value, { contract: contract.resolution.calls, legacy: legacy.resolution.calls });
  const outputs = new Map<number, string | null>();
  for (const item of items) if (item.kind === "call") outputs.set(item.call_index, item.output);
  const records = new Map(readCallOutcomes(contract.details).map((record) => [record.index, record]));
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
    unverified: contract.unverified?.code ?? null,
    input: inputMessages(value.responses_create_params),
    calls: calls.slice(0, REPORT_MAX_ITEMS),
    transcript: transcriptItems.slice(0, REPORT_MAX_ITEMS),
    omitted: {
      calls: Math.max(0, calls.length - REPORT_MAX_ITEMS),
      items: Math.max(0, transcriptItems.length - REPORT_MAX_ITEMS),
    },
  };
}

export interface ReportRequest {
  readonly title: string;
  readonly filter: string;
  /** The rollouts the user marked (lines), or null: the first REPORT_DEFAULT_ROLLOUTS the filter keeps. */
  readonly marked: readonly number[] | null;
  /** The file of every rollout, when the report covers a folder's file (null for a single file). */
  readonly file: string | null;
  /** The run view's reward setting (lib/run reward.ts): the breakdown's zeros and pass@k's reward. */
  readonly reward: Reward;
}

/** The report of a run: its breakdown, its metrics under the filter, and the chosen rollouts in file order. */
export async function reportData(
  source: RunSource,
  request: ReportRequest,
  read: (lines: readonly number[]) => Iterable<RunSourceLine> | AsyncIterable<RunSourceLine>,
): Promise<ReportData | { error: string }> {
  const view = await runView(source, request.filter, { reward: request.reward });
  if (view.filter_error !== null) return { error: view.filter_error };
  const kept = view.lines ?? null;
  let lines: number[];
  let chosen: string;
  if (request.marked !== null) {
    lines = [...new Set(request.marked)].sort((a, b) => a - b);
    chosen = `${lines.length} rollout${lines.length === 1 ? "" : "s"} marked.`;
  } else {
    const all = kept ?? (await allLines(source));
    lines = all.slice(0, REPORT_DEFAULT_ROLLOUTS);
    const of = request.filter === "" ? "in the run" : "the filter keeps";
    chosen =
      lines.length === all.length
        ? `All ${all.length} rollouts ${of}.`
        : `The first ${lines.length} of ${all.length} rollouts ${of} (mark rollouts to choose others).`;
  }
  const rollouts: ReportRollout[] = [];
  for await (const item of read(lines)) rollouts.push(reportRollout(item, request.file));
  rollouts.sort((a, b) => a.line - b.line);
  return {
    title: request.title,
    filter: request.filter,
    counts: view.counts,
    triage: view.triage[request.reward],
    metrics: view.metrics,
    rollouts,
    chosen,
  };
}

async function allLines(source: RunSource): Promise<number[]> {
  const lines: number[] = [];
  if (source.rows) for (const row of (await source.rows()).rows) lines.push(row.line);
  else for await (const { line } of source.rollouts()) lines.push(line);
  return lines;
}
