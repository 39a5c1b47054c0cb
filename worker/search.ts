/**
 * Text search over a file's raw bytes, as the pool runs it: the file's rollout lines are cut into byte
 * ranges at line boundaries (so no match can straddle two jobs), and each job scans only its candidate lines,
 * each up to its first match, without decoding them when the text's case folds only in ASCII letters: an
 * anchor byte of the text (UTF-8), the rarest in a sample of the range, is found with the engine's native
 * `indexOf`, and only there is the whole text compared. Case-insensitive like the regex it replaces (`/text/i`
 * without the u flag folds ASCII letters alike and never maps a non-ASCII character to an ASCII one); text
 * with a case beyond ASCII (é, µ) is matched by that regex over each decoded line. Both find the same lines.
 */

const LF = 0x0a;
/** Bytes sampled at a range's start to pick the anchor byte (the rarest of the text's bytes there). */
export const ANCHOR_SAMPLE_BYTES = 64 * 1024;

/** A rollout line's bytes, absolute in the (decompressed) file, and the Blob part holding them. */
export interface LineSpan<P> {
  readonly line: number;
  readonly start: number;
  readonly end: number;
  readonly part: P;
}

/** A run of consecutive lines within one part, at most `maxBytes` long unless a single line is longer. */
export interface SearchRange<P> {
  readonly part: P;
  readonly start: number;
  readonly end: number;
}

/**
 * Groups lines (in file order) into ranges: cut only between lines, never across a part, and (when only some
 * lines are searched) not over more than `maxGap` bytes of lines left out.
 */
export function splitRanges<P>(
  spans: Iterable<LineSpan<P>>,
  maxBytes: number,
  maxGap = Number.POSITIVE_INFINITY,
  first: { readonly count: number; readonly maxBytes: number } = { count: 0, maxBytes },
): SearchRange<P>[] {
  const ranges: SearchRange<P>[] = [];
  let open: { part: P; start: number; end: number } | null = null;
  for (const span of spans) {
    // The first few ranges may be smaller (the first matches come back sooner).
    const limit = ranges.length < first.count ? first.maxBytes : maxBytes;
    if (
      open &&
      open.part === span.part &&
      span.end - open.start <= limit &&
      span.start - open.end <= maxGap
    ) {
      open.end = span.end;
      continue;
    }
    if (open) ranges.push(open);
    open = { part: span.part, start: span.start, end: span.end };
  }
  if (open) ranges.push(open);
  return ranges;
}

/** The line whose span holds offset `at` (binary search over spans in file order), or null. */
export function lineAt(spans: readonly LineSpan<unknown>[], at: number): number | null {
  let low = 0;
  let high = spans.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const candidate = spans[mid];
    if (!candidate) return null;
    if (at < candidate.start) high = mid - 1;
    else if (at >= candidate.end) low = mid + 1;
    else return candidate.line;
  }
  return null;
}

/**
 * The lines of `spans` (in file order) that lie within `range`, as [start, end) pairs relative to the range's
 * start: what a search job scans (findInLines), leaving out the bytes of lines a filter ruled out.
 */
export function linesWithin(spans: readonly LineSpan<unknown>[], range: SearchRange<unknown>): number[] {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((spans[mid]?.start ?? 0) < range.start) low = mid + 1;
    else high = mid;
  }
  const out: number[] = [];
  for (let i = low; i < spans.length; i++) {
    const span = spans[i];
    if (!span || span.end > range.end) break;
    if (span.part === range.part) out.push(span.start - range.start, span.end - range.start);
  }
  return out;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function lower(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}

function upper(byte: number): number {
  return byte >= 0x61 && byte <= 0x7a ? byte - 0x20 : byte;
}

/** The position in `needle` whose byte (either case) is rarest in the sample. */
function anchorOf(needle: Uint8Array, sample: Uint8Array): number {
  const counts = new Uint32Array(256);
  for (const byte of sample) counts[byte] = (counts[byte] ?? 0) + 1;
  let best = 0;
  let bestCount = Number.POSITIVE_INFINITY;
  for (let i = 0; i < needle.length; i++) {
    const byte = needle[i] ?? 0;
    const low = lower(byte);
    const up = upper(byte);
    const count = (counts[low] ?? 0) + (low === up ? 0 : (counts[up] ?? 0));
    if (count < bestCount) {
      best = i;
      bestCount = count;
    }
  }
  return best;
}

/**
 * True when a case-insensitive regex (`/text/i`, no u flag) matches `text` only where its UTF-8 bytes are,
 * ASCII letters of either case aside: then the bytes can be searched without decoding. Every ASCII code unit
 * qualifies (such a regex never matches a non-ASCII character to an ASCII one); a non-ASCII one must have no
 * case (it is its own upper and lower case, so no other character folds to it: search.test.ts checks this
 * over every UTF-16 code unit), be no half of a surrogate pair left alone (the regex could match half of a
 * character) and not U+FFFD (which a decoder writes for bytes that are not UTF-8).
 */
export function bytesAnswerFor(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x7f) continue;
    if (code === 0xfffd) return false;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
      continue;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return false;
    const char = text[i] ?? "";
    if (char.toUpperCase() !== char || char.toLowerCase() !== char) return false;
  }
  return true;
}

/** [start, end) of each line of `bytes` (split at line breaks): the lines of a range read whole. */
export function linesOf(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let start = 0;
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, start)) {
    out.push(start, at);
    start = at + 1;
  }
  out.push(start, bytes.length);
  return out;
}

/**
 * Offsets (relative to `bytes`) of the first match of `text` in each line, case-insensitively. `lines` holds
 * each line's [start, end) within `bytes`, in order (default: every line of `bytes`): the scan jumps from a
 * match to the next line's start, and never reads the bytes between lines (lines a search filter ruled out).
 */
export function findInLines(
  bytes: Uint8Array,
  text: string,
  lines: ArrayLike<number> = linesOf(bytes),
): number[] {
  if (text === "") return [];
  return bytesAnswerFor(text)
    ? findBytes(bytes, new TextEncoder().encode(text), lines)
    : findDecoded(bytes, text, lines);
}

/** The first `byte` in bytes[from, to), or -1 (indexOf on a view: it never reads past `to`). */
function indexWithin(bytes: Uint8Array, byte: number, from: number, to: number): number {
  if (from >= to) return -1;
  const at = bytes.subarray(from, to).indexOf(byte);
  return at === -1 ? -1 : from + at;
}

function findBytes(bytes: Uint8Array, encoded: Uint8Array, lines: ArrayLike<number>): number[] {
  // ASCII letters fold to lower case; bytes of other characters (all >= 0x80) compare as they are.
  const needle = encoded.map(lower);
  const length = needle.length;
  const anchor = anchorOf(needle, bytes.subarray(lines[0] ?? 0, (lines[0] ?? 0) + ANCHOR_SAMPLE_BYTES));
  const variants = [...new Set([lower(needle[anchor] ?? 0), upper(needle[anchor] ?? 0)])];
  const matchesAt = (start: number): boolean => {
    for (let i = 0; i < length; i++) if (lower(bytes[start + i] ?? 0) !== needle[i]) return false;
    return true;
  };
  const hits: number[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const start = lines[i] ?? 0;
    // Anchor positions a match within the line can have: [from, to).
    const to = (lines[i + 1] ?? 0) - length + anchor + 1;
    for (let from = start + anchor; from < to; ) {
      // The first anchor byte of either case: the second case is looked for only before the first's, so a
      // line is read up to its first match (a term in every rollout costs a few bytes of each line).
      let at = -1;
      for (const variant of variants) {
        const found = indexWithin(bytes, variant, from, at === -1 ? to : at);
        if (found !== -1) at = found;
      }
      if (at === -1) break;
      if (matchesAt(at - anchor)) {
        hits.push(at - anchor);
        break;
      }
      from = at + 1;
    }
  }
  return hits;
}

const decoder = new TextDecoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Text whose case folds beyond ASCII: each line is decoded and searched with a case-insensitive regex. The
 * offset is the match's when the line is UTF-8 (the text before it, encoded again, is its bytes), else the
 * line's start (bytes that are not UTF-8 decode to U+FFFD, which encodes to three bytes).
 */
function findDecoded(bytes: Uint8Array, text: string, lines: ArrayLike<number>): number[] {
  const pattern = new RegExp(escapeRegExp(text), "i");
  const encoder = new TextEncoder();
  const hits: number[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const start = lines[i] ?? 0;
    const raw = bytes.subarray(start, lines[i + 1] ?? 0);
    let line: string;
    let utf8 = true;
    try {
      line = strictDecoder.decode(raw);
    } catch {
      line = decoder.decode(raw);
      utf8 = false;
    }
    const match = pattern.exec(line);
    if (match) hits.push(start + (utf8 ? encoder.encode(line.slice(0, match.index)).length : 0));
  }
  return hits;
}

// ---------------------------------------------------------------------------------------------------------
// The search index: one Bloom filter of case-folded byte trigrams per rollout line, built by the pool while
// it computes the line's rewards (it reads the bytes then anyway). A search for ASCII text of 3 bytes or more
// reads only the lines whose filter may hold every trigram of the text; a Bloom filter has no false
// negatives, so no matching line is skipped, and the bytes of each candidate are still scanned.

/** Filter bits per line byte, before rounding down to a power of two: 1/2 bit per byte is 3-6% of the file. */
export const FILTER_BITS_PER_BYTE = 0.5;
export const FILTER_MIN_BITS = 512;
export const FILTER_MAX_BITS = 1 << 16;

/**
 * One hash per trigram, not two: building the filter reads every byte of the file, and a second hash doubled
 * that work. A text of n trigrams needs all n bits set, so a line's chance of passing falls with n whatever
 * the hash count (a generated 63 KB line's filter is ~10% set with one hash).
 */
function trigramHash(trigram: number): number {
  return Math.imul(trigram, 0x9e3779b1) >>> 7;
}

/** ASCII letters folded to lower case, every other byte as it is. */
const LOWER = Uint8Array.from({ length: 256 }, (_, byte) => lower(byte));

/** The filter of one line's bytes: a power-of-two number of bits, one per trigram. */
export function lineFilter(bytes: Uint8Array): Uint8Array {
  let bits = FILTER_MIN_BITS;
  while (bits * 2 <= Math.min(FILTER_MAX_BITS, bytes.length * FILTER_BITS_PER_BYTE)) bits *= 2;
  const filter = new Uint8Array(bits >>> 3);
  const mask = bits - 1;
  let trigram = 0;
  for (let i = 0; i < bytes.length; i++) {
    trigram = ((trigram << 8) | LOWER[bytes[i]!]!) & 0xffffff;
    if (i < 2) continue;
    const h = trigramHash(trigram) & mask;
    filter[h >>> 3]! |= 1 << (h & 7);
  }
  return filter;
}

/** The hashed trigrams of a search text, or null when filters cannot answer for it (non-ASCII, < 3 bytes). */
export type FilterProbe = readonly number[];

export function filterProbe(text: string): FilterProbe | null {
  if (text.length < 3 || !isAscii(text)) return null;
  const probe = new Set<number>();
  for (let i = 2; i < text.length; i++) {
    const trigram =
      (lower(text.charCodeAt(i - 2)) << 16) |
      (lower(text.charCodeAt(i - 1)) << 8) |
      lower(text.charCodeAt(i));
    probe.add(trigramHash(trigram));
  }
  return [...probe];
}

/** False only when the line cannot contain the text. */
export function mayContain(filter: Uint8Array, probe: FilterProbe): boolean {
  const mask = filter.length * 8 - 1;
  for (const hash of probe) {
    const h = hash & mask;
    if (((filter[h >>> 3] ?? 0) & (1 << (h & 7))) === 0) return false;
  }
  return true;
}
