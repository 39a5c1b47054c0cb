/**
 * `triage FILE [--server S] [--inputs M] [--harness H] [--filter EXPR] [--format summary|csv|jsonl] [--out OUT]`:
 * the why-zero breakdown and run metrics of a run, or its (filtered) rows as CSV or JSONL. The rows, the
 * filter and the writers are lib's (lib/run, lib/export/csv), the same the browser's export uses, so a
 * download from the UI equals this command's output for the same filter.
 */
import { csvHeader, csvRow, jsonlRow } from "../../lib/export/csv";
import { readLine, unparsedLine } from "../../lib/folder";
import type { HarnessId } from "../../lib/harness/types";
import { readJsonl } from "../../lib/jsonl";
import { runMetrics } from "../../lib/metrics";
import {
  type FilterClause,
  matchesFilter,
  metricsOf,
  needsRollout,
  parseFilter,
  type RunRow,
  runRow,
  withTaskWide,
  zeroShareText,
} from "../../lib/run";
import {
  REPRODUCTION_TEXT,
  summarizeTriage,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
  ZERO_VIEWS,
  type ZeroView,
} from "../../lib/triage";
import { emptyValue, onlyFile, readHarness, scanOptions } from "../args";
import { reportError } from "../errors";
import { FOLDER_HELP, type RoleOverride, readRoleOverrides, type Source, sourcesOf } from "../folder";
import type { CommandIo } from "../io";
import { namingFile, openFileStream, sayNotRollouts } from "../open";
import { writeOutput } from "../output";

export const HELP = `usage: npm run --silent cli -- triage FILE|DIR [options]

Every rollout whose recorded or recomputed reward is 0 gets one cause (in this precedence, lib/triage/README.md):
malformed, drift (the recorded reward matches neither policy's recomputation), model_error, truncated,
no_output (run health: response.error, response.status / incomplete_details, usage.output_tokens 0),
no_task_data (unverifiable), identity (the names decided the reward), task_wide (every rollout of the task
failed the same way), no_tool_call, tool_failed (calls the tool rejected), wrong_end_state.

${FOLDER_HELP}
options:
  --format F      summary (default): the zeros per cause, counted in the --view's reward, then run metrics
                  csv | jsonl: one row per rollout (line, task, agent, server, model, the recorded and both
                  recomputed rewards, cause, which policy reproduces the recorded reward, drift, the
                  decisive calls as 0-based function_call indexes, flags, tokens, error)
  --view V        which reward's zeros the summary counts: recorded (default: the run's own), contract,
                  legacy (a policy's recomputation)
  --filter EXPR   only rollouts matching every clause: recorded:0..0  contract:0.5..  legacy:..1
                  field:agent_ref.name=hermes_agent  field:response.model~gpt  flag:alias_guess
                  cause:identity   (a value with spaces as a JSON string: field:category="a b")
  --server S      the verifying server (default: each rollout's environment_name)
  --inputs M      materialized inputs JSONL, paired by (_ng_task_index, _ng_rollout_index)
  --harness H     the harness that produced the file (alias diagnostics only)
  --out OUT       write to OUT instead of stdout
  --role PATH=ROLEa folder file's role (repeatable; see above)
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
  readonly view: ZeroView;
  readonly filter: readonly FilterClause[];
  readonly server?: string;
  readonly inputs?: string;
  readonly harness?: HarnessId;
  readonly out?: string;
}

type Parsed =
  | { ok: true; help: true }
  | { ok: true; help: false; args: TriageArgs }
  | { ok: false; error: string };

export function parseTriageArgs(argv: readonly string[]): Parsed {
  const scanned = scanOptions(
    argv,
    ["--format", "--view", "--filter", "--server", "--inputs", "--harness", "--out", "--role"],
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
  const view = ZERO_VIEWS.find((v) => v === (values.get("--view") ?? "recorded"));
  if (view === undefined) return { ok: false, error: `--view must be one of ${ZERO_VIEWS.join(", ")}` };
  const filter = parseFilter(values.get("--filter") ?? "");
  if (!filter.ok) return { ok: false, error: `--filter: ${filter.error}` };
  const harness = readHarness(values.get("--harness"));
  if (!harness.ok) return harness;
  const empty = emptyValue(values, ["--server", "--inputs", "--out"]);
  if (empty !== null) return empty;
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
      view,
      filter: filter.clauses,
      ...(server === undefined ? {} : { server }),
      ...(inputs === undefined ? {} : { inputs }),
      ...(harness.harness === null ? {} : { harness: harness.harness }),
      ...(out === undefined ? {} : { out }),
    },
  };
}

const PERCENT_DECIMALS = 1;
const MEAN_DECIMALS = 4;

function fixed(value: number | null, decimals: number): string {
  return value === null ? "n/a" : value.toFixed(decimals);
}

/**
 * The text summary: the zeros of the view's reward per cause with count and share of the rollouts (drift
 * counted apart), which policy reproduces the recorded reward, then the run's headline metrics. `rows` are
 * the run's rows with the run-level cause applied (withTaskWide).
 */
export function formatSummary(
  rows: readonly RunRow[],
  unreadable: number,
  view: ZeroView = "recorded",
): string {
  const out: string[] = [];
  const triage = summarizeTriage(rows, view);
  // The same headline as the run view's (lib/run): unreadable lines are named and in no total.
  out.push(zeroShareText(triage.zero, { rollouts: rows.length, unreadable }, view));
  const line = (cause: (typeof ZERO_CAUSES)[number]) => {
    const n = triage.counts[cause];
    const share = rows.length === 0 ? 0 : (100 * n) / rows.length;
    return `  ${cause.padEnd(16)} ${String(n).padStart(6)}  ${share.toFixed(PERCENT_DECIMALS).padStart(5)}%  ${ZERO_CAUSE_LABELS[cause]}`;
  };
  for (const cause of ZERO_CAUSES) if (cause !== "drift") out.push(line(cause));
  // Drift is counted apart: its zero is the recording's, not something the agent did.
  out.push(`counted apart (the recorded reward matches neither policy's recomputation):`);
  out.push(line("drift"));
  const r = triage.reproduced;
  out.push(
    `recorded reward reproduced by: both policies ${r.both}, contract only ${r.contract}, legacy only ${r.legacy}, neither ${r.neither}` +
      (r.legacy > r.contract ? ` (${REPRODUCTION_TEXT.legacy})` : ""),
  );
  const m = runMetrics(rows.map(metricsOf));
  out.push(
    `mean reward: recorded ${fixed(m.mean.recorded, MEAN_DECIMALS)}, contract ${fixed(m.mean.contract, MEAN_DECIMALS)}, legacy ${fixed(m.mean.legacy, MEAN_DECIMALS)}`,
  );
  out.push(
    `pass@k (contract, over tasks): ${m.pass_at_k.map((p) => `pass@${p.k} ${fixed(p.value, MEAN_DECIMALS)} (${p.tasks} tasks)`).join(", ")}`,
  );
  out.push(
    `policies: ${m.policy_change.gained.length} gained under contract, ${m.policy_change.lost.length} lost, ${m.policy_change.same} same`,
  );
  out.push(`tokens: ${m.usage.total_tokens} total over ${m.usage.rollouts} rollouts with usage`);
  return `${out.join("\n")}\n`;
}

const encoder = new TextEncoder();

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
    sources = await sourcesOf(args.file, { roles: args.roles, inputs: args.inputs ?? null }, io);
  } catch (error) {
    // A missing or unreadable file is a usage error (2); a damaged --inputs stops reading part way (1).
    return reportError(error, io);
  }
  const folder = sources.some((s) => s.file !== null);
  try {
    const readFiles = [...sources.map((s) => s.path), ...(args.inputs === undefined ? [] : [args.inputs])];
    // Clauses that read the rollout itself are decided while it is in hand; the rest once a file's rows are
    // all in, since the run-level cause (task_wide) needs the whole run. Only rows are kept, never rollouts.
    const fieldClauses = args.filter.filter((clause) => needsRollout([clause]));
    const rowClauses = args.filter.filter((clause) => !needsRollout([clause]));
    await writeOutput(args.out, readFiles, io, null, async (output) => {
      const kept: RunRow[] = [];
      let unreadable = 0;
      if (args.format === "csv") await output.write(encoder.encode(csvHeader(folder)));
      for (const source of sources) {
        const where = source.file === null ? "" : `${source.file} `;
        const stream = await openFileStream(source.path);
        const rows: RunRow[] = [];
        const fieldOk = new Set<number>();
        for await (const item of namingFile(source.path, readJsonl(stream))) {
          if (!item.ok) {
            unreadable++;
            const answer = unparsedLine(item.error, item.text ?? null);
            await io.stderr.write(`${where}line ${item.line}: ${answer.message} (left out)\n`);
            continue;
          }
          // Parse once at the edge: a line that is not a rollout is named with its kind and left out.
          const read = readLine(item.value);
          if (!read.ok) {
            unreadable++;
            await io.stderr.write(`${where}line ${item.line}: ${read.message} (left out)\n`);
            continue;
          }
          // The one pairing rule (lib/verify InputIndex): Gym's indices, else an equal task input.
          const pairing = source.inputRows?.pair(read.rollout);
          const row = runRow(item.line, read.rollout, {
            config: source.config,
            ...(args.server === undefined ? {} : { server: args.server }),
            ...(pairing === undefined ? {} : { pairing }),
            ...(pairing === undefined || pairing.ref === null ? {} : { input: pairing.ref }),
            ...(args.harness === undefined ? {} : { harness: args.harness }),
          });
          rows.push(row);
          if (matchesFilter(fieldClauses, row, item.value)) fieldOk.add(row.line);
        }
        // One sentence for a single FILE without one rollout (an empty one included).
        if (source.file === null && rows.length === 0) await sayNotRollouts(source.path, io);
        // Each file is a run of its own: its tasks' rollouts are compared among themselves.
        const file = source.file ?? undefined;
        for (const row of withTaskWide(rows)) {
          if (!fieldOk.has(row.line) || !matchesFilter(rowClauses, row)) continue;
          if (args.format === "csv") await output.write(encoder.encode(csvRow(row, file)));
          else if (args.format === "jsonl") await output.write(encoder.encode(jsonlRow(row, file)));
          else kept.push(row);
        }
      }
      if (args.format === "summary")
        await output.write(encoder.encode(formatSummary(kept, unreadable, args.view)));
    });
    return 0;
  } catch (error) {
    return reportError(error, io);
  }
}
