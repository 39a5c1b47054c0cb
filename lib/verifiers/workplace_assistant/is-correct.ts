/**
 * The equivalent of Gym's `is_correct(predicted, ground_truth, None)` (utils.py): replay both action lists
 * on fresh tables and compare the five mutable tables after lower-casing. Adds an explanation of a mismatch.
 */
import { COMPARED_TABLES, diffFrames, framesEqual, GymCompareError, type TableDiff } from "./compare";
import { fromJs, isDict, pyTypeName } from "./py";
import { type CallRecord, replay } from "./replay";

export interface WorkplaceDetails {
  /** One entry per compared table, in Gym's order; diffs are filled only for unequal tables. */
  readonly tables: readonly TableDiff[];
  /** What each predicted call did. */
  readonly calls: readonly CallRecord[];
  /** What each ground-truth action did (a string ground truth gives one error per character). */
  readonly groundTruthCalls: readonly CallRecord[];
  /** Set when Gym's is_correct itself would raise, so Gym produces no reward. */
  readonly gymError?: string;
}

export interface IsCorrectResult {
  readonly correct: boolean;
  /** Sentences, most important first. A false result always has at least one. */
  readonly explanation: readonly string[];
  readonly details: WorkplaceDetails;
}

/** How many examples of one kind an explanation sentence quotes. */
const EXAMPLES_PER_SENTENCE = 3;
/**
 * Call numbers one sentence lists for a skipped name before "and N more": every call of an aliased
 * 100k-call trajectory shares a name, and listing them all made one sentence of half a megabyte.
 */
const CALLS_PER_SENTENCE = 10;

export function isCorrect(
  predicted: readonly { readonly name: string; readonly arguments: string }[],
  groundTruth: unknown,
): IsCorrectResult {
  return isCorrectActions(predicted, groundTruth);
}

/** Like isCorrect, over actions of any shape (Python subscripting errors skip malformed ones). */
export function isCorrectActions(
  predicted: readonly unknown[],
  groundTruth: unknown,
  /** Whether a predicted call's provenance is recorded but was not followed (the alias hints' advice). */
  recorded?: (index: number) => boolean,
): IsCorrectResult {
  // The predicted replay is tracked, so each cell of a difference names the call that wrote it.
  const predictedRun = replay(predicted, { track: true, ...(recorded ? { recorded } : {}) });
  const expectedRun = replay(groundTruthActions(groundTruth), { track: true });

  // Iterating a number, bool or None raises TypeError in Python before any action runs.
  let gymError: string | undefined = iterable(groundTruth)
    ? undefined
    : `Gym's is_correct raises TypeError ('${pyTypeName(fromJs(groundTruth))}' object is not iterable) on this ground_truth, so Gym's verify fails instead of scoring.`;
  const equalities: boolean[] = [];
  const compareErrors = new Map<number, string>();
  COMPARED_TABLES.forEach((table, i) => {
    try {
      // Every table is lower-cased before any comparison, so an error anywhere aborts Gym's is_correct.
      equalities.push(framesEqual(table.get(predictedRun.state), table.get(expectedRun.state), table.name));
    } catch (error) {
      if (!(error instanceof GymCompareError)) throw error;
      gymError ??= error.message;
      compareErrors.set(i, error.message);
      equalities.push(false);
    }
  });
  const correct = gymError === undefined && equalities.every(Boolean);

  const tables: TableDiff[] = COMPARED_TABLES.map((table, i) =>
    equalities[i]
      ? { table: table.name, equal: true, onlyPredicted: [], onlyExpected: [], differingCells: [], notes: [] }
      : diffFrames(
          table.get(predictedRun.state),
          table.get(expectedRun.state),
          table.name,
          table.key,
          predictedRun.log && expectedRun.log
            ? { predicted: predictedRun.log, expected: expectedRun.log }
            : undefined,
        ),
  );
  for (const [i, message] of compareErrors)
    tables[i] = { ...tables[i]!, notes: [message, ...tables[i]!.notes] };
  const details: WorkplaceDetails = {
    tables,
    calls: predictedRun.calls,
    groundTruthCalls: expectedRun.calls,
    ...(gymError === undefined ? {} : { gymError }),
  };
  return { correct, explanation: explain(correct, details), details };
}

function iterable(value: unknown): boolean {
  return typeof value === "string" || Array.isArray(value) || isDict(fromJs(value));
}

/** `for action in ground_truth`: a string yields characters, a dict its keys. */
function groundTruthActions(groundTruth: unknown): readonly unknown[] | string {
  if (typeof groundTruth === "string" || Array.isArray(groundTruth)) return groundTruth;
  if (typeof groundTruth === "object" && groundTruth !== null) return Object.keys(groundTruth);
  return [];
}

function explain(correct: boolean, details: WorkplaceDetails): string[] {
  const out: string[] = [];
  if (details.gymError) out.push(details.gymError);
  const unequal = details.tables.filter((t) => !t.equal);
  if (correct) {
    out.push(
      `All 5 compared tables match the expected state after replaying ${details.calls.length} predicted call(s).`,
    );
  } else if (unequal.length > 0) {
    out.push(
      `The predicted state differs from the expected state in: ${unequal.map((t) => t.table).join(", ")}.`,
    );
  }
  // The calls that did not run usually explain the differences, so they come before the table details.
  out.push(...explainCalls(details.calls, "Predicted call"));
  for (const table of unequal) out.push(...explainTable(table));
  const gtProblems = details.groundTruthCalls.filter(
    (c) => c.outcome === "error" || c.outcome === "unknown_name",
  );
  if (gtProblems.length > 0) {
    out.push(
      `${gtProblems.length} ground-truth action(s) raised in Gym and were skipped too (e.g. #${gtProblems[0]!.index}: ` +
        `${gtProblems[0]!.message}).`,
    );
  }
  return out;
}

function explainTable(table: TableDiff): string[] {
  const parts: string[] = [];
  if (table.onlyPredicted.length > 0) {
    parts.push(
      `${table.onlyPredicted.length} row(s) only in the predicted state (${rowsText(table.onlyPredicted)})`,
    );
  }
  if (table.onlyExpected.length > 0) {
    parts.push(
      `${table.onlyExpected.length} row(s) only in the expected state (${rowsText(table.onlyExpected)})`,
    );
  }
  if (table.differingCells.length > 0) {
    const examples = table.differingCells
      .slice(0, EXAMPLES_PER_SENTENCE)
      .map(
        (d) =>
          `${String(d.rowKey)}.${d.column}: predicted ${JSON.stringify(d.predicted)}, expected ${JSON.stringify(d.expected)}`,
      );
    parts.push(
      `${table.differingCells.length} differing cell(s) (${examples.join("; ")}${more(table.differingCells.length)})`,
    );
  }
  const out = parts.length > 0 ? [`${table.table}: ${parts.join("; ")}.`] : [];
  out.push(...table.notes);
  if (out.length === 0) out.push(`${table.table}: the tables differ.`);
  return out;
}

function rowsText(rows: readonly { label: number; values: Readonly<Record<string, unknown>> }[]): string {
  const shown = rows
    .slice(0, EXAMPLES_PER_SENTENCE)
    .map((r) => `label ${r.label}: ${JSON.stringify(r.values)}`);
  return shown.join("; ") + more(rows.length);
}

function more(count: number): string {
  return count > EXAMPLES_PER_SENTENCE ? `; and ${count - EXAMPLES_PER_SENTENCE} more` : "";
}

function explainCalls(calls: readonly CallRecord[], what: string): string[] {
  const out: string[] = [];
  // Unknown names usually repeat (every call of an aliased trajectory): one sentence per distinct name.
  const unknownByName = new Map<string, CallRecord[]>();
  for (const call of calls) {
    if (call.outcome !== "unknown_name") continue;
    const group = unknownByName.get(call.name);
    if (group) group.push(call);
    else unknownByName.set(call.name, [call]);
  }
  for (const [name, group] of unknownByName) {
    const listed = group.slice(0, CALLS_PER_SENTENCE).map((c) => `#${c.index}`);
    const rest = group.length - listed.length;
    const which =
      group.length === 1
        ? `${what} #${group[0]!.index}`
        : `${what}s ${listed.join(", ")}${rest > 0 ? ` and ${rest} more` : ""}`;
    out.push(
      `${which} (${name || "no name"}): not a workplace_assistant tool, so Gym skipped ${group.length === 1 ? "it" : "them"} ` +
        `(${group[0]!.message}).${group[0]!.aliasHint ? ` ${group[0]!.aliasHint.message}` : ""}`,
    );
  }
  for (const call of calls) {
    const label = `${what} #${call.index} (${call.name || "no name"})`;
    if (call.outcome === "error") {
      out.push(`${label} raised and was skipped: ${call.message}.`);
    } else if (call.outcome === "refused" && call.mutates) {
      out.push(`${label} was refused by the tool and changed nothing: ${call.message}`);
    }
  }
  return out;
}
