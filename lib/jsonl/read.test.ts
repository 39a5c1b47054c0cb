import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CUT_LAST_LINE,
  firstInvalidUtf8,
  type JsonlItem,
  jsonlItemsOf,
  type ReadJsonlOptions,
  readJsonl,
} from "./read";

const encoder = new TextEncoder();

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** Splits bytes at the given cut points (any order, duplicates allowed: they make empty chunks). */
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const sorted = [...cuts].map((c) => Math.min(c, bytes.length)).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of sorted) {
    chunks.push(bytes.slice(start, cut));
    start = cut;
  }
  chunks.push(bytes.slice(start));
  return chunks;
}

async function collect(source: ReadableStream<Uint8Array>, options?: ReadJsonlOptions): Promise<JsonlItem[]> {
  const items: JsonlItem[] = [];
  for await (const item of readJsonl(source, options)) items.push(item);
  return items;
}

const readText = (text: string, options?: ReadJsonlOptions) =>
  collect(streamOf([encoder.encode(text)]), options);

describe("readJsonl line handling", () => {
  it("handles CRLF, blank and whitespace-only lines, and a last line without newline", async () => {
    const items = await readText('{"a":1}\r\n\r\n   \n\t\r\n{"b":2}\n\n{"c":3}');
    // Bytes: line 1 is 0-8 with its CRLF, lines 2-4 take 9-17, so line 5 starts at 18 and line 7 at 27.
    expect(items).toEqual([
      { line: 1, offset: 0, length: 7, ok: true, value: { a: 1 } },
      { line: 5, offset: 18, length: 7, ok: true, value: { b: 2 } },
      { line: 7, offset: 27, length: 7, ok: true, value: { c: 3 } },
    ]);
  });

  it("names a last line cut short (no line break, JSON not closed), in a stream and in bytes held whole", async () => {
    const text = '{"a":1}\n{"b":"cut\n<PLACEHOLDER>\n[1,{"c":[2,3]}\n{"d": {"e": "x\\"}';
    const items = await readText(text);
    expect(items).toEqual([...jsonlItemsOf(encoder.encode(text))]);
    const errors = items.flatMap((item) => (item.ok ? [] : [[item.line, item.error]]));
    expect(errors.map(([line]) => line)).toEqual([2, 3, 4, 5]);
    // Only the last line is said to be cut: a line cut before its break is a bad line like any other.
    expect(errors.filter(([, error]) => String(error).includes(CUT_LAST_LINE)).map(([line]) => line)).toEqual(
      [5],
    );
    // A last line closed but not JSON, or not JSON at all, is not called cut.
    for (const last of ['{"a":1}}', "<PLACEHOLDER ROW>", "[1, 2] x"]) {
      const [item] = await readText(last);
      expect(item?.ok === false && item.error.includes(CUT_LAST_LINE), last).toBe(false);
    }
    // A whole last line without its break is a line.
    expect(await readText('{"a":1}')).toEqual([{ line: 1, offset: 0, length: 7, ok: true, value: { a: 1 } }]);
  });

  it("yields nothing for an empty stream or only newlines", async () => {
    expect(await collect(streamOf([]))).toEqual([]);
    expect(await readText("\n\r\n \n")).toEqual([]);
  });

  it("strips a BOM only at file start: first offset is 3 and length excludes it", async () => {
    const items = await readText('\ufeff{"a":1}\n\ufeff{"b":2}\n', { keepBytes: true });
    expect(items[0]).toMatchObject({ line: 1, offset: 3, length: 7, ok: true, value: { a: 1 } });
    expect(new TextDecoder().decode(items[0]?.bytes)).toBe('{"a":1}');
    // A BOM in the middle of the file is data, and not valid JSON.
    expect(items[1]).toMatchObject({ line: 2, offset: 11, length: 10, ok: false });
  });

  it("a bad line does not stop the read and its error names the reason", async () => {
    const items = await readText('{"a":1}\n{"a":\nnot json\n{"b":2}\n');
    expect(items.map((i) => [i.line, i.ok])).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [4, true],
    ]);
    const bad = items[1];
    expect(bad?.ok === false && bad.error).toMatch(/^invalid JSON: unexpected end of text/);
  });

  it("parses Python's NaN/Infinity outside strings and leaves them inside strings", async () => {
    const items = await readText('{"r": NaN, "s": "NaN"}\n{"r": -Infinity, "s": "-Infinity"}\n');
    const [first, second] = items;
    if (!first?.ok || !second?.ok) throw new Error("lines should parse");
    expect(first.value).toEqual({ r: Number.NaN, s: "NaN" });
    expect(second.value).toEqual({ r: Number.NEGATIVE_INFINITY, s: "-Infinity" });
  });

  it("returns a scalar line as a value: only the schema layer requires objects", async () => {
    expect(await readText("[1]\n2\n")).toMatchObject([
      { ok: true, value: [1] },
      { ok: true, value: 2 },
    ]);
  });

  it("reports invalid UTF-8 with its line and byte, and later lines still parse", async () => {
    const bytes = new Uint8Array([
      ...encoder.encode('{"a":1}\n{"b":"'),
      0xff,
      ...encoder.encode('"}\n{"c":"é"}\n'),
    ]);
    const items = await collect(streamOf([bytes]));
    expect(items[1]).toEqual({
      line: 2,
      offset: 8,
      length: 9,
      ok: false,
      error: "invalid UTF-8 in line at byte 6 of the line",
    });
    expect(items[2]).toMatchObject({ line: 3, ok: true, value: { c: "é" } });
  });

  it("keeps multi-byte characters intact when a chunk boundary falls inside them", async () => {
    const text = '{"t":"naïve — 日本 🎉"}\n';
    const bytes = encoder.encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const items = await collect(streamOf(chunked(bytes, [cut])));
      expect(items).toEqual([
        { line: 1, offset: 0, length: bytes.length - 1, ok: true, value: { t: "naïve — 日本 🎉" } },
      ]);
    }
  });

  it("reports an over-long line without buffering it and goes on", async () => {
    const long = `{"x":"${"a".repeat(100)}"}`;
    const items = await readText(`${long}\n{"ok":1}\n${long}`, { maxLineBytes: 50 });
    expect(items).toEqual([
      {
        line: 1,
        offset: 0,
        length: long.length,
        ok: false,
        error: `line too long (${long.length} bytes); not parsed`,
      },
      { line: 2, offset: long.length + 1, length: 8, ok: true, value: { ok: 1 } },
      {
        line: 3,
        offset: long.length + 10,
        length: long.length,
        ok: false,
        error: `line too long (${long.length} bytes); not parsed`,
      },
    ]);
  });
});

// A fixed text that exercises every rule at once; chunking must never change the items.
const TRICKY_TEXT = [
  '\ufeff{"bom": true}',
  '{"crlf": "ü"}\r',
  "",
  "   ",
  '{"py": [NaN, Infinity, -Infinity], "s": "NaN"}',
  "broken {",
  '{"emoji": "🎉🎉"}\r',
  '{"last": "no newline"}',
].join("\n");
const TRICKY_BYTES = new Uint8Array([...encoder.encode(TRICKY_TEXT), 0x0a, 0xc3, 0x28, 0x0a, 0x7b, 0x7d]);

describe("readJsonl chunking", () => {
  it("gives identical items for every single split point", async () => {
    const reference = await collect(streamOf([TRICKY_BYTES]));
    expect(reference.map((i) => i.line)).toEqual([1, 2, 5, 6, 7, 8, 9, 10]);
    for (let cut = 0; cut <= TRICKY_BYTES.length; cut++) {
      expect(await collect(streamOf(chunked(TRICKY_BYTES, [cut])))).toEqual(reference);
    }
    const oneByteChunks = Array.from(TRICKY_BYTES, (b) => new Uint8Array([b]));
    expect(await collect(streamOf(oneByteChunks))).toEqual(reference);
  });

  it("gives identical items for random chunkings of random JSONL (property)", async () => {
    const lineArb = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom("", " ", "\r", "{bad", '{"n": NaN}', '"Infinity"', "-Infinity", "\ufeff{}"),
      fc.string({ unit: "grapheme" }),
    );
    const fileArb = fc
      .tuple(fc.array(lineArb, { maxLength: 12 }), fc.boolean(), fc.boolean())
      .map(([lines, crlf, bom]) => {
        const text = (bom ? "\ufeff" : "") + lines.join(crlf ? "\r\n" : "\n");
        return encoder.encode(text);
      });
    await fc.assert(
      fc.asyncProperty(
        fileArb,
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.boolean(),
        async (bytes, cuts, keepBytes) => {
          const whole = await collect(streamOf([bytes]), { keepBytes });
          const pieces = await collect(streamOf(chunked(bytes, cuts)), { keepBytes });
          expect(pieces).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("offsets and lengths slice back to each line's exact bytes (property)", async () => {
    const lineArb = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom("", "x", "\r", '{"a":"é"}'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { maxLength: 10 }), fc.boolean(), async (lines, crlf) => {
        const bytes = encoder.encode(lines.join(crlf ? "\r\n" : "\n"));
        const items = await collect(streamOf(chunked(bytes, [3, 17, 40])), { keepBytes: true });
        for (const item of items) {
          const slice = bytes.subarray(item.offset, item.offset + item.length);
          expect(item.bytes).toEqual(slice);
          const original = lines[item.line - 1]!;
          expect(new TextDecoder().decode(slice)).toBe(crlf ? original : original.replace(/\r$/, ""));
        }
        const nonBlank = lines.filter((l) => l.trim() !== "").length;
        expect(items).toHaveLength(nonBlank);
      }),
      { numRuns: 300 },
    );
  });
});

describe("jsonlItemsOf (bytes held whole)", () => {
  it("gives readJsonl's items, ASCII or not, with a BOM, invalid UTF-8 and lines too long (property)", async () => {
    const lineArb = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom(
        "",
        " ",
        "\t",
        "\r",
        " \r",
        "{bad",
        '{"n": NaN}',
        "-Infinity",
        '{"a":"é"}',
        "x".repeat(40),
      ),
      fc.string({ unit: "grapheme-ascii" }),
      fc.string({ unit: "grapheme" }),
    );
    const fileArb = fc
      .tuple(fc.array(lineArb, { maxLength: 12 }), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean())
      .map(([lines, crlf, bom, invalid, lastBreak]) => {
        const text = (bom ? "\ufeff" : "") + lines.join(crlf ? "\r\n" : "\n") + (lastBreak ? "\n" : "");
        const bytes = encoder.encode(text);
        if (!invalid || bytes.length === 0) return bytes;
        const broken = bytes.slice();
        broken[Math.floor(broken.length / 2)] = 0xff;
        return broken;
      });
    await fc.assert(
      fc.asyncProperty(fileArb, fc.constantFrom(16, 1000), async (bytes, maxLineBytes) => {
        const streamed = await collect(streamOf([bytes]), { gzip: false, maxLineBytes });
        expect([...jsonlItemsOf(bytes, maxLineBytes)]).toEqual(streamed);
      }),
      { numRuns: 500 },
    );
    expect([...jsonlItemsOf(TRICKY_BYTES)]).toEqual(await collect(streamOf([TRICKY_BYTES])));
  });
});

describe("readJsonl gzip", () => {
  const text = '{"a":1}\n\n{"b":NaN}\nbad\n{"c":"ü"}';

  it("detects gzip by its magic bytes and reports decompressed offsets", async () => {
    const plain = await readText(text);
    const gz = gzipSync(Buffer.from(text));
    expect(await collect(streamOf(chunked(new Uint8Array(gz), [1, 5])))).toEqual(plain);
    expect(plain.map((i) => i.line)).toEqual([1, 3, 4, 5]);
  });

  it("reports compressed bytes consumed through onProgress", async () => {
    const gz = new Uint8Array(gzipSync(Buffer.from(text)));
    const progress: number[] = [];
    await collect(streamOf(chunked(gz, [10, 20])), { onProgress: (n) => progress.push(n) });
    expect(progress).toEqual([10, 20, gz.length]);
  });

  it("gzip: false reads gzip bytes as text (lines fail, nothing throws)", async () => {
    const gz = new Uint8Array(gzipSync(Buffer.from('{"a":1}')));
    const items = await collect(streamOf([gz]), { gzip: false });
    expect(items.every((i) => !i.ok)).toBe(true);
  });

  it("gzip: true on plain text throws a GzipError of kind header", async () => {
    await expect(readText('{"a":1}\n', { gzip: true })).rejects.toMatchObject({
      name: "GzipError",
      kind: "header",
    });
  });

  it("a truncated gzip stream yields the complete lines, then throws", async () => {
    const many = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ i, pad: "x".repeat(i % 50) })).join(
      "\n",
    );
    const gz = new Uint8Array(gzipSync(Buffer.from(many)));
    const seen: number[] = [];
    const run = async () => {
      for await (const item of readJsonl(streamOf([gz.subarray(0, Math.floor(gz.length * 0.6))]))) {
        if (item.ok) seen.push(item.line);
      }
    };
    await expect(run()).rejects.toMatchObject({ kind: "truncated", offset: Math.floor(gz.length * 0.6) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
  });
});

describe("readJsonl abort and release", () => {
  it("throws an AbortError and cancels the source when aborted mid-read", async () => {
    let cancelled = false;
    let served = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        served++;
        controller.enqueue(encoder.encode(`{"n":${served}}\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const lines: number[] = [];
    const run = async () => {
      for await (const item of readJsonl(endless, { signal: controller.signal })) {
        lines.push(item.line);
        if (item.line === 3) controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: "AbortError" });
    expect(lines).toEqual([1, 2, 3]);
    expect(cancelled).toBe(true);
    expect(endless.locked).toBe(false);
  });

  it("an abort interrupts a read that is waiting for data", async () => {
    let cancelled = false;
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"a":1}\n{"b":'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const iterator = readJsonl(stalled, { signal: controller.signal });
    expect((await iterator.next()).value).toMatchObject({ line: 1, ok: true });
    const pending = iterator.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(cancelled).toBe(true);
  });

  it("an already-aborted signal throws before reading", async () => {
    const source = streamOf([encoder.encode("{}\n")]);
    await expect(collect(source, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(source.locked).toBe(false);
  });

  it("breaking out of the loop cancels the source and unlocks it", async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encoder.encode("{}\n{}\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const _item of readJsonl(source)) break;
    expect(cancelled).toBe(true);
    expect(source.locked).toBe(false);
  });

  it("rethrows the source's own error", async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode("{}\n"));
      },
      pull(controller) {
        controller.error(new Error("disk on fire"));
      },
    });
    await expect(collect(failing)).rejects.toThrow("disk on fire");
  });
});

describe("readJsonl on the real Gym fixture", () => {
  const path = "fixtures/nemo-gym/resources_servers/workplace_assistant/data/example_rollouts.jsonl";

  it("reads all 5 rollouts of example_rollouts.jsonl (no trailing newline) with exact offsets", async () => {
    const bytes = new Uint8Array(readFileSync(path));
    expect(bytes[bytes.length - 1]).not.toBe(0x0a);
    const items = await collect(streamOf(chunked(bytes, [65536, 131072])), { keepBytes: true });
    expect(items.map((i) => i.line)).toEqual([1, 2, 3, 4, 5]);
    const last = items[4]!;
    expect(last.offset + last.length).toBe(bytes.length);
    const text = new TextDecoder().decode(bytes);
    const expected = text.split("\n").map((line) => JSON.parse(line));
    for (const [index, item] of items.entries()) {
      expect(item.ok).toBe(true);
      if (item.ok) expect(item.value).toEqual(expected[index]);
      expect(item.bytes).toEqual(bytes.subarray(item.offset, item.offset + item.length));
    }
  });
});

describe("firstInvalidUtf8", () => {
  it.each([
    [[0x61, 0xc3, 0xa9], -1],
    [[0x61, 0xc0, 0xaf], 1], // overlong "/"
    [[0xed, 0xa0, 0x80], 0], // UTF-16 surrogate
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0x61, 0x62, 0xe2, 0x82], 2], // truncated at the end
    [[0x80], 0], // lone continuation byte
  ])("%j -> %i", (bytes, expected) => {
    expect(firstInvalidUtf8(new Uint8Array(bytes))).toBe(expected);
    // Cross-check with the platform's own strict decoder.
    const valid = (() => {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
        return true;
      } catch {
        return false;
      }
    })();
    expect(valid).toBe(expected === -1);
  });
});
