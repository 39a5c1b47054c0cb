import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  codePointLength,
  compareCodePoints,
  replacePerCodePoint,
  sha1Hex,
  sha256Hex,
  truncateCodePoints,
  truncateUtf16Safe,
  utf8Length,
} from "./text";

const nodeHash = (algo: string, s: string) => createHash(algo).update(s, "utf8").digest("hex");

describe("hashes", () => {
  it("agree with node:crypto on fixed inputs, including NUL separators and astral characters", () => {
    for (const s of ["", "mcp__github__create_issue", "foo-bar\0foo-bar\0", "data😀\0résumé"]) {
      expect(sha1Hex(s)).toBe(nodeHash("sha1", s));
      expect(sha256Hex(s)).toBe(nodeHash("sha256", s));
    }
  });

  it("agree with node:crypto on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        expect(sha1Hex(s)).toBe(nodeHash("sha1", s));
        expect(sha256Hex(s)).toBe(nodeHash("sha256", s));
      }),
    );
  });
});

describe("per-unit versus per-code-point replacement", () => {
  it("replaces an emoji once per code point, twice per UTF-16 unit", () => {
    expect(replacePerCodePoint("data😀", (c) => /^[a-z]$/.test(c), "_")).toBe("data_");
    expect("data😀".replace(/[^a-z]/g, "_")).toBe("data__");
  });

  it("measures lengths in the unit each language uses", () => {
    expect("data😀".length).toBe(6);
    expect(codePointLength("data😀")).toBe(5);
    expect(utf8Length("data😀")).toBe(8);
    expect(utf8Length("café")).toBe(5);
  });
});

describe("truncation", () => {
  it("never splits a surrogate pair (OpenClaw truncateUtf16Safe)", () => {
    expect(truncateUtf16Safe("ab😀c", 3)).toBe("ab");
    expect(truncateUtf16Safe("ab😀c", 4)).toBe("ab😀");
    expect(truncateUtf16Safe("abc", 10)).toBe("abc");
    expect(truncateUtf16Safe("abc", -1)).toBe("");
  });

  it("counts code points like Rust chars().take()", () => {
    expect(truncateCodePoints("😀😀😀", 2)).toBe("😀😀");
  });
});

describe("compareCodePoints", () => {
  it("orders by code point, where JS `<` on UTF-16 units puts U+FF5E after U+1F600", () => {
    const bmpHigh = "\uff5e";
    const astral = "😀";
    expect(bmpHigh < astral).toBe(false);
    expect(compareCodePoints(bmpHigh, astral)).toBe(-1);
    expect(compareCodePoints("a", "ab")).toBe(-1);
    expect(compareCodePoints("ab", "ab")).toBe(0);
    expect(compareCodePoints("b", "a")).toBe(1);
  });

  it("matches UTF-8 byte order on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => {
        const expected = Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
        expect(compareCodePoints(a, b)).toBe(expected);
      }),
    );
  });
});
