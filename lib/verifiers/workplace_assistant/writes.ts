/**
 * Which predicted call wrote each cell of the compared tables: the replay sets `current` to the running
 * call's index and the tracked frames report every write (an appended row, a set cell, a removed row), so
 * each cell of a table difference traces back to the call whose write produced it, or to none ("never
 * written": the value is the base table's, or the row was never created). Only writes allocate here, so
 * tracking costs nothing for the (many) calls that only read.
 */
import type { Row } from "./frame";

/** One write of a call, by table and row key (the key cell as stored). */
export interface CallWrite {
  readonly table: string;
  /** The row's key cell as text (event_id, email_id, file_path, task_id or customer_id). */
  readonly key: string;
  readonly kind: "added" | "updated" | "removed";
}

export interface TrackedTable {
  readonly name: string;
  readonly keyColumn: number;
}

export class WriteLog {
  /** The index of the call being replayed (-1: none, e.g. the base tables). */
  current = -1;
  /** Per row object: the call that wrote each column (-1: never written by a call). */
  private readonly cellWriters = new WeakMap<Row, Int32Array>();
  /** Per row object: the call that added it. */
  private readonly creators = new WeakMap<Row, number>();
  /** Per table: the rows removed, with the call that removed them, in order. */
  private readonly removals = new Map<string, { row: Row; by: number }[]>();
  /** Per call index: what it wrote. */
  private readonly perCall = new Map<number, CallWrite[]>();

  private note(table: TrackedTable, row: Row, kind: CallWrite["kind"]): void {
    if (this.current < 0) return;
    const list = this.perCall.get(this.current) ?? [];
    const cell = row[table.keyColumn];
    const key = typeof cell === "string" ? cell : String(cell);
    // A call that updates one row in several columns is one write.
    if (!list.some((w) => w.table === table.name && w.key === key && w.kind === kind))
      list.push({ table: table.name, key, kind });
    this.perCall.set(this.current, list);
  }

  added(table: TrackedTable, row: Row): void {
    this.creators.set(row, this.current);
    this.cellWriters.set(row, new Int32Array(row.length).fill(this.current));
    this.note(table, row, "added");
  }

  /** `next` replaces `previous` with column `column` written. */
  updated(table: TrackedTable, previous: Row, next: Row, column: number): void {
    const writers = this.cellWriters.get(previous)?.slice() ?? new Int32Array(next.length).fill(-1);
    writers[column] = this.current;
    this.cellWriters.set(next, writers);
    const creator = this.creators.get(previous);
    if (creator !== undefined) this.creators.set(next, creator);
    this.note(table, next, "updated");
  }

  removed(table: TrackedTable, row: Row): void {
    const list = this.removals.get(table.name) ?? [];
    list.push({ row, by: this.current });
    this.removals.set(table.name, list);
    this.note(table, row, "removed");
  }

  /** The call that last wrote `column` of this row (null: never written by a call). */
  writerOf(row: Row, column: number): number | null {
    const by = this.cellWriters.get(row)?.[column];
    return by === undefined || by < 0 ? null : by;
  }

  /** The call that added the row, else the last call that wrote any of its cells (null: none). */
  rowWriter(row: Row): number | null {
    const creator = this.creators.get(row);
    if (creator !== undefined && creator >= 0) return creator;
    const writers = this.cellWriters.get(row);
    if (writers === undefined) return null;
    const last = Math.max(...writers);
    return last < 0 ? null : last;
  }

  /** The call that removed this row from the table (by identity, else the first removal whose key matches). */
  removerOf(table: string, row: Row, sameKey: (removed: Row) => boolean): number | null {
    const list = this.removals.get(table) ?? [];
    const exact = list.find((r) => r.row === row) ?? list.find((r) => sameKey(r.row));
    return exact === undefined || exact.by < 0 ? null : exact.by;
  }

  /** What the call at `index` wrote (empty for a call that only read, or did nothing). */
  writesOf(index: number): readonly CallWrite[] {
    return this.perCall.get(index) ?? [];
  }
}
