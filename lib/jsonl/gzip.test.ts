import { constants, gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GzipError, gunzip, gunzipIfGzip, INFLATE_INPUT_SLICE } from "./gzip";
import { readJsonl } from "./read";

const encoder = new TextEncoder();

function gz(text: string | Uint8Array): Uint8Array {
  return new Uint8Array(gzipSync(typeof text === "string" ? encoder.encode(text) : text));
}

function cat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `bytes` cut at the given offsets. */
function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.filter((n) => n > 0 && n < bytes.length))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(start, p));
    start = p;
  }
  return out;
}

async function* iterate(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

/** Decompressed text and the error (if any) the decoder ended with. */
async function decode(chunks: Uint8Array[]): Promise<{ text: string; error: GzipError | null }> {
  const parts: Uint8Array[] = [];
  try {
    for await (const chunk of gunzip(iterate(chunks))) parts.push(chunk);
  } catch (error) {
    if (!(error instanceof GzipError)) throw error;
    return { text: new TextDecoder().decode(cat(...parts)), error };
  }
  return { text: new TextDecoder().decode(cat(...parts)), error: null };
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
}

const lines = (n: number, tag = "r") =>
  `${Array.from({ length: n }, (_, i) => JSON.stringify({ tag, i, pad: "x".repeat(i % 37) })).join("\n")}\n`;

describe("gunzip: multi-member streams", () => {
  it("decodes every member of `cat a.gz b.gz c.gz`, whatever the chunking", async () => {
    const a = lines(50, "a");
    const b = lines(70, "b");
    const c = lines(3, "c");
    const file = cat(gz(a), gz(b), gz(c));
    const boundary = gz(a).length;
    for (const at of [
      [],
      [boundary],
      [boundary - 1],
      [boundary + 1],
      [1, 2, 3, 10],
      [boundary, boundary + 10],
    ]) {
      const { text, error } = await decode(cut(file, at));
      expect(error).toBeNull();
      expect(text).toBe(a + b + c);
    }
  });

  it("decodes a bgzip-like file: one member per line and an empty end-of-file member", async () => {
    const rows = lines(200).split("\n").slice(0, -1);
    const file = cat(...rows.map((r) => gz(`${r}\n`)), gz(""));
    const { text, error } = await decode([file]);
    expect(error).toBeNull();
    expect(text).toBe(rows.map((r) => `${r}\n`).join(""));
  });

  it("ignores zero padding after the last member, but not data after the padding", async () => {
    const file = cat(gz("a\n"), new Uint8Array(1000));
    expect(await decode([file])).toEqual({ text: "a\n", error: null });
    const bad = cat(gz("a\n"), new Uint8Array(10), new Uint8Array([7]));
    const { text, error } = await decode(cut(bad, [gz("a\n").length + 3]));
    expect(text).toBe("a\n");
    expect(error).toMatchObject({ kind: "header", offset: bad.length - 1 });
  });

  it("property: any split into members and any chunking decodes to the original", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "grapheme", maxLength: 300 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(4000), { maxLength: 8 }),
        async (members, at) => {
          const file = cat(...members.map((m) => gz(m)));
          const { text, error } = await decode(cut(file, at));
          expect(error).toBeNull();
          expect(text).toBe(members.join(""));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("gunzip: damage keeps everything before it and says what and where", () => {
  const text = lines(3000);
  const good = gz(text);

  it("truncated: every byte decoded before the end, then kind truncated at the end offset", async () => {
    for (const keep of [0.3, 0.6, 0.99]) {
      const cutAt = Math.floor(good.length * keep);
      const { text: got, error } = await decode([good.subarray(0, cutAt)]);
      expect(text.startsWith(got)).toBe(true);
      expect(got.length).toBeGreaterThan(0);
      expect(error).toMatchObject({ kind: "truncated", offset: cutAt, member: 1 });
      expect(error?.message).toBe(
        `damaged gzip data at byte ${cutAt} (member 1): the file ends in the middle of a member (truncated); lines before it were read`,
      );
    }
  });

  it("a file that ends inside its trailer is truncated, with all data decoded", async () => {
    const { text: got, error } = await decode([good.subarray(0, good.length - 3)]);
    expect(got).toBe(text);
    expect(error?.kind).toBe("truncated");
  });

  it("a damaged CRC-32 or length trailer: all the data, then kind checksum at the trailer", async () => {
    for (const [at, what] of [
      [good.length - 8, "CRC-32"],
      [good.length - 2, "length"],
    ] as const) {
      const bad = good.slice();
      bad[at] = bad[at]! ^ 0xff;
      const { text: got, error } = await decode([bad]);
      expect(got).toBe(text);
      expect(error).toMatchObject({ kind: "checksum", member: 1 });
      expect(error?.offset).toBeGreaterThanOrEqual(good.length - 8);
      expect(error?.message).toContain(`${what} check failed`);
    }
  });

  it("damage in the second member keeps the whole first member", async () => {
    const first = lines(10, "first");
    const a = gz(first);
    const b = gz(lines(10, "second"));
    b[b.length - 6] = b[b.length - 6]! ^ 0x55;
    const { text: got, error } = await decode([cat(a, b)]);
    expect(got.startsWith(first)).toBe(true);
    expect(error).toMatchObject({ kind: "checksum", member: 2 });
  });

  it("damaged deflate data: the bytes before it, then kind data or checksum", async () => {
    const bad = good.slice();
    for (let i = Math.floor(bad.length / 2); i < Math.floor(bad.length / 2) + 40; i++) bad[i] = 0xff;
    const { text: got, error } = await decode([bad]);
    // What follows the damage may decode to garbage before zlib notices; what precedes it is exact.
    let same = 0;
    while (same < got.length && got[same] === text[same]) same++;
    expect(same).toBeGreaterThan(text.length / 3);
    expect(["data", "checksum"]).toContain(error?.kind);
    expect(error?.offset).toBeGreaterThan(bad.length / 2 - 1);
  });

  it("bytes that are not gzip: kind header at byte 0", async () => {
    const { error } = await decode([encoder.encode('{"a":1}\n')]);
    expect(error).toMatchObject({ kind: "header", offset: expect.any(Number), member: 1 });
    expect(error?.message).toMatch(
      /^damaged gzip data at byte \d+ \(member 1\): no valid gzip header \(incorrect header check\)$/,
    );
  });

  it("empty input is truncated at byte 0", async () => {
    expect((await decode([])).error).toMatchObject({ kind: "truncated", offset: 0 });
  });
});

describe("gunzip: bounded output per step", () => {
  it("hands a highly compressible stream over in bounded chunks", async () => {
    const zeros = new Uint8Array(64 * 1024 * 1024);
    const bomb = new Uint8Array(gzipSync(zeros, { level: constants.Z_BEST_COMPRESSION }));
    expect(bomb.length).toBeLessThan(INFLATE_INPUT_SLICE * 2);
    let total = 0;
    let largest = 0;
    for await (const chunk of gunzip(iterate([bomb]))) {
      total += chunk.length;
      largest = Math.max(largest, chunk.length);
    }
    expect(total).toBe(zeros.length);
    expect(largest).toBeLessThanOrEqual(256 * 1024);
  });
});

describe("gunzipIfGzip", () => {
  it("passes plain bytes through and decompresses gzip, even with a 1-byte first chunk", async () => {
    const collect = async (chunks: Uint8Array[]) => {
      const parts: Uint8Array[] = [];
      for await (const c of gunzipIfGzip(iterate(chunks))) parts.push(c);
      return new TextDecoder().decode(cat(...parts));
    };
    expect(await collect([encoder.encode("plain\n")])).toBe("plain\n");
    expect(await collect(cut(gz("zipped\n"), [1, 2]))).toBe("zipped\n");
    expect(await collect(cut(cat(gz("a\n"), gz("b\n")), [1]))).toBe("a\nb\n");
    expect(await collect([])).toBe("");
  });
});

describe("readJsonl over damaged gzip keeps every complete line", () => {
  it("a bad-CRC file yields every line, the last one included, then throws a GzipError", async () => {
    const text = lines(500);
    const bad = gz(text);
    bad[bad.length - 8] = bad[bad.length - 8]! ^ 1;
    const seen: number[] = [];
    let caught: unknown = null;
    try {
      for await (const item of readJsonl(streamOf(bad))) if (item.ok) seen.push(item.line);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(caught).toBeInstanceOf(GzipError);
    expect(caught).toMatchObject({ kind: "checksum" });
  });

  it("a bad-CRC file without a final newline still yields its last line (the issue's resolve/verify loss)", async () => {
    const text = lines(20).slice(0, -1);
    const bad = gz(text);
    bad[bad.length - 7] = bad[bad.length - 7]! ^ 4;
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of readJsonl(streamOf(bad))) if (item.ok) seen.push(item.line);
      })(),
    ).rejects.toMatchObject({ kind: "checksum" });
    expect(seen).toHaveLength(20);
  });

  it("a truncated file does not give its cut last line as a line", async () => {
    const full = gz(lines(20));
    const items = [];
    for await (const item of readJsonl(streamOf(full.subarray(0, full.length - 12)), { gzipDamage: "item" }))
      items.push(item);
    expect(items.filter((i) => i.ok)).toHaveLength(19);
    expect(items.at(-1)).toMatchObject({ ok: false, line: 20, error: expect.stringMatching(/truncated/) });
  });

  it("a multi-member file reads as one file, line numbers running on", async () => {
    const file = cat(gz(lines(3, "a")), gz(lines(4, "b")));
    const items: number[] = [];
    for await (const item of readJsonl(streamOf(file))) if (item.ok) items.push(item.line);
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("readJsonl gzipDamage: item", () => {
  it("ends with one error item for the cut line instead of throwing", async () => {
    const text = lines(2000);
    const full = gz(text);
    const cutAt = Math.floor(full.length * 0.5);
    const items = [];
    for await (const item of readJsonl(streamOf(full.subarray(0, cutAt)), { gzipDamage: "item" }))
      items.push(item);
    const last = items.at(-1)!;
    const good = items.slice(0, -1);
    expect(good.every((i) => i.ok)).toBe(true);
    expect(good.map((i) => i.line)).toEqual(Array.from({ length: good.length }, (_, i) => i + 1));
    expect(last).toMatchObject({
      ok: false,
      line: good.length + 1,
      length: 0,
      error: expect.stringMatching(
        new RegExp(`^damaged gzip data at byte ${cutAt} \\(member 1\\): .*truncated`),
      ),
    });
    // The cut line's offset is where its bytes start in the decompressed text.
    expect(last.offset).toBe(text.split("\n").slice(0, good.length).join("\n").length + 1);
  });
});
