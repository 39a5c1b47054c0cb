import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonLine } from "../jsonl";
import { concatBytes, editTopLevel, formatNumberLike, rawValueOf } from "./edit";
import { readSourceLines, splitSourceLines } from "./lines";
import { scanObjectLine } from "./spans";
import { KEEP, writeJsonl, writeJsonlSync } from "./write";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { ignoreBOM: true });

// ---- generators of JSON *text* with the formats Python and other writers produce ----

const numberToken = fc.oneof(
  fc.constantFrom("1.0", "0.0", "-0.0", "1e5", "1E+05", "2.5e-3", "NaN", "Infinity", "-Infinity", "10", "-7"),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);
const stringToken = fc
  .string({ unit: fc.constantFrom("a", "é", "😀", "\\", '"', "\u0000", "\u2028", " ", "z", "\n", "中") })
  .map((s) => JSON.stringify(s));
const escapedUnicode = fc.constantFrom('"\\u00e9\\ud83d\\ude00"', '"a\\/b"', '"\\t\\r\\n"');
const ws = fc.constantFrom("", " ", "  ", "\t");

const { value: jsonText } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    numberToken,
    stringToken,
    escapedUnicode,
    fc.constantFrom("true", "false", "null"),
    tie("array"),
    tie("object"),
  ),
  array: fc
    .tuple(fc.array(tie("value"), { maxLength: 4 }), ws, ws)
    .map(([items, a, b]) => `[${a}${items.join(`,${b}`)}]`),
  object: fc
    .tuple(fc.array(fc.tuple(stringToken, tie("value")), { maxLength: 4 }), ws, ws)
    .map(([members, a, b]) => `{${a}${members.map(([k, v]) => `${k}:${b}${v}`).join(`,${a}`)}}`),
}));

const objectLine = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof(stringToken, fc.constantFrom('"reward"', '"id"')), jsonText), {
      maxLength: 6,
    }),
    fc.constantFrom([": ", ", "] as const, [":", ","] as const, [" : ", " , "] as const),
    ws,
    ws,
  )
  .map(
    ([members, [ks, is], lead, trail]) =>
      `${lead}{${members.map(([k, v]) => `${k}${ks}${v}`).join(is)}}${trail}`,
  );

const badLine = fc.oneof(
  fc.string({ unit: fc.constantFrom("{", "}", "a", '"', ":", ",", " ", "é") }).filter((s) => s.trim() !== ""),
  fc.constantFrom('{"a": 1', "not json", "[1, 2]", '{"a": 1} trailing', "{'a': 1}"),
);
const blankLine = fc.constantFrom("", " ", "\t", "  ");
const invalidUtf8Line = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((b) => {
  const copy = b.map((x) => (x === 0x0a ? 0xff : x));
  return concatBytes([enc.encode('{"x": "'), copy, enc.encode('"}')]);
});

const lineBytes = fc.oneof(
  { weight: 6, arbitrary: objectLine.map((s) => enc.encode(s)) },
  { weight: 2, arbitrary: badLine.map((s) => enc.encode(s)) },
  { weight: 1, arbitrary: blankLine.map((s) => enc.encode(s)) },
  { weight: 1, arbitrary: invalidUtf8Line },
);

const jsonlFile = fc
  .tuple(
    fc.array(fc.tuple(lineBytes, fc.constantFrom("\n", "\r\n")), { maxLength: 12 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([lines, trailingNewline, bom]) => {
    const parts: Uint8Array[] = bom ? [new Uint8Array([0xef, 0xbb, 0xbf])] : [];
    lines.forEach(([bytes, eol], i) => {
      parts.push(bytes);
      if (i < lines.length - 1 || trailingNewline) parts.push(enc.encode(eol));
    });
    return concatBytes(parts);
  });

function streamOf(bytes: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

describe("lossless export", () => {
  it("gives back the exact bytes of an untouched file (in memory)", () => {
    fc.assert(
      fc.property(jsonlFile, (file) => {
        const out = concatBytes(writeJsonlSync(splitSourceLines(file), KEEP).map((w) => w.bytes));
        expect(out).toEqual(file);
      }),
      { numRuns: 300 },
    );
  });

  it("gives back the exact bytes of an untouched file (streamed in odd chunks)", async () => {
    await fc.assert(
      fc.asyncProperty(jsonlFile, fc.integer({ min: 1, max: 17 }), async (file, chunk) => {
        const parts: Uint8Array[] = [];
        for await (const w of writeJsonl(readSourceLines(streamOf(file, chunk)), KEEP)) parts.push(w.bytes);
        expect(concatBytes(parts)).toEqual(file);
      }),
      { numRuns: 150 },
    );
  });

  it("changes only the edited key of a changed line and keeps every other line's bytes", () => {
    fc.assert(
      fc.property(jsonlFile, fc.jsonValue(), (file, newValue) => {
        const sources = splitSourceLines(file);
        const written = writeJsonlSync(sources, (value) =>
          typeof value === "object" && value !== null && !Array.isArray(value)
            ? [{ key: "reward", value: newValue }]
            : null,
        );
        sources.forEach((src, i) => {
          const w = written[i]!;
          if (!w.changed) {
            expect(w.bytes.subarray(0, src.bytes.length)).toEqual(src.bytes);
            return;
          }
          const before = src.parsed?.ok ? src.parsed.value : undefined;
          const text = dec.decode(w.bytes).replace(/^\uFEFF/, "");
          const after = parseJsonLine(text);
          expect(after.ok).toBe(true);
          if (!after.ok || typeof before !== "object" || before === null) return;
          const expected = { ...before, reward: JSON.parse(JSON.stringify(newValue)) };
          // NaN tokens elsewhere stay NaN: compare through Object.is-aware equality.
          expect(after.value).toStrictEqual(expected);
          // The raw text of every other member is unchanged.
          const beforeScan = scanObjectLine(src.bytes);
          expect(beforeScan.ok).toBe(true);
          if (!beforeScan.ok) return;
          for (const m of beforeScan.spans.members) {
            if (m.key === "reward") continue;
            const rawBefore = dec.decode(src.bytes.subarray(m.valueStart, m.valueEnd));
            expect(rawValueOf(w.bytes.subarray(0, w.bytes.length - (src.newline ? 1 : 0)), m.key)).toBe(
              lastRaw(beforeScan.spans.members, src.bytes, m.key) ?? rawBefore,
            );
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});

function lastRaw(
  members: readonly { key: string; valueStart: number; valueEnd: number }[],
  bytes: Uint8Array,
  key: string,
) {
  const m = members.filter((x) => x.key === key).at(-1);
  return m === undefined ? null : dec.decode(bytes.subarray(m.valueStart, m.valueEnd));
}

describe("editTopLevel", () => {
  const edit = (line: string, edits: Parameters<typeof editTopLevel>[1]) => {
    const r = editTopLevel(enc.encode(line), edits);
    if (!r.ok) throw new Error(r.error);
    return dec.decode(r.bytes);
  };

  it("keeps number formats, unknown keys and key order", () => {
    const line = '{"b": 1.0, "reward": 1e5, "z": NaN, "a": {"x": [1.50, -0.0]}}';
    expect(edit(line, [{ key: "reward", value: 0.5 }])).toBe(
      '{"b": 1.0, "reward": 0.5, "z": NaN, "a": {"x": [1.50, -0.0]}}',
    );
  });

  it("appends new keys before the closing brace in the line's separator style", () => {
    expect(edit('{"a":1,"b":2}', [{ key: "new", value: { k: [1, "é"] } }])).toBe(
      '{"a":1,"b":2,"new":{"k":[1,"é"]}}',
    );
    expect(edit('{"a": 1}', [{ key: "n", value: null }])).toBe('{"a": 1, "n": null}');
    expect(edit("{}", [{ key: "n", value: true }])).toBe('{"n": true}');
    expect(edit('  { "a" : 1 }  ', [{ key: "n", value: 2 }])).toBe('  { "a" : 1, "n" : 2 }  ');
  });

  it("replaces the last occurrence of a duplicated key, the one JSON.parse reports", () => {
    expect(edit('{"k": 1, "k": 2}', [{ key: "k", value: 3 }])).toBe('{"k": 1, "k": 3}');
  });

  it("splices raw text verbatim and refuses lines that are not one object", () => {
    expect(edit('{"reward": 1.0}', [{ key: "reward", raw: "0.0" }])).toBe('{"reward": 0.0}');
    const bad = editTopLevel(enc.encode("[1, 2]"), [{ key: "a", value: 1 }]);
    expect(bad).toEqual({ ok: false, error: "expected '{' at byte 0" });
    const trailing = editTopLevel(enc.encode('{"a": 1} x'), [{ key: "a", value: 1 }]);
    expect(trailing.ok).toBe(false);
  });

  it("keeps invalid UTF-8 bytes elsewhere in the line", () => {
    const line = concatBytes([enc.encode('{"x": "'), new Uint8Array([0xff, 0xfe]), enc.encode('", "r": 1}')]);
    const r = editTopLevel(line, [{ key: "r", value: 2 }]);
    expect(r.ok && Array.from(r.bytes.subarray(7, 9))).toEqual([0xff, 0xfe]);
  });

  it("formats a number like the token it replaces", () => {
    expect(formatNumberLike("1.0", 0)).toBe("0.0");
    expect(formatNumberLike("1", 0)).toBe("0");
    expect(formatNumberLike("1.0", 0.25)).toBe("0.25");
    expect(formatNumberLike(null, 1)).toBe("1");
  });
});

describe("source lines", () => {
  it("marks blank and bad lines and keeps CR, BOM and a missing final newline", () => {
    const file = enc.encode('\uFEFF{"a": 1}\r\n\n  \nnot json\n{"b": NaN}');
    const lines = splitSourceLines(file);
    expect(lines.map((l) => [l.line, l.newline, l.parsed === null ? "blank" : l.parsed.ok])).toEqual([
      [1, true, true],
      [2, true, "blank"],
      [3, true, "blank"],
      [4, true, false],
      [5, false, true],
    ]);
    const written = writeJsonlSync(lines, () => [{ key: "c", value: 1 }]);
    expect(dec.decode(concatBytes(written.map((w) => w.bytes)))).toBe(
      '\uFEFF{"a": 1, "c": 1}\r\n\n  \nnot json\n{"b": NaN, "c": 1}',
    );
  });

  it("streams a gzip file as its decompressed lines", async () => {
    const text = '{"a": 1}\n{"b": 2}';
    const gz = new Uint8Array(
      await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
    );
    const parts: Uint8Array[] = [];
    for await (const w of writeJsonl(readSourceLines(streamOf(gz, 5)), KEEP)) parts.push(w.bytes);
    expect(dec.decode(concatBytes(parts))).toBe(text);
  });

  it("refuses a line too long to keep, naming it", async () => {
    const run = async () => {
      for await (const _ of readSourceLines(streamOf(enc.encode('{"a": 1}\n{"b": "long"}\n'), 4), 10)) {
        // drain
      }
    };
    await expect(run()).rejects.toThrow("line 2 is too long to export losslessly");
  });
});
