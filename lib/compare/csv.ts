/**
 * A comparison as CSV: one row per pair, then one per rollout that found no partner, so a spreadsheet holds
 * every rollout of both runs. `cli compare --format csv` and /compare's download write these same bytes.
 */
import { csvLine } from "../csv";
import { pairingIndices } from "../verify";
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

/** A side's rollout at a position: its 1-based line (a pair is named by its lines: keys can repeat), its value. */
export interface SideLine {
  readonly line: number;
  readonly value: unknown;
}

/** Each side's rollouts by position, as compareRuns was given them. */
export interface CompareLines {
  readonly a: readonly SideLine[];
  readonly b: readonly SideLine[];
}

const flag = (value: boolean): string => (value ? "yes" : "no");

function pairCells(p: PairReport, lines: CompareLines, policy: string): (string | number | null)[] {
  const mismatch = nameMismatch(p);
  return [
    lines.a[p.a.position]?.line ?? null,
    lines.b[p.b.position]?.line ?? null,
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

/**
 * A rollout of one side that no rollout of the other joined: its line, its own Gym indices (a spreadsheet
 * sorted by them keeps it beside its task), and the verdict saying so.
 */
function unpairedCells(
  side: "a" | "b",
  at: SideLine | undefined,
  policy: string,
): (string | number | null)[] {
  const column = side === "a" ? "a_line" : "b_line";
  const indices = at === undefined ? null : pairingIndices(at.value);
  const cells: Partial<Record<(typeof COMPARE_CSV_COLUMNS)[number], string | number | null>> = {
    [column]: at?.line ?? null,
    task_index: indices?.task ?? null,
    rollout_index: indices?.rollout ?? null,
    verdict: `unpaired in ${side}`,
    policy,
  };
  return COMPARE_CSV_COLUMNS.map((name) => cells[name] ?? null);
}

export function compareCsv(report: CompareReport, lines: CompareLines): string {
  let out = csvLine(COMPARE_CSV_COLUMNS);
  const { policy } = report;
  for (const pair of report.pairs) out += csvLine(pairCells(pair, lines, policy));
  for (const position of report.unpaired_a) out += csvLine(unpairedCells("a", lines.a[position], policy));
  for (const position of report.unpaired_b) out += csvLine(unpairedCells("b", lines.b[position], policy));
  return out;
}
