/**
 * A minimal pandas DataFrame: ordered columns, rows of cells, and index labels. It keeps what
 * `DataFrame.equals` compares (labels, values, and which cells are missing) and nothing else.
 *
 * Replays start from shared base frames, so `fork()` is O(1): a fork shares the row array and its rows
 * until it writes (copy on write). Rows are immutable once shared; a write replaces the row.
 */

import {
  foldObjectMax,
  OBJECT_MAX_START,
  type ObjectMaxFold,
  objectMaxValue,
  PyException,
  pandasObjectMax,
} from "./py";
import type { TrackedTable, WriteLog } from "./writes";

export type Cell = unknown;
export type Row = readonly Cell[];

/** The smallest int magnitude float() refuses: 2**1024 - 2**970 rounds to 2**1024, past the largest double. */
const FLOAT_OVERFLOW_INT = 2n ** 1024n - 2n ** 970n;

/**
 * The row of a one-row `pd.DataFrame` built from the call's values (a dict of one-element lists, or a list of
 * one dict), as the tools build a new row before `pd.concat`: pandas infers each column with
 * lib.maybe_convert_objects, which also tries an int as a float and raises OverflowError where float() would.
 */
export function newRow(cells: readonly Cell[]): Row {
  for (const cell of cells) {
    if (typeof cell === "bigint" && (cell >= FLOAT_OVERFLOW_INT || -cell >= FLOAT_OVERFLOW_INT)) {
      throw new PyException("OverflowError", "int too large to convert to float");
    }
  }
  return Object.freeze([...cells]);
}

/** Column maxima of shared (hence immutable) row arrays. */
const maxMemo = new WeakMap<readonly Row[], Map<number, unknown>>();

export class Frame {
  private rowsOwned: boolean;
  private labelsOwned: boolean;
  /**
   * objectMax's fold per column over this frame's own rows, resumed after appends: an id is the column's
   * max + 1, so a replay that creates 30k rows would otherwise rescan the table 30k times (quadratic).
   * Valid while `rowList` is the same array and no row was replaced (`rewrites` unchanged).
   */
  private readonly maxFolds = new Map<
    number,
    { rows: Row[]; rewrites: number; count: number; fold: ObjectMaxFold }
  >();
  private rewrites = 0;
  /** Where this frame reports its writes (a predicted replay's compared tables), if anywhere. */
  private tracking: { readonly log: WriteLog; readonly table: TrackedTable } | null = null;

  private constructor(
    readonly columns: readonly string[],
    private rowList: Row[],
    /** null means a RangeIndex 0..n-1, which needs no storage. */
    private labelList: number[] | null,
  ) {
    this.rowsOwned = true;
    this.labelsOwned = true;
  }

  static fromRows(columns: readonly string[], rows: Row[]): Frame {
    return new Frame(columns, rows, null);
  }

  /** A copy whose writes do not reach this frame (and vice versa). */
  fork(): Frame {
    const copy = new Frame(this.columns, this.rowList, this.labelList);
    copy.rowsOwned = false;
    copy.labelsOwned = false;
    // This frame must also stop writing in place now that the arrays are shared.
    this.rowsOwned = false;
    this.labelsOwned = false;
    return copy;
  }

  /** Reports every later write of this frame (not of its forks) to `log` under the table's name. */
  track(log: WriteLog, name: string, keyColumn: string): void {
    this.tracking = { log, table: { name, keyColumn: this.columnIndex(keyColumn) } };
  }

  get length(): number {
    return this.rowList.length;
  }

  get rows(): readonly Row[] {
    return this.rowList;
  }

  /** The index labels (materialized for a RangeIndex). */
  get labels(): readonly number[] {
    return this.labelList ?? Array.from({ length: this.rowList.length }, (_, i) => i);
  }

  get hasRangeIndex(): boolean {
    return this.labelList === null;
  }

  label(i: number): number {
    return this.labelList === null ? i : this.labelList[i]!;
  }

  columnIndex(name: string): number {
    return this.columns.indexOf(name);
  }

  /** Whether some cell of column `name` satisfies `test` (no allocation). */
  someInColumn(name: string, test: (cell: Cell) => boolean): boolean {
    const c = this.columnIndex(name);
    for (const row of this.rowList) if (test(row[c])) return true;
    return false;
  }

  /**
   * pandas `df[name].max()` on an object column. Memoized while the row array is shared: a shared array is
   * never written again (writers copy first), so the value stays valid for every replay starting from it.
   */
  objectMax(name: string): unknown {
    const c = this.columnIndex(name);
    if (this.rowsOwned) {
      const memo = this.maxFolds.get(c);
      const resume = memo !== undefined && memo.rows === this.rowList && memo.rewrites === this.rewrites;
      const fold = foldObjectMax(
        resume ? memo.fold : OBJECT_MAX_START,
        this.rowList,
        resume ? memo.count : 0,
        c,
      );
      this.maxFolds.set(c, { rows: this.rowList, rewrites: this.rewrites, count: this.rowList.length, fold });
      return objectMaxValue(fold);
    }
    let perColumn = maxMemo.get(this.rowList);
    if (!perColumn) {
      perColumn = new Map();
      maxMemo.set(this.rowList, perColumn);
    }
    if (!perColumn.has(c)) perColumn.set(c, pandasObjectMax(this.rowList, c));
    return perColumn.get(c);
  }

  column(name: string): Cell[] {
    const c = this.columnIndex(name);
    return this.rowList.map((row) => row[c]);
  }

  /** `df[mask]`: keeps the surviving rows' labels (deletes leave gaps). */
  filter(keep: (row: Row, position: number) => boolean): void {
    const rows: Row[] = [];
    const labels: number[] = [];
    this.rowList.forEach((row, i) => {
      if (keep(row, i)) {
        rows.push(row);
        labels.push(this.label(i));
      }
    });
    if (rows.length === this.rowList.length) return;
    if (this.tracking) {
      const { log, table } = this.tracking;
      const kept = new Set(rows);
      for (const row of this.rowList) if (!kept.has(row)) log.removed(table, row);
    }
    this.rowList = rows;
    this.labelList = labels;
    this.rowsOwned = true;
    this.labelsOwned = true;
  }

  /**
   * Appends one row. `ignore_index` is `pd.concat(..., ignore_index=True)` (labels renumbered 0..n-1);
   * `keep_index` is `pd.concat` without it (the new one-row frame brings its own label 0);
   * a number is `df.loc[label] = row` (setting with enlargement).
   */
  append(row: Row, labelling: "ignore_index" | "keep_index" | number): void {
    this.ownRows();
    const newLabel = labelling === "ignore_index" ? undefined : labelling === "keep_index" ? 0 : labelling;
    if (newLabel === undefined || (this.labelList === null && newLabel === this.rowList.length)) {
      if (newLabel === undefined) this.labelList = null;
    } else {
      this.ownLabels();
      this.labelList!.push(newLabel);
    }
    this.rowList.push(row);
    this.tracking?.log.added(this.tracking.table, row);
  }

  /** `df.loc[mask, column] = value` for the rows at `positions`. */
  setCells(positions: readonly number[], columnIndex: number, values: readonly Cell[]): void {
    this.ownRows();
    this.rewrites++;
    positions.forEach((pos, k) => {
      const previous = this.rowList[pos]!;
      const row = previous.slice();
      row[columnIndex] = values[k];
      this.rowList[pos] = row;
      this.tracking?.log.updated(this.tracking.table, previous, row, columnIndex);
    });
  }

  private ownRows(): void {
    if (!this.rowsOwned) {
      this.rowList = this.rowList.slice();
      this.rowsOwned = true;
    }
  }

  private ownLabels(): void {
    if (this.labelList === null) {
      this.labelList = Array.from({ length: this.rowList.length }, (_, i) => i);
      this.labelsOwned = true;
    } else if (!this.labelsOwned) {
      this.labelList = this.labelList.slice();
      this.labelsOwned = true;
    }
  }
}
