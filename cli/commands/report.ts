/**
 * `report FILE|DIR [--filter EXPR] [--mark MARKS] --out report.html`: one self-contained HTML file to share (no
 * network, no script, a strict CSP) with the run's why-zero breakdown, its metrics and the marked rollouts'
 * calls and transcripts; for a folder, every rollouts file's (marks as FILE:LINE). The data is the run view's (features/run/run-view.ts) and the HTML is lib/report's, the same the
 * page's "Report" download writes, so the same file, filter and rollouts give the same bytes.
 */

import { basename, resolve } from "node:path";
import { type ReportMark, reportData } from "../../features/run/report";
import type { RunSource, RunSourceLine } from "../../features/run/run-view";
import { type LineKind, readLine, unparsedLine } from "../../lib/folder";
import { NO_HARNESS } from "../../lib/harness";
import type { HarnessId } from "../../lib/harness/types";
import { damagedBeforeFirstLineText, type GzipError, readJsonl } from "../../lib/jsonl";
import { REPORT_UNREADABLE_MAX, renderReport, type UnreadableLine } from "../../lib/report";
import { lineHolds, pairedRowOptions, parseFilter, type Reward, type RunRow, runRow } from "../../lib/run";
import {
  answerUsage,
  emptyValue,
  onlyFile,
  REWARD_HELP,
  readHarness,
  readReward,
  scanOptions,
} from "../args";
import { CliError, isReadStopped, reportError } from "../errors";
import {
  FOLDER_HELP,
  lineSource,
  openSources,
  type RoleOverride,
  readRoleOverrides,
  type Source,
} from "../folder";
import { inputsHelp, roleHelp } from "../inputs";
import type { CommandIo } from "../io";
import { LeftOutLines } from "../left-out";
import { damageText, namingFile, notRolloutsMessage, openFileStream } from "../open";
import { writeOutput } from "../output";

export const HELP = `usage: npm run --silent cli -- report FILE|DIR --out report.html [options]

Writes one self-contained HTML file to share: it opens offline in any browser, loads nothing and runs no
script (Content-Security-Policy default-src 'none'), and every text from the file is escaped. It shows the
why-zero breakdown, the run metrics (over the rollouts the filter keeps) and, for each chosen rollout, its
calls (emitted name, provenance, verifier name, status, outcome) and its transcript. The same input gives the
same bytes (nothing in it comes from the clock).

options:
  --out OUT       the HTML file to write (required)
  --filter EXPR   the run filter (as in triage and the page): metrics and the default rollouts follow it
  --mark MARKS    the rollouts to show in full: lines of FILE (3,17,42), or FILE:LINE items for a folder's
                  files (data/a.jsonl:3,data/b.jsonl:17; a bare LINE when the folder holds one rollouts file);
                  default: the first 20 the filter keeps that scored 0 or below in --reward (the
                  first 20 it keeps when none did)
${REWARD_HELP}
  --server S      the verifying server (default: each rollout's own, see the README)
${inputsHelp(18)}
  --harness H     the harness that produced the file (alias diagnostics only)
${roleHelp(18, "below")}
  -h, --help      this help

${FOLDER_HELP}A folder's report covers every rollouts file in it: each file's breakdown and metrics under its
path, and each shown rollout labelled with its file (the page's Report button on a folder's file writes the
same bytes). Exit 2 for unusable arguments.
`;

interface ReportArgs {
  readonly file: string;
  readonly out: string;
  readonly filter: string;
  readonly marked: readonly ReportMark[] | null;
  /** The one reward setting (lib/run reward.ts): the breakdown's zeros and pass@k read it. */
  readonly reward: Reward;
  readonly roles: readonly RoleOverride[];
  readonly server?: string;
  readonly inputs?: string;
  readonly harness?: HarnessId;
}

type Parsed =
  | { ok: true; help: true }
  | { ok: true; help: false; args: ReportArgs }
  | { ok: false; error: string };

export function parseReportArgs(argv: readonly string[]): Parsed {
  const scanned = scanOptions(
    argv,
    ["--out", "--filter", "--mark", "--reward", "--view", "--server", "--inputs", "--harness", "--role"],
    ["--role"],
  );
  if (!scanned.ok || scanned.help) return scanned.ok ? { ok: true, help: true } : scanned;
  const { values, files, lists } = scanned;
  const only = onlyFile(files);
  if (!only.ok) return only;
  const empty = emptyValue(values, ["--out", "--server", "--inputs"]);
  if (empty !== null) return empty;
  const out = values.get("--out");
  if (out === undefined) return { ok: false, error: "--out is required (the HTML file to write)" };
  const filter = values.get("--filter") ?? "";
  const parsedFilter = parseFilter(filter);
  if (!parsedFilter.ok) return { ok: false, error: `--filter: ${parsedFilter.error}` };
  const mark = values.get("--mark");
  let marked: ReportMark[] | null = null;
  if (mark !== undefined) {
    // LINE, or FILE:LINE for a folder's file (FILE relative to the folder; the last colon ends it).
    const parts = mark
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "")
      .map((p) => /^(?:(.+):)?([1-9]\d{0,9})$/.exec(p));
    if (parts.length === 0 || parts.some((p) => p === null)) {
      return {
        ok: false,
        error: `--mark must be LINE or FILE:LINE items separated by commas, not ${JSON.stringify(mark)}`,
      };
    }
    marked = parts.flatMap((p) => (p === null ? [] : [{ file: p[1] ?? null, line: Number(p[2]) }]));
  }
  const reward = readReward(values);
  if (!reward.ok) return reward;
  const roles = readRoleOverrides(lists.get("--role") ?? []);
  if (!roles.ok) return roles;
  const harness = readHarness(values.get("--harness"));
  if (!harness.ok) return harness;
  const server = values.get("--server");
  const inputs = values.get("--inputs");
  return {
    ok: true,
    help: false,
    args: {
      file: only.file,
      out,
      filter,
      marked,
      reward: reward.reward,
      roles: roles.overrides,
      ...(server === undefined ? {} : { server }),
      ...(inputs === undefined ? {} : { inputs }),
      ...(harness.harness === null ? {} : { harness: harness.harness }),
    },
  };
}

/** The rollouts of one source, read from disk (again at each call: rollouts are never kept). */
function readSource(source: Source, args: ReportArgs, io: CommandIo) {
  let unreadable = 0;
  // The first REPORT_UNREADABLE_MAX of them with what each is, as the page's report lists them.
  const named: UnreadableLine[] = [];
  const name = (line: number, reason: string) => {
    if (named.length < REPORT_UNREADABLE_MAX) named.push({ line, reason });
  };
  // What its lines that are not rollouts are, and a damage before its first line: what the file is instead.
  const kinds = new Set<LineKind>();
  let damagedAtStart: GzipError | null = null;
  // A damaged gzip: the lines before the damage are the file's (read again, they stop at the same place).
  let stopped = false;
  async function* read(only: ReadonlySet<number> | null, report: boolean): AsyncIterable<RunSourceLine> {
    const stream = await openFileStream(source.path);
    const leftOut = new LeftOutLines((text) => io.stderr.write(text));
    try {
      for await (const item of namingFile(source.path, readJsonl(stream))) {
        if (only !== null && !only.has(item.line)) continue;
        const read = item.ok
          ? readLine(item.value)
          : { ok: false as const, ...unparsedLine(item.error, item.text ?? null) };
        if (!read.ok) {
          if (report) {
            unreadable++;
            kinds.add(read.kind);
            name(item.line, read.message);
            // A folder's lines are named with their file, as cli triage names them.
            await leftOut.add(source.file, item.line, read.message);
          }
          continue;
        }
        await leftOut.flush();
        const pairing = source.inputRows?.pair(read.rollout);
        yield {
          line: item.line,
          value: read.rollout,
          options: {
            config: source.config,
            ...lineSource(source),
            ...(args.server === undefined ? {} : { server: args.server }),
            ...pairedRowOptions(source.inputRows, pairing),
            ...(args.harness === undefined ? {} : { harness: args.harness }),
          },
        };
      }
    } catch (error) {
      if (!isReadStopped(error)) throw error;
      if (report) {
        // Said once, on the pass that counts the file's lines; the damage is one unreadable line, as the
        // page's report has it.
        unreadable++;
        stopped = true;
        // The damage is on the line the reader stopped at (blank lines counted), as the page lists it.
        const { damage } = error;
        name(damage.line ?? 1, damageText(damage));
        if (damage.line === 1) damagedAtStart = damage;
        await leftOut.flush();
        await io.stderr.write(`error: ${error.message}\n`);
      }
    } finally {
      await leftOut.flush();
    }
  }
  /** For a file without one rollout, once read: what it is instead, as the page's banner says it. */
  const problem = async (rollouts: number): Promise<string | null> => {
    if (rollouts > 0) return null;
    if (damagedAtStart !== null) return damagedBeforeFirstLineText(damagedAtStart);
    return stopped ? null : notRolloutsMessage(source.path, kinds);
  };
  return { read, unreadable: () => unreadable, named: () => named, stopped: () => stopped, problem };
}

/** Marks as the report takes them: a bare line means the only rollouts file; FILE must be one of them. */
function resolveMarks(
  marks: readonly ReportMark[] | null,
  sources: readonly Source[],
  given: string,
): ReportMark[] | null {
  if (marks === null) return null;
  const files = sources.flatMap((source) => (source.file === null ? [] : [source.file]));
  const listed = files.join(", ");
  return marks.map((mark) => {
    if (files.length === 0) {
      if (mark.file === null) return mark;
      throw new CliError(
        "usage",
        `--mark ${mark.file}:${mark.line}: ${given} is one file; mark its lines alone`,
      );
    }
    if (mark.file === null) {
      const [only] = files;
      if (files.length === 1 && only !== undefined) return { file: only, line: mark.line };
      throw new CliError(
        "usage",
        `--mark ${mark.line}: ${given} holds ${files.length} rollouts files (${listed}): mark FILE:LINE`,
      );
    }
    if (!files.includes(mark.file))
      throw new CliError("usage", `--mark: ${mark.file} is not a rollouts file of ${given} (${listed})`);
    return mark;
  });
}

/** One rollouts file read for the report: its rows computed once, its rollouts read again when shown. */
/** Lines whose raw text holds `text` (a `text:` clause, as cli triage and the page's search read it). */
async function linesHolding(path: string, text: string): Promise<ReadonlySet<number>> {
  const lines = new Set<number>();
  const decoder = new TextDecoder();
  try {
    for await (const item of namingFile(path, readJsonl(await openFileStream(path), { keepBytes: true }))) {
      if (item.bytes !== undefined && lineHolds(decoder.decode(item.bytes), text)) lines.add(item.line);
    }
  } catch (error) {
    // A damaged gzip: the lines before the damage are the file's, as every other pass reads them.
    if (!isReadStopped(error)) throw error;
  }
  return lines;
}

async function reportSource(source: Source, args: ReportArgs, io: CommandIo) {
  const reader = readSource(source, args, io);
  // Rows only are kept (as triage keeps them); rollouts are read again for a field filter and the shown ones.
  const rows: RunRow[] = [];
  for await (const item of reader.read(null, true)) rows.push(runRow(item.line, item.value, item.options));
  const runSource: RunSource = {
    key: `report:${source.path}`,
    harness: args.harness === undefined ? NO_HARNESS : { all: args.harness, agents: {} },
    rows: () => ({ rows, names: [] }),
    rollouts: () => reader.read(null, false),
    unreadable: reader.unreadable(),
    textLines: (text) => linesHolding(source.path, text),
  };
  const problem = await reader.problem(rows.length);
  return {
    file: source.file,
    stopped: reader.stopped(),
    unreadable: reader.named,
    problem: () => problem,
    source: runSource,
    read: (lines: readonly number[]) => reader.read(new Set(lines), false),
  };
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseReportArgs(argv);
  if (!parsed.ok || parsed.help) return answerUsage(parsed, HELP, io);
  const args = parsed.args;
  try {
    const { sources, folder: opened } = await openSources(
      args.file,
      { roles: args.roles, inputs: args.inputs ?? null },
      io,
    );
    const [first] = sources;
    if (first === undefined) throw new CliError("usage", `${args.file} holds no rollouts file`);
    const marked = resolveMarks(args.marked, sources, args.file);
    const read = [];
    for (const source of sources) read.push(await reportSource(source, args, io));
    const folder = first.file !== null;
    const data = await reportData(read, {
      // A folder's report is titled by the folder (as the page titles an opened folder), a file's by its name.
      title: basename(folder ? resolve(args.file) : first.path),
      filter: args.filter,
      marked,
      reward: args.reward,
      folder: opened === null ? null : { files: opened.plan.decisions, hidden: opened.hidden },
    });
    if ("error" in data) throw new CliError("usage", `--filter: ${data.error}`);
    const shown = data.runs.flatMap((run) => run.rollouts);
    const missing = (marked ?? []).filter(
      (mark) => !shown.some((r) => r.line === mark.line && r.file === mark.file),
    );
    if (missing.length > 0) {
      const named = missing.map((mark) =>
        mark.file === null ? `${mark.line}` : `${mark.file}:${mark.line}`,
      );
      await io.stderr.write(
        `--mark: ${missing.length === 1 ? "line" : "lines"} ${named.join(", ")} ${missing.length === 1 ? "is" : "are"} not a rollout (left out)\n`,
      );
    }
    const html = new TextEncoder().encode(renderReport(data));
    await writeOutput(
      args.out,
      [...sources.map((source) => source.path), ...(args.inputs === undefined ? [] : [args.inputs])],
      io,
      null,
      async (output) => {
        await output.write(html);
      },
    );
    const inRun = data.runs.reduce((n, run) => n + run.counts.rollouts, 0);
    await io.stderr.write(
      `report: ${shown.length} ${shown.length === 1 ? "rollout" : "rollouts"} shown, ${inRun} in the ${folder ? `${data.runs.length} rollouts ${data.runs.length === 1 ? "file" : "files"}` : "run"}\n`,
    );
    // A file whose read stopped part way is in the report as far as it was read; the exit code says so.
    return read.some((source) => source.stopped) ? 1 : 0;
  } catch (error) {
    return reportError(error, io);
  }
}
