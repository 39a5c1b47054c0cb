import type { Cell, Frame, Row } from "../frame";
import {
  isDict,
  isNa,
  PyException,
  pyArith,
  pyEq,
  pyGreater,
  pyLess,
  pyMax,
  pyMin,
  pySlice,
  pyStr,
  truthy,
} from "../py";

/** The tables one replay works on. Compared: emails, calendar, plots, projectTasks, crm. */
export interface WorkplaceState {
  emails: Frame;
  calendar: Frame;
  plots: Frame;
  projectTasks: Frame;
  crm: Frame;
  /** Read-only tables (not compared). */
  readonly analytics: Frame;
  readonly directory: readonly string[];
}

/**
 * What a tool call did. Gym's tools answer a bad request with an explanatory string and change nothing
 * ("refused"); a Python exception (thrown as PyException) skips the call.
 */
export type ToolOutcome =
  | { readonly kind: "applied"; readonly result: unknown }
  | { readonly kind: "refused"; readonly message: string };

export interface ToolDef {
  readonly name: string;
  /** Python class and method, for TypeError messages like Gym prints them. */
  readonly qualname: string;
  /** Parameters in signature order with their Python defaults (all are keyword-or-positional). */
  readonly params: readonly (readonly [string, Cell])[];
  /** Whether it can change a compared table. */
  readonly mutates: boolean;
  run(state: WorkplaceState, args: ReadonlyMap<string, unknown>): ToolOutcome;
}

export function applied(result: unknown): ToolOutcome {
  return { kind: "applied", result };
}

export function refused(message: string): ToolOutcome {
  return { kind: "refused", message };
}

/** Runs `body` the way `try: ... except Exception as e: return f"{prefix}: {e}"` does. */
export function guarded(prefix: string, body: () => ToolOutcome): ToolOutcome {
  try {
    return body();
  } catch (error) {
    if (error instanceof PyException) return refused(`${prefix}: ${error.message}`);
    throw error;
  }
}

export function arg(args: ReadonlyMap<string, unknown>, name: string): unknown {
  return args.get(name);
}

/** `not a or not b ...` */
export function anyFalsy(...values: readonly unknown[]): boolean {
  return values.some((v) => !truthy(v));
}

/**
 * `value in series.values`: numpy compares elementwise. A list operand is an array to numpy: one element
 * broadcasts, as many elements as rows compare position by position, any other length cannot broadcast
 * (ValueError since numpy 1.25).
 */
export function inValues(value: unknown, frame: Frame, column: string): boolean {
  const c = frame.columnIndex(column);
  if (Array.isArray(value)) {
    let items: readonly unknown[] = value;
    while (items.length === 1 && Array.isArray(items[0])) items = items[0];
    if (items.length === 1) return frame.someInColumn(column, (cell) => pyEq(cell, items[0]));
    if (items.length !== frame.length) {
      throw new PyException(
        "ValueError",
        `operands could not be broadcast together with shapes (${frame.length},) (${items.length},)`,
      );
    }
    return frame.rows.some((row, i) => pyEq(row[c], items[i]));
  }
  if (typeof value === "string") return frame.someInColumn(column, (cell) => cell === value);
  return frame.someInColumn(column, (cell) => pyEq(cell, value));
}

/**
 * `series == value` as a boolean per row. pandas compares a list operand position by position and refuses
 * one of another length.
 */
function seriesEquals(frame: Frame, column: string, value: unknown): (row: Row, i: number) => boolean {
  const c = frame.columnIndex(column);
  if (Array.isArray(value)) {
    if (value.length !== frame.length) {
      throw new PyException(
        "ValueError",
        `('Lengths must match to compare', (${frame.length},), (${value.length},))`,
      );
    }
    return (row, i) => pyEq(row[c], value[i]);
  }
  if (typeof value === "string") return (row) => row[c] === value;
  return (row) => pyEq(row[c], value);
}

/** Positions of the rows whose `column` equals `value` (`df[column] == value`). */
export function matchingPositions(frame: Frame, column: string, value: unknown): number[] {
  const equal = seriesEquals(frame, column, value);
  const out: number[] = [];
  frame.rows.forEach((row, i) => {
    if (equal(row, i)) out.push(i);
  });
  return out;
}

/** `df = df[df[column] != value]` */
export function deleteWhere(frame: Frame, column: string, value: unknown): void {
  const equal = seriesEquals(frame, column, value);
  frame.filter((row, i) => !equal(row, i));
}

/**
 * `df.loc[df[idColumn] == id, field] = value`. A list value is unpacked over the matched rows (and must
 * match their count, else pandas raises ValueError); a dict is aligned on the index labels, which are
 * integers and never match its string keys, so the cells become NaN.
 */
export function locSet(frame: Frame, idColumn: string, id: unknown, field: string, value: unknown): void {
  const positions = matchingPositions(frame, idColumn, id);
  const c = frame.columnIndex(field);
  if (Array.isArray(value)) {
    if (value.length !== positions.length) {
      throw new PyException(
        "ValueError",
        `could not broadcast input array from shape (${value.length},) into shape (${positions.length},)`,
      );
    }
    frame.setCells(positions, c, value);
    return;
  }
  const cell = isDict(value) ? Number.NaN : value;
  frame.setCells(
    positions,
    c,
    positions.map(() => cell),
  );
}

/**
 * The first matching row as a record (`df[df[col] == v].to_dict(orient="records")[0]`). pandas compares
 * every row, but the comparison never raises (pyEq), so stopping at the first match gives the same record
 * without a scan of the whole table per call.
 */
export function firstRecord(frame: Frame, column: string, value: unknown): Record<string, Cell> | undefined {
  const equal = seriesEquals(frame, column, value);
  const pos = frame.rows.findIndex((row, i) => equal(row, i));
  if (pos === -1) return undefined;
  return recordOf(frame, pos);
}

export function recordOf(frame: Frame, pos: number): Record<string, Cell> {
  const row = frame.rows[pos]!;
  const record: Record<string, Cell> = {};
  frame.columns.forEach((name, i) => {
    record[name] = row[i];
  });
  return record;
}

/** `f"..."` interpolation of a cell. */
export function fmt(value: unknown): string {
  return pyStr(value);
}

/**
 * Pagination arithmetic shared by the search tools, in Python's order and types:
 *   total_pages = (total + page_size - 1) // page_size
 *   page = max(1, min(page, total_pages)) if total_pages > 0 else 1
 *   start = (page - 1) * page_size; end = min(start + page_size, total)
 * Bad types raise TypeError, a zero page size ZeroDivisionError; `slice` is `items[start:end]`, which Gym
 * only evaluates when there are results (float indices raise there, not before).
 */
export function paginate<T>(
  items: readonly T[],
  page: unknown,
  pageSize: unknown,
): {
  readonly slice: () => T[];
  readonly page: unknown;
  readonly pageSize: unknown;
  readonly totalPages: unknown;
} {
  const total = BigInt(items.length);
  const totalPages = pyArith("//", pyArith("-", pyArith("+", total, pageSize), 1n), pageSize);
  const p = pyGreater(totalPages, 0n) ? pyMax(1n, pyMin(page, totalPages)) : 1n;
  const start = pyArith("*", pyArith("-", p, 1n), pageSize);
  const end = pyMin(pyArith("+", start, pageSize), total);
  return { slice: () => pySlice(items, start, end), page: p, pageSize, totalPages };
}

/** `re.search(pattern, text, re.IGNORECASE)` as `str.contains(pattern, case=False)` uses it. */
export function regexContains(pattern: unknown): (cell: Cell) => boolean {
  if (typeof pattern !== "string") {
    throw new PyException("TypeError", `first argument must be string or compiled pattern`);
  }
  let re: RegExp;
  try {
    re = new RegExp(pattern, "iu");
  } catch (error) {
    throw new PyException("re.error", error instanceof Error ? error.message : String(error));
  }
  return (cell) => typeof cell === "string" && re.test(cell);
}

/**
 * `series >= bound` / `series <= bound` on an object column, as pandas evaluates it: a missing bound (None,
 * NaN) makes every row False; a list compares row by row and must have one element per row (ValueError);
 * anything else compares each cell with Python's operator (a missing cell is False, unorderable types raise
 * TypeError).
 */
export function seriesCompare(cells: readonly Cell[], op: ">=" | "<=", bound: unknown): boolean[] {
  if (isNa(bound)) return cells.map(() => false);
  const cmp = (cell: Cell, b: unknown): boolean => {
    if (isNa(cell) || isNa(b)) return false;
    return op === ">=" ? !pyLess(cell, b) : !pyGreater(cell, b);
  };
  if (Array.isArray(bound)) {
    if (bound.length !== cells.length) {
      throw new PyException(
        "ValueError",
        `('Lengths must match to compare', (${cells.length},), (${bound.length},))`,
      );
    }
    return cells.map((cell, i) => cmp(cell, bound[i]));
  }
  return cells.map((cell) => cmp(cell, bound));
}
