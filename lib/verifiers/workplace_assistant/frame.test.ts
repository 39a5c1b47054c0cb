/**
 * Frame.objectMax resumes its fold over appended rows (a long replay creates ids one at a time) and must
 * give exactly what one pass over all rows gives, also after rows are replaced or removed, and raise the
 * same TypeError; firstRecord stops at the first match with the same record.
 */
import { describe, expect, it } from "vitest";
import { Frame } from "./frame";
import { PyException, pandasObjectMax } from "./py";
import { replay } from "./replay";
import { firstRecord, matchingPositions, recordOf } from "./tools/common";

const COLUMNS = ["id", "v"];

describe("Frame.objectMax", () => {
  it("equals one pass over every row after appends, replaced cells and removed rows", () => {
    const frame = Frame.fromRows(COLUMNS, [
      ["00000003", 1],
      ["00000010", 2],
    ]);
    const check = () => expect(frame.objectMax("id")).toBe(pandasObjectMax(frame.rows, 0));
    check();
    for (let i = 0; i < 50; i++) {
      frame.append([String((i * 37) % 101).padStart(8, "0"), i], "ignore_index");
      check();
    }
    frame.setCells([3], 0, ["99999999"]);
    check();
    expect(frame.objectMax("id")).toBe("99999999");
    frame.setCells([3], 0, ["00000000"]);
    check();
    frame.filter((row) => row[0] !== "00000100");
    check();
    frame.append(["00000500", 0], "keep_index");
    check();
  });

  it("raises the same TypeError as one pass when an appended cell cannot be compared", () => {
    const frame = Frame.fromRows(COLUMNS, [["00000001", 1]]);
    frame.objectMax("id");
    frame.append([Number.NaN, 2], "ignore_index");
    let resumed: unknown;
    let whole: unknown;
    try {
      frame.objectMax("id");
    } catch (error) {
      resumed = error;
    }
    try {
      pandasObjectMax(frame.rows, 0);
    } catch (error) {
      whole = error;
    }
    expect(resumed).toBeInstanceOf(PyException);
    expect(String(resumed)).toBe(String(whole));
  });

  it("a replay of replies numbers each email as one pass over the table before it would (string max + 1)", () => {
    const replies = Array.from({ length: 3_000 }, () => ({
      name: "email_reply_email",
      arguments: '{"email_id": "00000057", "body": "ok"}',
    }));
    const { state, calls } = replay(replies);
    expect(calls.every((call) => call.outcome === "applied")).toBe(true);
    const rows = state.emails.rows;
    const c = state.emails.columnIndex("email_id");
    const before = rows.length - replies.length;
    for (let i = before; i < rows.length; i++) {
      // pandas' max of the string column, as pyInt reads it, plus one ("999" is above "1000": ids repeat).
      const max = pandasObjectMax(rows.slice(0, i), c);
      expect(rows[i]![c]).toBe(String(BigInt(String(max)) + 1n));
    }
  });
});

describe("firstRecord", () => {
  it("is the first of every matching row", () => {
    const frame = Frame.fromRows(COLUMNS, [
      ["a", 1],
      ["b", 2],
      ["a", 3],
    ]);
    expect(firstRecord(frame, "id", "a")).toEqual(recordOf(frame, matchingPositions(frame, "id", "a")[0]!));
    expect(firstRecord(frame, "id", "a")).toEqual({ id: "a", v: 1 });
    expect(firstRecord(frame, "id", "z")).toBeUndefined();
    expect(() => firstRecord(frame, "id", ["a"])).toThrow(PyException);
  });
});
