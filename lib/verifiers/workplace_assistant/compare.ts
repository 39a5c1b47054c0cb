/**
 * is_correct's comparison (utils.py): each compared table goes through `convert_strs_to_lowercase`
 * (`df[col] = df[col].str.lower()` for every column but status, list_name and board), then
 * `DataFrame.equals`.
 *
 * pandas facts reproduced here (pandas 2.3):
 * - `.str.lower()` maps strings to lower case, keeps None/NaN, and turns every other value (an int duration,
 *   a list) into NaN. When the result holds no string but some value was not missing, pandas re-infers
 *   the column as float64; `.equals` then sees a dtype change from an object column of NaN.
 * - `.str` refuses a column whose non-missing values are all numbers or all booleans (AttributeError), so
 *   Gym's is_correct raises instead of answering.
 * - `.equals` needs equal index labels (in order), equal dtypes and equal cells, with NaN equal to NaN and
 *   to None in object columns; unlowered cells compare with Python `==`.
 */
import { pyLower } from "../pyunicode";
import type { Cell, Frame, Row } from "./frame";
import { isDict, isNa, pyEq } from "./py";
import type { WorkplaceState } from "./tools";
import type { WriteLog } from "./writes";

/** Columns whose case matters (utils.py `fields_not_to_convert`). */
export const CASE_SENSITIVE_COLUMNS: ReadonlySet<string> = new Set(["status", "list_name", "board"]);

export type TableName = "calendar_events" | "emails" | "plots_data" | "project_tasks" | "crm_data";

/** The compared tables in Gym's order, with the column used to pair rows in explanations. */
export const COMPARED_TABLES: readonly {
  readonly name: TableName;
  readonly gymAttribute: string;
  readonly key: string;
  readonly get: (state: WorkplaceState) => Frame;
}[] = [
  {
    name: "calendar_events",
    gymAttribute: "calendar._calendar_events",
    key: "event_id",
    get: (s) => s.calendar,
  },
  { name: "emails", gymAttribute: "email._emails", key: "email_id", get: (s) => s.emails },
  { name: "plots_data", gymAttribute: "analytics._plots_data", key: "file_path", get: (s) => s.plots },
  {
    name: "project_tasks",
    gymAttribute: "project_management._project_tasks",
    key: "task_id",
    get: (s) => s.projectTasks,
  },
  {
    name: "crm_data",
    gymAttribute: "customer_relationship_manager._crm_data",
    key: "customer_id",
    get: (s) => s.crm,
  },
];

/** A cell as JSON can carry it: missing values (NaN, None) are null. */
export type DisplayCell =
  | string
  | number
  | boolean
  | null
  | readonly unknown[]
  | Readonly<Record<string, unknown>>;

export interface RowView {
  readonly label: number;
  /** The stored values, before lower-casing. */
  readonly values: Readonly<Record<string, DisplayCell>>;
  /**
   * A row only in the predicted state: the predicted call that added it (or last wrote it). A row only in
   * the expected state: the predicted call that removed it. null: no predicted call did ("never written").
   * Absent when the predicted replay was not tracked.
   */
  readonly writtenBy?: number | null;
  readonly removedBy?: number | null;
  /**
   * A row only in the expected state: the ground-truth action that added it (null: a base row). A row only
   * in the predicted state: the ground-truth action that removed it (null: none did).
   */
  readonly expectedBy?: number | null;
}

export interface CellDiff {
  /** The predicted row's index label. */
  readonly rowLabel: number;
  /** The row's key (event_id, email_id, file_path, task_id or customer_id) after lower-casing. */
  readonly rowKey: DisplayCell;
  readonly column: string;
  /** The compared values, after lower-casing (null: missing). */
  readonly predicted: DisplayCell;
  readonly expected: DisplayCell;
  /** The predicted call whose write produced the predicted value; null: never written (the base value). */
  readonly writtenBy?: number | null;
  /** The ground-truth action whose write produced the expected value; null: the base value. */
  readonly expectedBy?: number | null;
}

export interface TableDiff {
  readonly table: TableName;
  readonly equal: boolean;
  readonly onlyPredicted: readonly RowView[];
  readonly onlyExpected: readonly RowView[];
  readonly differingCells: readonly CellDiff[];
  /** Index-label, row-order and dtype differences, which `.equals` also checks. */
  readonly notes: readonly string[];
}

type LoweredDtype = "object" | "float64";

/** Thrown where Gym's is_correct itself raises, so Gym gives no reward at all. */
export class GymCompareError extends Error {}

/** `cell` after `.str.lower()`: a string, or null for NaN. */
function lowered(cell: Cell): string | null {
  return typeof cell === "string" ? pyLower(cell) : null;
}

function columnDtype(frame: Frame, c: number, table: TableName, column: string): LoweredDtype {
  let nonMissing = 0;
  let numbers = 0;
  let bools = 0;
  for (const row of frame.rows) {
    const cell = row[c];
    if (typeof cell === "string") return "object";
    if (isNa(cell)) continue;
    nonMissing++;
    if (typeof cell === "number" || typeof cell === "bigint") numbers++;
    else if (typeof cell === "boolean") bools++;
  }
  if (nonMissing === 0) return "object";
  if (numbers === nonMissing || bools === nonMissing) {
    throw new GymCompareError(
      `Gym's is_correct raises AttributeError ("Can only use .str accessor with string values!") on ` +
        `${table}.${column}, which holds no string, so Gym's verify fails instead of scoring.`,
    );
  }
  return "float64";
}

function loweredCellsEqual(a: Cell, b: Cell): boolean {
  if (typeof a === "string" && typeof b === "string") return a === b || pyLower(a) === pyLower(b);
  return lowered(a) === lowered(b);
}

function rawCellsEqual(a: Cell, b: Cell): boolean {
  if (isNa(a) && isNa(b)) return true;
  return pyEq(a, b);
}

function rowsEqual(a: Row, b: Row, caseSensitive: readonly boolean[]): boolean {
  if (a === b) return true;
  for (let c = 0; c < caseSensitive.length; c++) {
    const equal = caseSensitive[c] ? rawCellsEqual(a[c], b[c]) : loweredCellsEqual(a[c], b[c]);
    if (!equal) return false;
  }
  return true;
}

function labelsEqual(a: Frame, b: Frame): boolean {
  if (a.hasRangeIndex && b.hasRangeIndex) return true;
  for (let i = 0; i < a.length; i++) if (a.label(i) !== b.label(i)) return false;
  return true;
}

function dtypes(frame: Frame, table: TableName): LoweredDtype[] {
  return frame.columns.map((column, c) =>
    CASE_SENSITIVE_COLUMNS.has(column) ? "object" : columnDtype(frame, c, table, column),
  );
}

/** `convert_strs_to_lowercase(a).equals(convert_strs_to_lowercase(b))`. May throw GymCompareError. */
export function framesEqual(a: Frame, b: Frame, table: TableName): boolean {
  const typesA = dtypes(a, table);
  const typesB = dtypes(b, table);
  if (a.length !== b.length) return false;
  if (!labelsEqual(a, b)) return false;
  if (typesA.some((t, i) => t !== typesB[i])) return false;
  const caseSensitive = a.columns.map((c) => CASE_SENSITIVE_COLUMNS.has(c));
  for (let i = 0; i < a.length; i++) if (!rowsEqual(a.rows[i]!, b.rows[i]!, caseSensitive)) return false;
  return true;
}

function display(cell: Cell): DisplayCell {
  if (cell === undefined || isNa(cell)) return null;
  if (typeof cell === "string" || typeof cell === "number" || typeof cell === "boolean") return cell;
  if (typeof cell === "bigint") return Number.isSafeInteger(Number(cell)) ? Number(cell) : cell.toString();
  if (Array.isArray(cell)) return cell.map(display);
  if (isDict(cell)) return Object.fromEntries([...cell].map(([k, v]) => [k, display(v)]));
  return String(cell);
}

function comparedValue(cell: Cell, caseSensitive: boolean): DisplayCell {
  return caseSensitive ? display(cell) : lowered(cell);
}

function rowView(frame: Frame, pos: number): RowView {
  const row = frame.rows[pos]!;
  const values: Record<string, DisplayCell> = {};
  frame.columns.forEach((column, c) => {
    values[column] = display(row[c]);
  });
  return { label: frame.label(pos), values };
}

function keyOf(row: Row, keyColumn: number): string {
  const key = lowered(row[keyColumn]);
  return key === null ? `\u0000${JSON.stringify(display(row[keyColumn]))}` : key;
}

/**
 * Explains why two frames differ (call it for frames `framesEqual` found unequal). Rows are paired first by
 * identity (an untouched row is the same object on both sides), then by key, nth occurrence with nth.
 */
export function diffFrames(
  predicted: Frame,
  expected: Frame,
  table: TableName,
  keyColumnName: string,
  /** The replays' write logs: fill writtenBy / removedBy (predicted) and expectedBy (ground truth). */
  logs?: { readonly predicted: WriteLog; readonly expected: WriteLog },
): TableDiff {
  const log = logs?.predicted;
  const expectedLog = logs?.expected;
  const notes: string[] = [];
  const keyColumn = predicted.columnIndex(keyColumnName);
  const caseSensitive = predicted.columns.map((c) => CASE_SENSITIVE_COLUMNS.has(c));

  // Untouched rows are the same objects on both sides: pair the common prefix and suffix by identity,
  // then the rest of the middle by identity through a map, so only real differences cost more.
  // partner[p] is the expected position paired with predicted position p, or -1.
  const partner = new Int32Array(predicted.length).fill(-1);
  const pairedExpected = new Uint8Array(expected.length);
  let head = 0;
  while (head < predicted.length && head < expected.length && predicted.rows[head] === expected.rows[head]) {
    partner[head] = head;
    pairedExpected[head] = 1;
    head++;
  }
  let tailP = predicted.length;
  let tailE = expected.length;
  while (tailP > head && tailE > head && predicted.rows[tailP - 1] === expected.rows[tailE - 1]) {
    tailP--;
    tailE--;
    partner[tailP] = tailE;
    pairedExpected[tailE] = 1;
  }
  const expectedPosition = new Map<Row, number>();
  for (let pos = head; pos < tailE; pos++) expectedPosition.set(expected.rows[pos]!, pos);
  const unpairedPredicted: number[] = [];
  for (let pos = head; pos < tailP; pos++) {
    const match = expectedPosition.get(predicted.rows[pos]!);
    if (match === undefined || pairedExpected[match] === 1) {
      unpairedPredicted.push(pos);
    } else {
      partner[pos] = match;
      pairedExpected[match] = 1;
    }
  }

  const expectedByKey = new Map<string, number[]>();
  for (let pos = 0; pos < expected.length; pos++) {
    if (pairedExpected[pos] === 1) continue;
    const key = keyOf(expected.rows[pos]!, keyColumn);
    const list = expectedByKey.get(key);
    if (list) list.push(pos);
    else expectedByKey.set(key, [pos]);
  }
  const onlyPredicted: RowView[] = [];
  const differingCells: CellDiff[] = [];
  for (const pos of unpairedPredicted) {
    const row = predicted.rows[pos]!;
    const match = expectedByKey.get(keyOf(row, keyColumn))?.shift();
    if (match === undefined) {
      const view = rowView(predicted, pos);
      const key = keyOf(row, keyColumn);
      const removedInExpected =
        expectedLog?.removerOf(table, row, (r) => keyOf(r, keyColumn) === key) ?? null;
      onlyPredicted.push(
        log ? { ...view, writtenBy: log.rowWriter(row), expectedBy: removedInExpected } : view,
      );
      continue;
    }
    partner[pos] = match;
    const other = expected.rows[match]!;
    predicted.columns.forEach((column, c) => {
      const same = caseSensitive[c] ? rawCellsEqual(row[c], other[c]) : loweredCellsEqual(row[c], other[c]);
      if (!same) {
        differingCells.push({
          rowLabel: predicted.label(pos),
          rowKey: lowered(row[keyColumn]) ?? display(row[keyColumn]),
          column,
          predicted: comparedValue(row[c], caseSensitive[c]!),
          expected: comparedValue(other[c], caseSensitive[c]!),
          ...(log ? { writtenBy: log.writerOf(row, c) } : {}),
          ...(expectedLog ? { expectedBy: expectedLog.writerOf(other, c) } : {}),
        });
      }
    });
  }
  const onlyExpected: RowView[] = [];
  for (const positions of expectedByKey.values())
    for (const pos of positions) {
      const view = rowView(expected, pos);
      if (!log) {
        onlyExpected.push(view);
        continue;
      }
      const row = expected.rows[pos]!;
      const key = keyOf(row, keyColumn);
      const removedBy = log.removerOf(table, row, (removed) => keyOf(removed, keyColumn) === key);
      onlyExpected.push({ ...view, removedBy, expectedBy: expectedLog?.rowWriter(row) ?? null });
    }
  onlyExpected.sort((x, y) => x.label - y.label);

  addStructureNotes(predicted, expected, table, partner, notes);
  return { table, equal: false, onlyPredicted, onlyExpected, differingCells, notes };
}

function addStructureNotes(
  predicted: Frame,
  expected: Frame,
  table: TableName,
  partner: Int32Array,
  notes: string[],
): void {
  if (predicted.length !== expected.length) {
    notes.push(
      `${table} has ${predicted.length} rows in the predicted state and ${expected.length} in the expected.`,
    );
  }
  let outOfOrder = false;
  let lastExpected = -1;
  let relabelled = 0;
  let firstRelabelled = -1;
  for (let p = 0; p < partner.length; p++) {
    const e = partner[p]!;
    if (e < 0) continue;
    if (e < lastExpected) outOfOrder = true;
    lastExpected = e;
    if (predicted.label(p) !== expected.label(e)) {
      relabelled++;
      if (firstRelabelled < 0) firstRelabelled = p;
    }
  }
  if (outOfOrder) {
    notes.push(`${table}: the same rows appear in a different order (DataFrame.equals compares order).`);
  }
  if (relabelled > 0) {
    notes.push(
      `${table}: ${relabelled} matching row(s) carry different pandas index labels (first: predicted label ` +
        `${predicted.label(firstRelabelled)}, expected label ${expected.label(partner[firstRelabelled]!)}). ` +
        `Deletes leave gaps, appends with ignore_index renumber, and calendar inserts add a duplicate label 0, ` +
        `so the order of calls matters.`,
    );
  } else if (predicted.length === expected.length && !labelsEqual(predicted, expected)) {
    notes.push(`${table}: the index labels differ (DataFrame.equals compares them).`);
  }
  try {
    const a = dtypes(predicted, table);
    const b = dtypes(expected, table);
    predicted.columns.forEach((column, c) => {
      if (a[c] !== b[c]) {
        notes.push(
          `${table}.${column} is ${a[c]} in the predicted state and ${b[c]} in the expected one after lower-casing ` +
            `(a column with no string left becomes float64 NaN), so DataFrame.equals fails.`,
        );
      }
    });
  } catch (error) {
    if (!(error instanceof GymCompareError)) throw error;
  }
}
