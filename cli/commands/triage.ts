/**
 * `triage FILE [--server S] [--inputs M] [--harness H] [--filter EXPR] [--format summary|csv|jsonl] [--out OUT]`:
 * the why-zero breakdown and run metrics of a run, or its (filtered) rows as CSV or JSONL. The rows, the
 * filter and the writers are lib's (lib/run, lib/export/csv), the same the browser's export uses, so a
 * download from the UI equals this command's output for the same filter.
 */

import { csvHeader, csvRow, jsonlRow } from "../../lib/export/csv";
import { type LineKind, readLine, rowRewards, unparsedLine } from "../../lib/folder";
import { type HarnessChoice, harnessFor, parseHarnessChoice } from "../../lib/harness";
import type { JsonlItem } from "../../lib/jsonl";
import { MEAN_DECIMALS, meanRewardsText, passAtKText, runMetrics, usageText } from "../../lib/metrics";
import {
  breakdownClauses,
  breakdownScopeText,
  type FilterClause,
  formatFilter,
  matchesFilter,
  metricsOf,
  needsRollout,
  pairedRowOptions,
  parseFilter,
  type Reward,
  type RunRow,
  recordedFieldsScope,
  runRow,
  textsOf,
  unverifiedCounts,
  unverifiedText,
  withTaskWide,
  zeroShareText,
} from "../../lib/run";
import {
  AGENT_CAUSES,
  causeCount,
  fixedByMapText,
  recordedFieldsByVerifier,
  recordedFieldsLines,
  reproducedText,
  summarizeTriage,
  textCallsText,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
} from "../../lib/triage";
import { lineAgent } from "../../lib/verify";
import { emptyValue, onlyFile, REWARD_HELP, readReward, scanOptions } from "../args";
import { isReadStopped, reportError } from "../errors";
import {
  FOLDER_HELP,
  lineSource,
  metricsLines,
  type RoleOverride,
  readRoleOverrides,
  type Source,
  sourcesOf,
} from "../folder";
import { inputsHelp, roleHelp } from "../inputs";
import { type CommandIo, silentIo } from "../io";
import { LeftOutLines } from "../left-out";
import { namingFile, sayNotRollouts } from "../open";
import { writeOutput } from "../output";
import { LinePool, type LineWork, linesOf, readThreads, threadCount, threadsHelp } from "../threads";

export const HELP = `usage: npm run --silent cli -- triage FILE|DIR [options]

Every rollout whose recorded or recomputed reward is 0 or below (a negative reward failed too) gets one
cause (in this precedence, lib/triage/README.md):
malformed, drift (the recorded reward matches neither policy's recomputation), model_error, truncated,
no_output (run health: response.error, response.status / incomplete_details, usage.output_tokens 0),
no_server, no_verifier_port, missing_task_data, verifier_error (unverifiable: no verifying server, no port
of its verifier here, task fields missing, this project's verifier failed), identity (the names decided the reward), task_wide (every rollout of the task
failed the same way), no_tool_call, tool_failed (calls the tool rejected), wrong_end_state.

${FOLDER_HELP}
options:
  --format F      summary (default): the zeros per cause, counted in the --reward; where no port verifies
                  the recorded zeros, what Gym's verifier wrote on them (each short field's values on the
                  zeros beside the passes'; a verifier: clause or the filter's other clauses narrow it, not
                  its own verifier: or cause clauses); then run metrics
                  csv | jsonl: one row per rollout (line, task, agent, server, model, the recorded and both
                  recomputed rewards, cause, which policy reproduces the recorded reward, drift, the
                  decisive calls as 0-based function_call indexes, flags, tokens, error, what_if_map:
                  the harness whose provenance map would make a zero score above 0; jsonl also the
                  counted fields, recorded_fields, of a rollout not verified here)
  --filter EXPR   only rollouts matching every clause: recorded:0..0  contract:0.5..  legacy:..1
                  field:agent_ref.name=hermes_agent  field:response.model~gpt  flag:alias_guess
                  cause:identity  agent:hermes_agent  server:workplace_assistant  is:changed
                  is:unverified  is:no_server  is:fixed_by_map  is:text_call  text:"customer id"  verifier:failure_reason=tool_name_mismatch (a field
                  Gym's verifier wrote, a rollout not verified here)  (the page's ?f= filter; a value
                  with spaces as a JSON string: field:category="a b")
${REWARD_HELP}
  --server S      the verifying server (default: chosen per rollout, as verify's server_source says)
${inputsHelp(18)}
  --harness H     the harness that produced the rollouts (alias diagnostics only): H for every rollout,
                  AGENT=H for the rollouts whose agent_ref.name is AGENT (a run may mix harnesses; one
                  agent's choice never re-labels another's), both comma-separated:
                  --harness claude-code,hermes_agent=hermes-legacy (the page's ?harness=)
  --out OUT       write to OUT instead of stdout
${roleHelp(18)}
${threadsHelp(18)}
  -h, --help      this help

Lines that are not JSON are left out of the rows and named on stderr. Exit 2 for unusable arguments.
`;

const FORMATS = ["summary", "csv", "jsonl"] as const;
type Format = (typeof FORMATS)[number];

function isFormat(x: string): x is Format {
  return (FORMATS as readonly string[]).includes(x);
}

interface TriageArgs {
  readonly file: string;
  readonly roles: readonly RoleOverride[];
  readonly format: Format;
  readonly filter: readonly FilterClause[];
  /** The one reward setting (lib/run reward.ts): the summary's zeros and pass@k read it. */
  readonly reward: Reward;
  readonly server?: string;
  readonly inputs?: string;
  readonly harness?: HarnessChoice;
  readonly out?: string;
  readonly threads: number | null;
}

type Parsed =
  | { ok: true; help: true }
  | { ok: true; help: false; args: TriageArgs }
  | { ok: false; error: string };

export function parseTriageArgs(argv: readonly string[]): Parsed {
  const scanned = scanOptions(
    argv,
    [
      "--format",
      "--view",
      "--filter",
      "--reward",
      "--server",
      "--inputs",
      "--harness",
      "--out",
      "--role",
      "--threads",
    ],
    ["--role"],
  );
  if (!scanned.ok || scanned.help) return scanned.ok ? { ok: true, help: true } : scanned;
  const { values, files, lists } = scanned;
  const only = onlyFile(files);
  if (!only.ok) return only;
  const roles = readRoleOverrides(lists.get("--role") ?? []);
  if (!roles.ok) return roles;
  const format = values.get("--format") ?? "summary";
  if (!isFormat(format)) return { ok: false, error: `--format must be one of ${FORMATS.join(", ")}` };
  const filter = parseFilter(values.get("--filter") ?? "");
  if (!filter.ok) return { ok: false, error: `--filter: ${filter.error}` };
  const reward = readReward(values);
  if (!reward.ok) return reward;
  const harness = parseHarnessChoice(values.get("--harness") ?? "");
  if (!harness.ok) return { ok: false, error: `--harness: ${harness.error}` };
  const empty = emptyValue(values, ["--server", "--inputs", "--out"]);
  if (empty !== null) return empty;
  const threads = readThreads(values.get("--threads"));
  if (!threads.ok) return threads;
  const server = values.get("--server");
  const inputs = values.get("--inputs");
  const out = values.get("--out");
  return {
    ok: true,
    help: false,
    args: {
      file: only.file,
      roles: roles.overrides,
      format,
      filter: filter.clauses,
      reward: reward.reward,
      ...(server === undefined ? {} : { server }),
      ...(inputs === undefined ? {} : { inputs }),
      ...(values.get("--harness") === undefined ? {} : { harness: harness.choice }),
      ...(out === undefined ? {} : { out }),
      threads: threads.threads,
    },
  };
}

const PERCENT_DECIMALS = 1;
/** The summary's cause column: as wide as the longest cause name. */
const CAUSE_WIDTH = Math.max(...ZERO_CAUSES.map((cause) => cause.length));

/**
 * The text summary: the zeros of the reward setting per cause with count and share of the rollouts (drift
 * counted apart), which policy reproduces the recorded reward, then the run's headline metrics. `kept` are
 * the rows the filter keeps, with the run-level cause applied (withTaskWide); the breakdown counts
 * `options.breakdown` (the rows kept without the filter's cause clauses, as the page's breakdown) when given.
 */
export function formatSummary(
  kept: readonly RunRow[],
  unreadable: number,
  reward: Reward = "recorded",
  options: {
    readonly breakdown?: readonly RunRow[];
    /** The rows the recorded fields' counts cover (lib/run recordedFieldsScope; default: the breakdown's). */
    readonly recordedRows?: readonly RunRow[];
    /** The rollouts file of each row, when a folder's runs are summed (lib/run metricsOf). */
    readonly runs?: ReadonlyMap<RunRow, string>;
    /** The filter, as given, and how many rollouts there were before it: the summary says its scope. */
    readonly filter?: { readonly clauses: readonly FilterClause[]; readonly total: number };
  } = {},
): string {
  const out: string[] = [];
  const rows = options.breakdown ?? kept;
  const triage = summarizeTriage(rows, reward);
  // Under a filter, the page's sentence first: what the breakdown covers (lib/run breakdownScopeText).
  if (options.filter !== undefined && options.filter.clauses.length > 0)
    out.push(
      breakdownScopeText(
        formatFilter(options.filter.clauses),
        options.filter.clauses,
        rows.length,
        options.filter.total,
      ),
    );
  // The same headline as the run view's (lib/run): unreadable lines are named and in no total.
  out.push(
    zeroShareText(
      triage.zero,
      { rollouts: rows.length, unreadable },
      reward,
      triage.negative,
      triage.total - triage.scored,
    ),
  );
  const notVerified = unverifiedText(unverifiedCounts(rows), rows.length, reward);
  if (notVerified !== null) out.push(notVerified);
  const line = (cause: (typeof ZERO_CAUSES)[number]) => {
    const n = causeCount(triage, cause);
    const share = rows.length === 0 ? 0 : (100 * n) / rows.length;
    return `  ${cause.padEnd(CAUSE_WIDTH)} ${String(n).padStart(6)}  ${share.toFixed(PERCENT_DECIMALS).padStart(5)}%  ${ZERO_CAUSE_LABELS[cause]}`;
  };
  for (const cause of AGENT_CAUSES) out.push(line(cause));
  // "Is it the MCP alias problem?": the zeros a harness's provenance map rescues (lib/triage fixed_by_map).
  const fixed = fixedByMapText(triage);
  if (fixed !== null) out.push(`${fixed} (filter is:fixed_by_map)`);
  const textCalls = textCallsText(triage);
  if (textCalls !== null) out.push(`${textCalls} (filter is:text_call)`);
  // Where no port verifies the zeros, what Gym's verifier wrote beside them is the run's account of them.
  if (reward === "recorded")
    out.push(
      ...recordedFieldsLines(
        recordedFieldsByVerifier(options.recordedRows ?? rows, (row) => options.runs?.get(row)),
      ),
    );
  // Drift is counted apart: its zero is the recording's, not something the agent did.
  out.push(`counted apart (the recorded reward matches neither policy's recomputation):`);
  out.push(line("drift"));
  out.push(reproducedText(triage));
  out.push(...byFileLines(rows, reward, options.runs));
  const m = runMetrics(
    kept.map((row) => metricsOf(row, options.runs?.get(row))),
    { reward },
  );
  // Each mean over the rollouts that have that reward, as cli verify says: 410 recorded, 15 recomputed.
  out.push(meanRewardsText(m));
  out.push(passAtKText(m));
  out.push(
    `policies: ${m.policy_change.gained.length} gained under contract, ${m.policy_change.lost.length} lost, ${m.policy_change.same} same`,
  );
  out.push(`tokens: ${usageText(m.usage)}`);
  return `${out.join("\n")}\n`;
}

/**
 * A folder of several runs: each file's rollouts, zeros and mean in the reward setting, as the page's whole
 * folder table lists them (which file holds the zeros), in the order the files were read.
 */
function byFileLines(
  rows: readonly RunRow[],
  reward: Reward,
  runs: ReadonlyMap<RunRow, string> | undefined,
): string[] {
  if (runs === undefined) return [];
  const byFile = new Map<string, RunRow[]>();
  for (const row of rows) {
    const file = runs.get(row);
    if (file === undefined) continue;
    const own = byFile.get(file);
    if (own === undefined) byFile.set(file, [row]);
    else own.push(row);
  }
  if (byFile.size < 2) return [];
  const width = Math.max(...[...byFile.keys()].map((file) => file.length));
  const out = [`zeros by file (${reward} ≤ 0):`];
  for (const [file, own] of byFile) {
    const triage = summarizeTriage(own, reward);
    const mean = runMetrics(
      own.map((row) => metricsOf(row, file)),
      { reward },
    ).mean[reward];
    // "3 of 8 scored (10 rollouts)" where some rollout has no reward in the setting, else "3 of 10 rollouts".
    const of =
      triage.scored < own.length
        ? `of ${triage.scored} scored (${own.length} rollouts)`
        : `of ${own.length} rollouts`;
    const rescued = triage.fixed_by_map.lines.length;
    out.push(
      `  ${file.padEnd(width)}  ${String(triage.zero).padStart(6)} ${of}, mean ${mean === null ? "n/a" : mean.toFixed(MEAN_DECIMALS)}${rescued > 0 ? `, ${rescued} a provenance map rescues` : ""}`,
    );
  }
  return out;
}

/** The harness a rollout is read under: its agent's choice (lib/verify lineAgent), else every rollout's. */
function harnessOf(choice: HarnessChoice | undefined, rollout: unknown, input: unknown) {
  const harness = choice === undefined ? null : harnessFor(choice, lineAgent(rollout, input));
  return harness === null ? null : { harness };
}

const encoder = new TextEncoder();
const lineDecoder = new TextDecoder();

/**
 * The filter's clauses by when they are decided. Clauses that read the rollout itself are decided while it
 * is in hand; the rest once a file's rows are all in, since the run-level cause (task_wide) needs the whole
 * run. Only rows are kept, never rollouts. Text clauses read the raw line (as the page's search reads the
 * file's bytes): decided in hand too.
 */
function filterStages(filter: readonly FilterClause[]) {
  const inHand = (clause: FilterClause) => needsRollout([clause]) || clause.kind === "text";
  const rowClauses = filter.filter((clause) => !inHand(clause));
  return {
    fieldClauses: filter.filter(inHand),
    rowClauses,
    // The summary's breakdown leaves out the cause clauses, as the page's does: a cause narrows the rows.
    breakdownClauses: breakdownClauses(rowClauses),
    // The recorded fields' counts, as the page's (lib/run recordedFieldsScope), decided in hand and after.
    recordedFieldClauses: recordedFieldsScope(filter.filter(inHand)),
    recordedRowClauses: recordedFieldsScope(rowClauses),
    keepBytes: textsOf(filter).length > 0,
  };
}

/** One line's answer: its row and whether the in-hand clauses keep it, or why it is left out (for stderr). */
export type TriageLine =
  | { readonly leftOut: { readonly line: number; readonly message: string }; readonly kind: LineKind }
  | {
      readonly row: RunRow;
      readonly fieldOk: boolean;
      /** Whether the in-hand clauses the recorded fields' counts follow keep it. */
      readonly recordedOk: boolean;
    };

/** Triages one line of `source`: the work of every thread (cli/threads.ts). */
function triageLine(
  item: JsonlItem,
  source: Source,
  args: TriageArgs,
  fieldClauses: readonly FilterClause[],
  recordedFieldClauses: readonly FilterClause[],
): TriageLine {
  if (!item.ok) {
    const answer = unparsedLine(item.error, item.text ?? null);
    return { leftOut: { line: item.line, message: answer.message }, kind: answer.kind };
  }
  // Parse once at the edge: a line that is not a rollout is named with its kind and left out.
  const read = readLine(item.value);
  if (!read.ok) return { leftOut: { line: item.line, message: read.message }, kind: read.kind };
  // The one pairing rule (lib/verify InputIndex): Gym's indices, else an equal task input.
  const pairing = source.inputRows?.pair(read.rollout);
  const row = runRow(item.line, read.rollout, {
    config: source.config,
    ...lineSource(source),
    ...(args.server === undefined ? {} : { server: args.server }),
    ...pairedRowOptions(source.inputRows, pairing),
    ...(harnessOf(args.harness, read.rollout, pairing?.ref ?? undefined) ?? {}),
  });
  const text = item.bytes === undefined ? undefined : lineDecoder.decode(item.bytes);
  return {
    row,
    fieldOk: matchesFilter(fieldClauses, row, item.value, text),
    recordedOk: matchesFilter(recordedFieldClauses, row, item.value, text),
  };
}

function triageWork(sources: readonly Source[], args: TriageArgs): LineWork<TriageLine> {
  const { fieldClauses, recordedFieldClauses, keepBytes } = filterStages(args.filter);
  return {
    keepBytes,
    line: (item, index) => triageLine(item, sources[index]!, args, fieldClauses, recordedFieldClauses),
  };
}

function sourceOptions(args: TriageArgs) {
  return { roles: args.roles, inputs: args.inputs ?? null };
}

/** `triage ARGV`'s work on a line, built in a worker thread from the same arguments (cli/threads-worker.ts). */
export async function threadWork(argv: readonly string[]): Promise<LineWork<TriageLine>> {
  const parsed = parseTriageArgs(argv);
  if (!parsed.ok || parsed.help) throw new Error("triage: the worker thread got unusable arguments");
  const sources = await sourcesOf(parsed.args.file, sourceOptions(parsed.args), silentIo);
  return triageWork(sources, parsed.args);
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseTriageArgs(argv);
  if (!parsed.ok) {
    await io.stderr.write(`error: triage: ${parsed.error} (try --help)\n`);
    return 2;
  }
  if (parsed.help) {
    await io.stdout.write(HELP);
    return 0;
  }
  const args = parsed.args;
  let sources: readonly Source[];
  try {
    sources = await sourcesOf(args.file, sourceOptions(args), io);
  } catch (error) {
    // A missing or unreadable file is a usage error (2); a damaged --inputs stops reading part way (1).
    return reportError(error, io);
  }
  const folder = sources.some((s) => s.file !== null);
  const threads = await threadCount(args.threads, [...sources.map((s) => s.path)]);
  const pool =
    threads > 1 ? new LinePool<TriageLine>("triage", argv, threads, { warnings: io.stderr }) : null;
  try {
    const readFiles = [...sources.map((s) => s.path), ...(args.inputs === undefined ? [] : [args.inputs])];
    const { rowClauses, breakdownClauses, recordedRowClauses } = filterStages(args.filter);
    const work = triageWork(sources, args);
    let stopped = false;
    await writeOutput(args.out, readFiles, io, null, async (output) => {
      const kept: RunRow[] = [];
      const breakdown: RunRow[] = [];
      const recordedRows: RunRow[] = [];
      const runs = new Map<RunRow, string>();
      const leftOut = new LeftOutLines((text) => io.stderr.write(text));
      let unreadable = 0;
      let total = 0;
      if (args.format === "csv") await output.write(encoder.encode(csvHeader(folder)));
      for (const [index, source] of sources.entries()) {
        const rows: RunRow[] = [];
        const kinds = new Set<LineKind>();
        const fieldOk = new Set<number>();
        const recordedOk = new Set<number>();
        let damaged = false;
        try {
          for await (const answer of namingFile(source.path, linesOf(source.path, index, work, pool))) {
            if ("leftOut" in answer) {
              unreadable++;
              kinds.add(answer.kind);
              await leftOut.add(source.file, answer.leftOut.line, answer.leftOut.message);
              continue;
            }
            rows.push(answer.row);
            if (answer.fieldOk) fieldOk.add(answer.row.line);
            if (answer.recordedOk) recordedOk.add(answer.row.line);
          }
        } catch (error) {
          if (!isReadStopped(error)) throw error;
          // A damaged gzip: its rows before the damage count, the damage is one unreadable line (as the
          // page lists it), and the other files are read; the command exits 1 once done.
          damaged = true;
          stopped = true;
          unreadable++;
          await leftOut.flush();
          await io.stderr.write(`error: ${error.message}\n`);
        } finally {
          // Lines left out before a read fails (a damaged gzip) are said before its error.
          await leftOut.flush();
        }
        // One sentence for a file without one rollout (an empty one, a folder's UTF-16 one; the page says it
        // of each); a damaged one's error said why.
        if (rows.length === 0 && !damaged) await sayNotRollouts(source.path, io, kinds);
        // Gym's own numbers beside ours, as `cli verify` prints them (recomputed: the contract policy's).
        for (const line of metricsLines(source, rows.map(rowRewards))) await io.stderr.write(line);
        // Each file is a run of its own: its tasks' rollouts are compared among themselves.
        const file = source.file ?? undefined;
        total += rows.length;
        for (const row of withTaskWide(rows)) {
          // The recorded fields' rows are wider than the kept ones (recordedFieldsScope): each is named with
          // its file too, so a folder's counts per file hold under any filter.
          if (
            args.format === "summary" &&
            recordedOk.has(row.line) &&
            matchesFilter(recordedRowClauses, row)
          ) {
            recordedRows.push(row);
            if (folder && file !== undefined) runs.set(row, file);
          }
          if (!fieldOk.has(row.line)) continue;
          if (args.format === "summary" && matchesFilter(breakdownClauses, row)) {
            breakdown.push(row);
            // Named with its file too: the summary's "zeros by file" groups the breakdown's rows.
            if (folder && file !== undefined) runs.set(row, file);
          }
          if (!matchesFilter(rowClauses, row)) continue;
          if (args.format === "csv") await output.write(encoder.encode(csvRow(row, file)));
          else if (args.format === "jsonl") await output.write(encoder.encode(jsonlRow(row, file)));
          else {
            kept.push(row);
            if (folder && file !== undefined) runs.set(row, file);
          }
        }
      }
      if (args.format === "summary")
        await output.write(
          encoder.encode(
            formatSummary(kept, unreadable, args.reward, {
              breakdown,
              recordedRows,
              runs,
              filter: { clauses: args.filter, total },
            }),
          ),
        );
    });
    return stopped ? 1 : 0;
  } catch (error) {
    return reportError(error, io);
  } finally {
    await pool?.close();
  }
}
