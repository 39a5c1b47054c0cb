/**
 * A comparison as CSV: one row per pair, then one per rollout that found no partner, so a spreadsheet holds
 * every rollout of both runs. `cli compare --format csv` and /compare's download write these same bytes.
 */
import { csvLine } from "../csv";
import { type CompareReport, nameMismatch, nameMismatchText, type PairReport } from "./compare";

export const COMPARE_CSV_COLUMNS = [
  "a_line",
  "b_line",
  // Gym's indices as two numbers: a "0:0" key reads as a time of day in a spreadsheet.
  "task_index",
  "rollout_index",
  "paired_by",
  "policy",
  "server",
  "verdict",
  "reward_basis",
  "a_recorded_reward",
  "b_recorded_reward",
  "a_reward",
  "b_reward",
  "a_calls",
  "b_calls",
  "names_decided",
  "tasks_differ",
  "repeats",
  "first_divergence",
  // What /compare says of a pair with the same actions and different rewards: whose verifier saw which name.
  "names_seen",
  "a_error",
  "b_error",
] as const;

/** Each side's 1-based line numbers by rollout position (a pair is named by its lines: keys can repeat). */
export interface CompareLines {
  readonly a: readonly number[];
  readonly b: readonly number[];
}

const flag = (value: boolean): string => (value ? "yes" : "no");

function pairCells(p: PairReport, lines: CompareLines, policy: string): (string | number | null)[] {
  const mismatch = nameMismatch(p);
  return [
    lines.a[p.a.position] ?? null,
    lines.b[p.b.position] ?? null,
    p.task_index,
    p.rollout_index,
    p.paired_by,
    policy,
    p.server,
    p.verdict,
    p.reward_basis,
    p.a.recorded_reward,
    p.b.recorded_reward,
    p.a.reward,
    p.b.reward,
    p.a.actions.length,
    p.b.actions.length,
    flag(p.names_decided),
    flag(p.tasks_differ),
    p.repeats === null ? null : `a ${p.repeats.a}, b ${p.repeats.b}`,
    p.first_divergence?.message ?? null,
    mismatch === null ? null : nameMismatchText(mismatch),
    p.a.error ?? null,
    p.b.error ?? null,
  ];
}

/** A rollout of one side that no rollout of the other joined: its line, and the verdict saying so. */
function unpairedCells(side: "a" | "b", line: number | null, policy: string): (string | number | null)[] {
  const column = side === "a" ? "a_line" : "b_line";
  return COMPARE_CSV_COLUMNS.map((name) =>
    name === column ? line : name === "verdict" ? `unpaired in ${side}` : name === "policy" ? policy : null,
  );
}

export function compareCsv(report: CompareReport, lines: CompareLines): string {
  let out = csvLine(COMPARE_CSV_COLUMNS);
  const { policy } = report;
  for (const pair of report.pairs) out += csvLine(pairCells(pair, lines, policy));
  for (const position of report.unpaired_a)
    out += csvLine(unpairedCells("a", lines.a[position] ?? null, policy));
  for (const position of report.unpaired_b)
    out += csvLine(unpairedCells("b", lines.b[position] ?? null, policy));
  return out;
}
