/**
 * `triage FILE [--server S] [--inputs M] [--harness H] [--filter EXPR] [--format summary|csv|jsonl] [--out OUT]`:
 * the why-zero breakdown and run metrics of a run, or its (filtered) rows as CSV or JSONL. The rows, the
 * filter and the writers are lib's (lib/run, lib/export/csv), the same the browser's export uses, so a
 * download from the UI equals this command's output for the same filter.
 */
import { csvHeader, csvRow, jsonlRow } from "../../lib/export/csv";
import type { HarnessId } from "../../lib/harness/types";
import { readJsonl } from "../../lib/jsonl";
import { runMetrics } from "../../lib/metrics";
import {
  type FilterClause,
  matchesFilter,
  metricsOf,
  parseFilter,
  type RunRow,
  runRow,
  zeroShareText,
} from "../../lib/run";
import { readRollout } from "../../lib/schemas";
import { ZERO_CAUSE_LABELS, ZERO_CAUSES } from "../../lib/triage";
import type { InputIndex } from "../../lib/verify";
import { emptyValue, onlyFile, readHarness, scanOptions } from "../args";
import { reportError } from "../errors";
import { loadInputIndex } from "../inputs";
import type { CommandIo } from "../io";
import { namingFile, openFileStream, sayNotRollouts } from "../open";
import { writeOutput } from "../output";

export const HELP = `usage: npm run --silent cli -- triage FILE [options]

Every rollout whose recorded or recomputed reward is 0 gets one cause (in this precedence): malformed,
no_task_data (unverifiable), identity (scores above 0 under the contract policy or a harness what-if with
provenance), no_tool_call, tool_failed (calls the tool rejected), wrong_end_state.

options:
  --format F      summary (default): counts and share per cause, then run metrics, as text
                  csv | jsonl: one row per rollout (line, task, agent, server, model, the recorded and both
                  recomputed rewards, cause, flags, tokens, error)
  --filter EXPR   only rollouts matching every clause: recorded:0..0  contract:0.5..  legacy:..1
                  field:agent_ref.name=hermes_agent  field:response.model~gpt  flag:alias_guess
                  cause:identity   (a value with spaces as a JSON string: field:category="a b")
  --server S      the verifying server (default: each rollout's environment_name)
  --inputs M      materialized inputs JSONL, paired by (_ng_task_index, _ng_rollout_index)
  --harness H     the harness that produced the file (alias diagnostics only)
  --out OUT       write to OUT instead of stdout
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
  readonly format: Format;
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
  const scanned = scanOptions(argv, ["--format", "--filter", "--server", "--inputs", "--harness", "--out"]);
  if (!scanned.ok || scanned.help) return scanned.ok ? { ok: true, help: true } : scanned;
  const { values, files } = scanned;
  const only = onlyFile(files);
  if (!only.ok) return only;
  const format = values.get("--format") ?? "summary";
  if (!isFormat(format)) return { ok: false, error: `--format must be one of ${FORMATS.join(", ")}` };
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
      format,
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

/** The text summary: causes with count and share of the rollouts, then the run's headline metrics. */
export function formatSummary(rows: readonly RunRow[], unreadable: number): string {
  const out: string[] = [];
  const zero = rows.filter((r) => r.cause !== null).length;
  // The same headline as the run view's (lib/run): unreadable lines are named and in no total.
  out.push(zeroShareText(zero, { rollouts: rows.length, unreadable }));
  for (const cause of ZERO_CAUSES) {
    const n = rows.filter((r) => r.cause === cause).length;
    const share = rows.length === 0 ? 0 : (100 * n) / rows.length;
    out.push(
      `  ${cause.padEnd(16)} ${String(n).padStart(6)}  ${share.toFixed(PERCENT_DECIMALS).padStart(5)}%  ${ZERO_CAUSE_LABELS[cause]}`,
    );
  }
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
  let inputs: InputIndex<unknown> | undefined;
  let stream: ReadableStream<Uint8Array>;
  try {
    if (args.inputs !== undefined) inputs = await loadInputIndex(args.inputs, io);
    stream = await openFileStream(args.file);
  } catch (error) {
    // A missing or unreadable file is a usage error (2); a damaged --inputs stops reading part way (1).
    return reportError(error, io);
  }
  try {
    const readFiles = args.inputs === undefined ? [args.file] : [args.file, args.inputs];
    await writeOutput(args.out, readFiles, io, stream, async (output) => {
      const rows: RunRow[] = [];
      let unreadable = 0;
      let readable = 0;
      if (args.format === "csv") await output.write(encoder.encode(csvHeader()));
      for await (const item of namingFile(args.file, readJsonl(stream))) {
        if (!item.ok) {
          unreadable++;
          await io.stderr.write(`line ${item.line}: ${item.error} (left out)\n`);
          continue;
        }
        // Parse once at the edge: a line that is not a rollout is an unreadable line, left out.
        const read = readRollout(item.value);
        if (!read.ok) {
          unreadable++;
          await io.stderr.write(`line ${item.line}: ${read.message} (left out)\n`);
          continue;
        }
        readable++;
        // The one pairing rule (lib/verify InputIndex): Gym's indices, else an equal task input.
        const paired = inputs?.pair(item.value).ref;
        const input = paired ?? undefined;
        const row = runRow(item.line, read.rollout, {
          ...(args.server === undefined ? {} : { server: args.server }),
          ...(input === undefined ? {} : { input }),
          ...(args.harness === undefined ? {} : { harness: args.harness }),
        });
        if (!matchesFilter(args.filter, row, item.value)) continue;
        if (args.format === "csv") await output.write(encoder.encode(csvRow(row)));
        else if (args.format === "jsonl") await output.write(encoder.encode(jsonlRow(row)));
        else rows.push(row);
      }
      if (args.format === "summary") await output.write(encoder.encode(formatSummary(rows, unreadable)));
      if (readable === 0) await sayNotRollouts(args.file, io);
    });
    return 0;
  } catch (error) {
    return reportError(error, io);
  }
}
