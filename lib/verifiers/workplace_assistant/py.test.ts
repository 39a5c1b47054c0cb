import { describe, expect, it } from "vitest";
import { baseTables } from "./data/tables";
import {
  PyException,
  pandasObjectMax,
  pyEq,
  pyFloatRepr,
  pyIn,
  pyInt,
  pyIsDigit,
  pyStr,
  pyZfill,
  truthy,
} from "./py";
import { isValidTimestampText, pandasTimestamp } from "./timestamp";

function pyError(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (error) {
    if (error instanceof PyException) return error.pyType;
    throw error;
  }
}

describe("Python semantics", () => {
  it("truthiness: NaN is true, empty containers are false", () => {
    expect([null, false, 0n, 0, "", [], new Map()].map(truthy)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([Number.NaN, "0", [0n], new Map([["a", 0n]]), -1n].map(truthy)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it("== across bool/int/float, and NaN != NaN", () => {
    expect(pyEq(true, 1n)).toBe(true);
    expect(pyEq(1n, 1.0)).toBe(true);
    expect(pyEq("1", 1n)).toBe(false);
    expect(pyEq(Number.NaN, Number.NaN)).toBe(false);
    expect(pyEq([1n, new Map([["a", "x"]])], [true, new Map([["a", "x"]])])).toBe(true);
    // Exact int/float comparison: 2**53 + 1 is not the double 2**53.
    expect(pyEq(2n ** 53n + 1n, 2 ** 53)).toBe(false);
    expect(pyEq(2n ** 53n, 2 ** 53)).toBe(true);
  });

  it("int() accepts Python's integer text and rejects the rest with the right exception", () => {
    expect(pyInt(" 42 ")).toBe(42n);
    expect(pyInt("+1_000")).toBe(1000n);
    expect(pyInt(30.9)).toBe(30n);
    expect(pyInt(true)).toBe(1n);
    // Any script's decimal digits; non-ASCII whitespace strips, ASCII information separators do not.
    expect(pyInt("\u0663\u0660")).toBe(30n);
    expect(pyInt("\uff11\uff12")).toBe(12n);
    expect(pyInt("\u30005\u0085")).toBe(5n);
    expect(pyError(() => pyInt("\x1c5"))).toBe("ValueError");
    expect(pyError(() => pyInt("\u00b2"))).toBe("ValueError");
    expect(pyInt("99999999999999999999")).toBe(99999999999999999999n);
    expect(pyError(() => pyInt("1".repeat(4301)))).toBe("ValueError");
    expect(pyError(() => pyInt("30.5"))).toBe("ValueError");
    expect(pyError(() => pyInt(Number.NaN))).toBe("ValueError");
    expect(pyError(() => pyInt(Number.POSITIVE_INFINITY))).toBe("OverflowError");
    expect(pyError(() => pyInt([1]))).toBe("TypeError");
  });

  it("str() and repr() print like Python", () => {
    expect(pyStr(null)).toBe("None");
    expect(pyStr(true)).toBe("True");
    expect(pyStr([1n, 2.0, "a", null, new Map([["k", "it's"]])])).toBe(`[1, 2.0, 'a', None, {'k': "it's"}]`);
    expect(pyStr(2023.0)).toBe("2023.0");
    // Insertion order, integer-like keys included.
    expect(
      pyStr(
        new Map<string, unknown>([
          ["b", 1n],
          ["1", 2n],
        ]),
      ),
    ).toBe("{'b': 1, '1': 2}");
    // repr escapes what str.isprintable() rejects.
    expect(pyStr(["\u00a0\u00ad\u200b\u2028\u3000\ue000"])).toBe(
      "['\\xa0\\xad\\u200b\\u2028\\u3000\\ue000']",
    );
    expect(pyFloatRepr(0.5)).toBe("0.5");
    expect(pyFloatRepr(1e16)).toBe("1e+16");
    expect(pyFloatRepr(1.5e-5)).toBe("1.5e-05");
    expect(pyFloatRepr(123456.25)).toBe("123456.25");
  });

  it("zfill pads after the sign; isdigit needs a non-empty digit string", () => {
    expect(pyZfill("300", 8)).toBe("00000300");
    expect(pyZfill("-5", 4)).toBe("-005");
    expect(pyIsDigit("00000013")).toBe(true);
    expect(pyIsDigit("")).toBe(false);
    expect(pyIsDigit("0000001a")).toBe(false);
  });

  it("`in` on str, list and dict; TypeError on numbers", () => {
    expect(pyIn("@", "a@b")).toBe(true);
    expect(pyIn("@", ["@", "."])).toBe(true);
    expect(pyIn("@", new Map([["@", 1n]]))).toBe(true);
    expect(pyError(() => pyIn("@", 5n))).toBe("TypeError");
  });

  it("Series.max on an object column: string order, NaN among strings raises, empty is NaN", () => {
    expect(pandasObjectMax([["00000499"], ["500"], ["00000010"]], 0)).toBe("500");
    expect(pyError(() => pandasObjectMax([["a"], [Number.NaN]], 0))).toBe("TypeError");
    expect(pandasObjectMax([], 0)).toBeNaN();
  });
});

describe("pd.Timestamp", () => {
  it("accepts ISO and common dateutil forms, rejects free text", () => {
    for (const text of [
      "2023-12-01 10:00:00",
      "2023-12-01",
      "2023-12-01T10:00",
      "12/01/2023",
      "Dec 1, 2023 3pm",
    ]) {
      expect(isValidTimestampText(text)).toBe(true);
    }
    for (const text of [
      "not a date",
      "tomorrow",
      "next monday",
      "1",
      "2023-13-01",
      "2023-02-30",
      "2023-12-01 25:00",
    ]) {
      expect(isValidTimestampText(text)).toBe(false);
    }
  });

  it("orders instants and raises TypeError for lists and booleans", () => {
    expect(pandasTimestamp("2023-12-01 10:00:00").ms).toBeGreaterThan(pandasTimestamp("2023-12-01").ms);
    expect(pyError(() => pandasTimestamp([1n]))).toBe("TypeError");
    expect(pyError(() => pandasTimestamp(true))).toBe("TypeError");
    expect(pandasTimestamp(Number.NaN).nat).toBe(true);
    expect(pandasTimestamp(-(2n ** 63n)).nat).toBe(true);
    expect(pyError(() => pandasTimestamp(2n ** 63n))).toBe("ValueError");
    expect(pyError(() => pandasTimestamp(Number.POSITIVE_INFINITY))).toBe("ValueError");
  });
});

describe("shipped tables", () => {
  const base = baseTables();

  it("load with pandas' shapes and missing cells", () => {
    expect([
      base.emails.length,
      base.calendar.length,
      base.analytics.length,
      base.projectTasks.length,
    ]).toEqual([500, 300, 1000, 300]);
    expect(base.crm.length).toBe(200);
    const missing = base.crm.rows.flat().filter((cell) => typeof cell === "number" && Number.isNaN(cell));
    expect(missing).toHaveLength(144);
    expect(base.directory).toHaveLength(20);
    const engaged = base.analytics.columnIndex("user_engaged");
    expect(new Set(base.analytics.rows.map((row) => typeof row[engaged]))).toEqual(new Set(["boolean"]));
  });

  it("keeps literal backslash-n in email bodies (the CSV has no embedded newlines)", () => {
    const body = base.emails.columnIndex("body");
    expect(String(base.emails.rows[0]![body])).toContain("\\n");
  });
});
