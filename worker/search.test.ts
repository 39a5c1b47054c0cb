/**
 * The search the pool runs: ranges cut at line boundaries, the byte scan agreeing with a case-insensitive
 * regex over the decoded text (first match per line), matches at range edges, line filters. The scheduling
 * of ranges over the pool is tested in ./search-scheduler.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { searchRange } from "@/worker/jobs";
import {
  bytesAnswerFor,
  FILTER_MIN_BITS,
  filterProbe,
  findInLines,
  type LineSpan,
  lineAt,
  lineFilter,
  linesOf,
  linesWithin,
  mayContain,
  splitRanges,
} from "@/worker/search";

const encoder = new TextEncoder();

/** The reference: the first match of each line, by a regex over the decoded text, in byte offsets. */
function reference(text: string, needle: string): number[] {
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const hits: number[] = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    const match = new RegExp(escaped, "i").exec(line);
    if (match) hits.push(offset + encoder.encode(line.slice(0, match.index)).length);
    offset += encoder.encode(line).length + 1;
  }
  return hits;
}

function spansOf(lines: readonly string[], part: (line: number) => string = () => "p"): LineSpan<string>[] {
  const spans: LineSpan<string>[] = [];
  let at = 0;
  for (const [i, text] of lines.entries()) {
    const length = encoder.encode(text).length;
    spans.push({ line: i + 1, start: at, end: at + length, part: part(i + 1) });
    at += length + 1;
  }
  return spans;
}

describe("splitRanges", () => {
  it("cuts only between lines, keeps each range within its size unless one line is longer, never crosses a part", () => {
    const lines = [
      "a".repeat(10),
      "b".repeat(10),
      "c".repeat(30),
      "d".repeat(5),
      "e".repeat(5),
      "f".repeat(5),
    ];
    const spans = spansOf(lines, (line) => (line <= 5 ? "p1" : "p2"));
    const ranges = splitRanges(spans, 21);
    expect(ranges).toEqual([
      { part: "p1", start: 0, end: 21 }, // lines 1-2 (the newline between them included)
      { part: "p1", start: 22, end: 52 }, // line 3 alone: longer than a range
      { part: "p1", start: 53, end: 64 }, // lines 4-5
      { part: "p2", start: 65, end: 70 }, // line 6: another part
    ]);
    // Every range starts at a line's start and ends at a line's end.
    for (const range of ranges) {
      expect(spans.some((span) => span.start === range.start)).toBe(true);
      expect(spans.some((span) => span.end === range.end)).toBe(true);
    }
  });

  it("with a gap limit, does not read over more than that many bytes of lines left out", () => {
    const spans = spansOf(["a".repeat(10), "b".repeat(10), "c".repeat(10), "d".repeat(10)]);
    const kept = [spans[0], spans[1], spans[3]].flatMap((span) => (span ? [span] : []));
    expect(splitRanges(kept, 1000)).toEqual([{ part: "p", start: 0, end: 43 }]);
    expect(splitRanges(kept, 1000, 5)).toEqual([
      { part: "p", start: 0, end: 21 },
      { part: "p", start: 33, end: 43 },
    ]);
  });

  it("can make the first ranges smaller than the rest", () => {
    const spans = spansOf(Array.from({ length: 8 }, () => "x".repeat(9)));
    expect(splitRanges(spans, 40, Number.POSITIVE_INFINITY, { count: 2, maxBytes: 10 })).toEqual([
      { part: "p", start: 0, end: 9 },
      { part: "p", start: 10, end: 19 },
      { part: "p", start: 20, end: 59 },
      { part: "p", start: 60, end: 79 },
    ]);
  });

  it("maps an offset back to its line, and an offset between lines to none", () => {
    const spans = spansOf(["abc", "de", "fghi"]);
    expect([0, 2, 4, 5, 7, 10].map((at) => lineAt(spans, at))).toEqual([1, 1, 2, 2, 3, 3]);
    expect(lineAt(spans, 3)).toBeNull();
    expect(lineAt(spans, 11)).toBeNull();
  });
});

describe("findInLines", () => {
  it("finds the first match of each line, ignoring ASCII case, as a case-insensitive regex does", () => {
    const text = 'x {"id":"call_4242_3"} CALL_4242_3\nnothing here\n{"a":"Call_4242_3"}\ncall_4242_';
    expect(findInLines(encoder.encode(text), "call_4242_3")).toEqual(reference(text, "call_4242_3"));
    expect(findInLines(encoder.encode(text), "call_4242_3")).toHaveLength(2);
  });

  it("finds a match that starts at the range's first byte or ends at its last byte (no trailing newline)", () => {
    const text = "needle at start\nmiddle\nends with the NEEDLE";
    const hits = findInLines(encoder.encode(text), "needle");
    expect(hits).toEqual([0, text.length - "NEEDLE".length]);
  });

  it("agrees with the regex on arbitrary lines and texts, ASCII and not", () => {
    const alphabet = fc.constantFrom(...[...'aAbB_1\n {}"\\éÉ€ßµμ中İı'.split(""), "𝒳", "🚀"]);
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 200 }).map((chars) => chars.join("")),
        fc
          .array(fc.constantFrom(...[..."aAbB_1 \\éÉ€ßµμ中".split(""), "🚀"]), { minLength: 1, maxLength: 4 })
          .map((c) => c.join("")),
        (text, needle) => {
          expect(findInLines(encoder.encode(text), needle)).toEqual(reference(text, needle));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("scans only the lines it is given, each up to its end", () => {
    const lines = ["token one", "skipped token", "token three", "split tok", "en"];
    const bytes = encoder.encode(lines.join("\n"));
    const all = linesOf(bytes);
    expect(findInLines(bytes, "token", all)).toEqual(reference(lines.join("\n"), "token"));
    // Lines 1, 3 and 4 only: line 2's match is not reported, nor one that would run past line 4's end.
    const some = [all[0], all[1], all[4], all[5], all[6], all[7]].map((at) => at ?? 0);
    expect(findInLines(bytes, "token", some).map((at) => lineAt(spansOf(lines), at))).toEqual([1, 3]);
    expect(findInLines(bytes, "tok\nen", all)).toEqual([]);
  });

  it("answers as the regex does for JSON-escaped text, and for non-ASCII text searched as UTF-8 bytes", () => {
    const lines = [
      JSON.stringify({ arguments: JSON.stringify({ city: "Zürich", note: "中文 ok" }) }),
      // Python's json.dumps escapes non-ASCII: the raw line holds \u00fc, not ü (raw text is what is searched).
      '{"arguments": "{\\"city\\": \\"Z\\u00fcrich\\", \\"note\\": \\"\\u4e2d\\u6587 ok\\"}"}',
      '{"emoji": "launch 🚀 now", "micro": "5µs", "greek": "5μs", "kelvin": "300K"}',
    ];
    const text = lines.join("\n");
    // The raw text is searched: a key's quotes inside an escaped string are \", and \u00fc is not ü.
    const expected: Record<string, number[]> = {
      '"city"': [],
      'city\\"': [1, 2],
      zürich: [1],
      ZÜRICH: [1],
      "\\u00fc": [2],
      中文: [1],
      "中文 OK": [1],
      "\\u4e2d": [2],
      "🚀": [3],
      µs: [3],
      μs: [3],
      "300k": [3],
    };
    const spans = spansOf(lines);
    for (const [term, lines] of Object.entries(expected)) {
      const hits = findInLines(encoder.encode(text), term);
      expect(hits, term).toEqual(reference(text, term));
      expect(
        hits.map((at) => lineAt(spans, at)),
        term,
      ).toEqual(lines);
    }
    // Which terms the bytes answer: no case beyond ASCII (中, 🚀), unlike ü, µ/μ (one folds to the other).
    expect(
      ["中文 OK", "🚀", "city", "zürich", "µs", "μs", "\u212a", "\ud83d", "\ufffd"].map(bytesAnswerFor),
    ).toEqual([true, true, true, false, false, false, false, false, false]);
  });

  it("a code unit the bytes answer for is matched by the regex only by itself (every UTF-16 code unit)", () => {
    // The regex's case folding without the u flag (ECMA-262 Canonicalize): the character's upper case when
    // that is one code unit, unless it would map a non-ASCII character to an ASCII one.
    const canonical = (code: number): number => {
      const up = String.fromCharCode(code).toUpperCase();
      if (up.length !== 1) return code;
      const folded = up.charCodeAt(0);
      return code >= 0x80 && folded < 0x80 ? code : folded;
    };
    const folds = new Map<number, number>();
    for (let code = 0; code <= 0xffff; code++)
      folds.set(canonical(code), (folds.get(canonical(code)) ?? 0) + 1);
    const answered: string[] = [];
    const foldedWithOthers: string[] = [];
    for (let code = 0x80; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      if (!bytesAnswerFor(char)) continue;
      answered.push(char);
      if (canonical(code) !== code || folds.get(code) !== 1) foldedWithOthers.push(char);
    }
    expect(foldedWithOthers).toEqual([]);
    expect(answered.length).toBeGreaterThan(40_000);
    // The engine's own regex agrees: a class of every such character, case-insensitive, matches nothing else
    // among the non-surrogate code units.
    const others = Array.from({ length: 0xffff - 0x80 + 1 }, (_, i) => i + 0x80)
      .filter((code) => code < 0xd800 || code > 0xdfff)
      .map((code) => String.fromCharCode(code))
      .join("");
    const escaped = answered.map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    const matched = others.match(new RegExp(`[${escaped}]`, "gi")) ?? [];
    expect(matched.join("")).toBe(answered.join(""));
  });

  it("agrees with the regex on bytes that are not UTF-8 (lines matched, by the bytes or decoded)", () => {
    const pieces = ["a", "B", "\n", "中", "é", "É", "🚀", "\\", '"'].map((piece) => [
      ...encoder.encode(piece),
    ]);
    const byte = fc.oneof(
      fc.constantFrom(...pieces),
      fc.constantFrom([0xff], [0xc3], [0xe4, 0xb8], [0x80], [0xed, 0xa0, 0x80]),
    );
    fc.assert(
      fc.property(
        fc.array(byte, { maxLength: 60 }).map((parts) => new Uint8Array(parts.flat())),
        fc.constantFrom("a", "ab", "中", "中a", "é", "🚀", "\ufffd", '\\"'),
        (bytes, needle) => {
          const decoder = new TextDecoder();
          const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          const expected: number[] = [];
          const all = linesOf(bytes);
          for (let i = 0; i < all.length; i += 2) {
            const line = decoder.decode(bytes.subarray(all[i], all[i + 1]));
            if (new RegExp(escaped, "i").test(line)) expected.push(i / 2);
          }
          const lineOf = (at: number) => {
            let line = 0;
            for (let i = 0; i < all.length; i += 2) if (at >= (all[i] ?? 0)) line = i / 2;
            return line;
          };
          expect(findInLines(bytes, needle).map(lineOf)).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("a range's lines as a job scans them: the candidates within it, relative to its start", () => {
    const spans = spansOf(["aa", "bbbb", "c", "dd"]);
    const kept = [spans[0], spans[2], spans[3]].flatMap((span) => (span ? [span] : []));
    expect(linesWithin(kept, { part: "p", start: 0, end: 11 })).toEqual([0, 2, 8, 9]);
    expect(linesWithin(kept, { part: "p", start: 8, end: 12 })).toEqual([0, 1, 2, 4]);
  });

  it("pool job: offsets are absolute in the file, for a range that starts mid-file", async () => {
    const lines = ["first line", "second has TOKEN", "third", "fourth token too"];
    const text = lines.join("\n");
    const spans = spansOf(lines);
    const start = spans[1]?.start ?? 0;
    const hits = await searchRange({
      blob: new Blob([text]),
      start,
      end: text.length,
      base: start,
      text: "token",
    });
    expect(hits.map((at) => lineAt(spans, at))).toEqual([2, 4]);
  });
});

describe("search filters", () => {
  it("never rule out a line that holds the text, whatever its case (no false negatives)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcXYZ_0123 {}":é'.split("")), maxLength: 300 }),
        fc.nat(),
        fc.integer({ min: 3, max: 12 }),
        fc.boolean(),
        (line, from, length, upper) => {
          const start = line.length === 0 ? 0 : from % line.length;
          const needle = line.slice(start, start + length);
          const text = upper ? needle.toUpperCase() : needle;
          const probe = filterProbe(text);
          if (probe === null) return; // non-ASCII or shorter than 3: not answered by filters
          expect(mayContain(lineFilter(encoder.encode(line)), probe)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("rule out lines that lack the text's trigrams, and are sized by the line (a few % of its bytes)", () => {
    const line = encoder.encode(JSON.stringify({ id: "call_17_2", text: "hello world ".repeat(2000) }));
    const filter = lineFilter(line);
    expect(filter.length * 8).toBeGreaterThanOrEqual(FILTER_MIN_BITS);
    expect(filter.length).toBeLessThanOrEqual(line.length / 16);
    const holds = (text: string) => mayContain(filter, filterProbe(text) ?? []);
    expect(holds("HELLO")).toBe(true);
    expect(holds("call_17_2")).toBe(true);
    expect(holds("call_4242_3")).toBe(false);
    expect(holds("Workplace Tool")).toBe(false);
    expect(filterProbe("ab")).toBeNull();
    expect(filterProbe("café")).toBeNull();
  });
});
