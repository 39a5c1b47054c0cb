import { describe, expect, it } from "vitest";
import { PyException } from "./py";
import { compareTimestamps, pandasTimestamp } from "./timestamp";

/** What pd.Timestamp(text) gives, as pandas 2.3.3 answered each of these (run on the development machine). */
const VECTORS: readonly (readonly [string, "naive" | "aware" | "NaT" | "ValueError"])[] = [
  // Free text pandas accepts through dateutil.
  ["12/1", "naive"],
  ["2023-12-01 10:00 EST", "naive"], // an unknown zone name is ignored
  ["December", "naive"],
  ["T10:00", "naive"],
  ["2023-12-01.", "naive"],
  ["Dec 1st 2023 at 3pm", "naive"],
  ["1st of December 2023", "naive"],
  ["2023-12-01 10h30", "naive"],
  ["3pm", "naive"],
  // Formats only pandas' own fast paths parse.
  ["2023Q4", "naive"],
  ["4Q2023", "naive"],
  ["12/2023", "naive"],
  ["Dec 2023", "naive"],
  ["13/01/2023", "naive"], // day-first swap: 13 cannot be a month
  ["2023Q5", "ValueError"],
  ["00/01/2023", "ValueError"],
  ["2/29/2023", "ValueError"],
  // NaT spellings.
  ["NaT", "NaT"],
  ["nat", "NaT"],
  ["nan", "NaT"],
  ["NaN", "NaT"],
  ["NAN", "NaT"],
  ["", "NaT"],
  // Case-sensitive now/today; no trimming of whitespace-only or BOM-prefixed text.
  ["now", "naive"],
  ["today", "naive"],
  ["Now", "ValueError"],
  ["TODAY", "ValueError"],
  [" ", "ValueError"],
  ["\ufeff2023-12-01", "ValueError"],
  [" 2023-12-01", "naive"],
  // Zones: lower-case "utc" is not a dateutil zone; offsets of 24 h or more are refused.
  ["2023-12-01 10:00 utc", "ValueError"],
  ["2023-12-01 10:00 UTC", "aware"],
  ["2023-12-01T10:00:00Z", "aware"],
  ["2023-12-01 10:00 GMT+3", "aware"],
  ["2023-12-01T10:00+24:00", "ValueError"],
  ["2023-12-01 10:00 +2400", "ValueError"],
  ["2023-12-01 10:00 -23:59", "aware"],
  // Numbers as text, and what is "not likely a datetime".
  ["1", "ValueError"],
  ["999", "ValueError"],
  ["1000", "naive"],
  ["12 5", "naive"],
  ["12.2023", "ValueError"],
  ["-5", "ValueError"],
  // Range errors and nanosecond bounds.
  ["2023-13-01", "ValueError"],
  ["2023-02-30", "ValueError"],
  ["10000-01-01", "ValueError"],
  ["1500-01-01 00:00:00.1234567", "ValueError"],
  ["1500-01-01 00:00:00.123456", "naive"],
  ["Mon 10am", "ValueError"], // weekday without a day
  ["10:00 Feb", "ValueError"], // today's day (30) is not in February
  ["\u0661\u0662/\u0660\u0661/\u0662\u0660\u0662\u0663", "naive"],
  // %Y of "%b-%Y" takes Python's decimal digits; Garay digits (Unicode 16.0) are \p{Nd} to the JS engine only.
  ["Jan-\u0662\u0660\u0662\u0663", "naive"],
  ["Jan-\u{10d42}\u{10d40}\u{10d42}\u{10d43}", "ValueError"],
  ["\u{10d42}\u{10d40}\u{10d42}\u{10d43}-01", "ValueError"],
  // dateutil's int() of the whole seconds: more than 4300 digits (leading zeros count) raises, parse fails.
  [`Jan 5 2023 10:00:${"0".repeat(4299)}1.5`, "naive"],
  [`Jan 5 2023 10:00:${"0".repeat(4300)}1.5`, "ValueError"],
];

function kind(value: unknown): string {
  try {
    const t = pandasTimestamp(value);
    return t.nat ? "NaT" : t.aware ? "aware" : "naive";
  } catch (error) {
    if (error instanceof PyException) return error.pyType;
    throw error;
  }
}

describe("pd.Timestamp on strings, as pandas 2.3.3", () => {
  it.each(VECTORS)("%j is %s", (text, want) => {
    expect(kind(text)).toBe(want);
  });

  it("integers are nanoseconds: -2**63 is NaT, beyond int64 is OutOfBoundsDatetime (a ValueError)", () => {
    expect(pandasTimestamp(-(2n ** 63n)).nat).toBe(true);
    expect(kind(2n ** 63n)).toBe("ValueError");
    expect(pandasTimestamp(2023n).ms).toBeCloseTo(0.002023);
  });

  it("comparing naive with aware raises TypeError; NaT compares False", () => {
    const naive = pandasTimestamp("2023-12-01 10:00");
    const aware = pandasTimestamp("2023-12-01T10:00Z");
    expect(() => compareTimestamps(naive, aware)).toThrow(PyException);
    expect(compareTimestamps(naive, pandasTimestamp("NaT")) >= 0).toBe(false);
  });
});
