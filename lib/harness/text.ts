/**
 * String primitives shared by the alias rules. JS harnesses replace per UTF-16 code unit (a regex
 * without the `u` flag); Python (Hermes) and Rust (Codex) harnesses replace per code point. The
 * difference shows on astral characters: `data😀` becomes `data__` in JS, `data_` in Python/Rust.
 */
import { sha1 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** Replace every code point for which `keep` is false with `replacement` (Python re.sub / Rust chars()). */
export function replacePerCodePoint(
  value: string,
  keep: (ch: string) => boolean,
  replacement: string,
): string {
  let out = "";
  for (const ch of value) out += keep(ch) ? ch : replacement;
  return out;
}

/** Keep-predicate for ASCII letters, digits and `_`. */
export function isWordAscii(ch: string): boolean {
  return /^[A-Za-z0-9_]$/.test(ch);
}

/** Lowercase hex SHA-1 of the UTF-8 bytes of `value`. */
export function sha1Hex(value: string): string {
  return bytesToHex(sha1(utf8ToBytes(value)));
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `value`. */
export function sha256Hex(value: string): string {
  return bytesToHex(sha256(utf8ToBytes(value)));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** First `max` UTF-16 units of `value`, never cutting a surrogate pair in half (OpenClaw truncateUtf16Safe). */
export function truncateUtf16Safe(value: string, max: number): string {
  const limit = Math.max(0, Math.floor(max));
  if (value.length <= limit) return value;
  const cut = limit > 0 && isHighSurrogate(value.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return value.slice(0, cut);
}

/** First `max` code points of `value` (Rust `chars().take(max)`). */
export function truncateCodePoints(value: string, max: number): string {
  return Array.from(value).slice(0, Math.max(0, max)).join("");
}

/** Length in code points (Python `len`). */
export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Length in UTF-8 bytes (Rust `str::len`). */
export function utf8Length(value: string): number {
  return utf8ToBytes(value).length;
}

/** Byte-wise UTF-8 order, i.e. code point order (Rust `String::cmp`), unlike JS `<` on UTF-16 units. */
export function compareCodePoints(a: string, b: string): number {
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}
