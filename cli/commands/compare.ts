/**
 * `compare A B [--server S] [--inputs M] [--policy P] [--json]`: two rollout sets side by side
 * (an HTTP run and an MCP run, or two harnesses), paired per task, with a verdict per pair.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  type CompareLines,
  type CompareReport,
  compareCsv,
  compareRuns,
  compareTasks,
  type PairReport,
  recordedDifferText,
  repeatsText,
  taskLabel,
  tasksText,
} from "../../lib/compare";
import type { Policy } from "../../lib/identity/types";
import { readJsonl } from "../../lib/jsonl";
import { MEAN_DECIMALS } from "../../lib/metrics";
import { type Rollout, readRollout } from "../../lib/schemas";
import { answerUsage, readPolicy, tryParse } from "../args";
import { CliError, reportError } from "../errors";
import { isDirectory, sourcesOf } from "../folder";
import { inputsHelp, loadInputIndex } from "../inputs";
import { type CommandIo, silentIo } from "../io";
import { namingFile, openFileStream } from "../open";
import { terminalJson, terminalText } from "../terminal";

const HELP = `usage: npm run --silent cli -- compare A B [--server S] [--inputs M] [--policy P] [--format F]

Pairs the rollouts of A and B by (_ng_task_index, _ng_rollout_index), then by equal task input
(responses_create_params.input), then by equal id. Per pair: recorded and recomputed rewards, the
canonical action sequences (tool identity + parsed arguments) aligned, the first divergence, and a
verdict: "same actions, same reward", "same actions, different reward" (an identity bug when both
sides make calls and both rewards are recomputed: only the names the verifier saw differ) or
"different actions".

options:
  --server S    the verifying server of every pair (default: A's rollout's, chosen as verify's
                server_source says, else B's)
${inputsHelp(16)}
  --policy P    contract (default) | legacy, for the recomputed rewards
  --format F    table (default) | json (the whole report) | csv (a row per pair, then one per
                rollout that found no partner: what /compare's "Download CSV" writes)
  --json        the same as --format json
  -h, --help    this help
`;

const OPTIONS = {
  server: { type: "string" },
  inputs: { type: "string" },
  policy: { type: "string" },
  format: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const COMPARE_FORMATS = ["table", "json", "csv"] as const;
type CompareFormat = (typeof COMPARE_FORMATS)[number];
const isCompareFormat = (format: string): format is CompareFormat =>
  COMPARE_FORMATS.some((known) => known === format);

export type ParsedCompareArgs =
  | { ok: true; help: true }
  | {
      ok: true;
      help: false;
      a: string;
      b: string;
      server?: string;
      inputs?: string;
      policy: Policy;
      format: CompareFormat;
    }
  | { ok: false; error: string };

export function parseCompareArgs(args: string[]): ParsedCompareArgs {
  const parsed = tryParse(() => parseArgs({ args, options: OPTIONS, allowPositionals: true }));
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed.value;
  if (values.help) return { ok: true, help: true };
  const [a, b, ...extra] = positionals;
  if (a === undefined || b === undefined) return { ok: false, error: "need two files, A and B" };
  if (extra.length > 0) return { ok: false, error: `unexpected argument '${extra[0]}'` };
  const read = readPolicy(values.policy);
  if (!read.ok) return read;
  const policy = read.policy;
  const format = values.json === true ? "json" : (values.format ?? "table");
  if (!isCompareFormat(format))
    return { ok: false, error: `--format must be table, json or csv, not '${format}'` };
  if (values.json === true && values.format !== undefined && values.format !== "json")
    return { ok: false, error: `--json and --format ${values.format} ask for two formats: give one` };
  return {
    ok: true,
    help: false,
    a,
    b,
    policy,
    format,
    ...(values.server === undefined ? {} : { server: values.server }),
    ...(values.inputs === undefined ? {} : { inputs: values.inputs }),
  };
}

/** The rollouts of a run, narrowed once (lib/schemas); a line that is not a rollout is skipped with a warning. */
async function readRollouts(path: string, io: CommandIo): Promise<{ line: number; value: Rollout }[]> {
  // A folder is no run: name its rollouts files, one of which is (lib/folder's roles, as `verify DIR` reads them).
  if (await isDirectory(path)) {
    const files = (await sourcesOf(path, { roles: [] }, silentIo)).map((source) =>
      join(path, source.file ?? ""),
    );
    throw new CliError(
      "usage",
      `${path} is a folder: compare takes two rollouts files${
        files.length === 0
          ? ", and it holds none"
          : `; its rollouts ${files.length === 1 ? "file is" : "files are"} ${files.join(", ")}`
      }`,
    );
  }
  const rollouts: { line: number; value: Rollout }[] = [];
  for await (const item of namingFile(path, readJsonl(await openFileStream(path)))) {
    const read = item.ok ? readRollout(item.value) : { ok: false as const, message: item.error };
    if (read.ok) rollouts.push({ line: item.line, value: read.rollout });
    else
      await io.stderr.write(`warning: ${path} line ${item.line}: ${terminalText(read.message)} (skipped)\n`);
  }
  return rollouts;
}

const percent = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(1)}%`);
const reward = (x: number | null) => (x === null ? "-" : String(x));

/** Each side's rollouts by position (lib/compare CompareLines): a pair is named by its lines (its key can be every pair's). */
function pairLine(p: PairReport, lines?: CompareLines): string {
  const divergence = p.first_divergence === null ? "" : `  ${terminalText(p.first_divergence.message)}`;
  // One error both sides share (no verifier for either) is said once.
  const err = terminalText([...new Set([p.a.error, p.b.error].filter((e) => e !== undefined))].join("; "));
  const capped =
    p.alignment_capped === null ? "" : `\n${" ".repeat(14)}${terminalText(p.alignment_capped.message)}`;
  // A verdict on recorded rewards shows the rewards it compared, and says so.
  const recorded = p.reward_basis === "recorded";
  const tasks = p.tasks_differ ? "  different tasks: same indices, different task inputs" : "";
  const repeats = p.repeats === null ? "" : `  one of several (a ${p.repeats.a}, b ${p.repeats.b})`;
  const [ra, rb] = recorded ? [p.a.recorded_reward, p.b.recorded_reward] : [p.a.reward, p.b.reward];
  const where =
    lines === undefined
      ? ""
      : `a ${lines.a[p.a.position]?.line ?? "?"} · b ${lines.b[p.b.position]?.line ?? "?"}  `;
  // Named by its lines, a pair by task input says so, as the page does: its key (the input's JSON) begins
  // alike in every pair (the system prompt).
  const key = lines !== undefined && p.paired_by !== "indices" ? `(by ${p.paired_by})` : terminalText(p.key);
  return `${where}${key.padEnd(12)} ${reward(ra).padStart(6)} ${reward(rb).padStart(6)}  ${p.verdict}${recorded ? " (recorded)" : ""}${tasks}${repeats}${divergence}${err === "" ? "" : `  [${err}]`}${capped}`;
}

/** Tasks of a run with repeats listed under the by-task sentence, largest drop first. */
const TASK_LINES = 10;

/** The comparison by task (lib/compare compareTasks), for runs with Gym's repeats: a sentence, then the tasks b scores lower. */
function byTaskLines(report: CompareReport, lines?: CompareLines): string[] {
  const { tasks, summary } = compareTasks(report);
  if (summary.repeated === 0) return [];
  const lower = tasks.filter((t) => t.delta !== null && t.delta < 0);
  const mean = (value: number | null) => (value === null ? "n/a" : value.toFixed(MEAN_DECIMALS));
  return [
    `by task: ${tasksText(summary, "b")}`,
    ...lower
      .slice(0, TASK_LINES)
      .map(
        (t) =>
          `  ${taskLabel(t, "a", lines?.a[report.pairs[t.pairs[0] ?? 0]?.a.position ?? -1]?.line ?? null)}: passes a ${t.a.passes}/${t.a.scored}, b ${t.b.passes}/${t.b.scored}; mean ${mean(t.a.mean)} -> ${mean(t.b.mean)}`,
      ),
    ...(lower.length > TASK_LINES ? [`  and ${lower.length - TASK_LINES} more tasks lower in b`] : []),
  ];
}

export function formatCompare(report: CompareReport, a: string, b: string, lines?: CompareLines): string {
  const s = report.summary;
  const out = [
    `compare a=${a} b=${b} (policy ${report.policy})`,
    `${s.pairs} pairs; unpaired: ${s.unpaired_a} in a, ${s.unpaired_b} in b`,
    ...(a === b ? ["a and b are the same file: each rollout is compared with itself"] : []),
    ...(s.tasks_differ > 0
      ? [
          `warning: ${s.tasks_differ} of ${s.pairs} pairs share (_ng_task_index, _ng_rollout_index) but not their task input: a and b look like runs of different tasks`,
        ]
      : []),
    // One file as a and b: its k-th rollout is joined with itself, no sample of another.
    ...(s.among_repeats > 0 && a !== b ? [`note: ${repeatsText(s.among_repeats, s.pairs, "a", "b")}`] : []),
    `reward parity ${percent(s.parity_rate)}, action parity ${s.with_calls === 0 && s.pairs > 0 ? "n/a (neither run makes a tool call)" : percent(s.action_parity_rate)}; rewards recomputed in ${s.recomputed} of ${s.pairs} pairs${s.recomputed < s.pairs ? " (the others compare the rewards the files recorded)" : ""}`,
    ...[recordedDifferText(s.recorded_differ)].flatMap((text) => (text === null ? [] : [`note: ${text}`])),
    `same actions, same reward: ${s.same_actions_same_reward}`,
    `same actions, different reward: ${s.same_actions_different_reward} (only because of names, with calls on both sides and recomputed rewards: ${s.names_decided})`,
    `different actions: ${s.different_actions}`,
    ...byTaskLines(report, lines),
    "",
    `${lines === undefined ? "" : "lines  "}${"pair".padEnd(12)} ${"a".padStart(6)} ${"b".padStart(6)}  verdict`,
    ...report.pairs.map((p) => pairLine(p, lines)),
  ];
  return `${out.join("\n")}\n`;
}

export async function run(args: string[], io: CommandIo): Promise<number> {
  const parsed = parseCompareArgs(args);
  if (!parsed.ok || parsed.help) return answerUsage(parsed, HELP, io);
  try {
    const [a, b] = [await readRollouts(parsed.a, io), await readRollouts(parsed.b, io)];
    const inputs = parsed.inputs === undefined ? undefined : await loadInputIndex(parsed.inputs, io);
    const report = compareRuns(
      a.map((r) => r.value),
      b.map((r) => r.value),
      {
        policy: parsed.policy,
        ...(parsed.server === undefined ? {} : { server: parsed.server }),
        ...(inputs === undefined ? {} : { inputs }),
      },
    );
    const lines = { a, b };
    await io.stdout.write(
      parsed.format === "json"
        ? `${terminalJson(report, 2)}\n`
        : parsed.format === "csv"
          ? compareCsv(report, lines)
          : formatCompare(report, parsed.a, parsed.b, lines),
    );
    return 0;
  } catch (error) {
    return reportError(error, io);
  }
}
