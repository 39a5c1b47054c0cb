/**
 * Text search over a file's raw bytes, as the pool runs it: the file's rollout lines are cut into byte
 * ranges at line boundaries (so no match can straddle two jobs), and each range is scanned without
 * decoding it to a string when the text is ASCII: an anchor byte of the text, the rarest in a sample of
 * the range, is found with the engine's native `indexOf`, and only there is the whole text compared.
 * Case-insensitive like the regex it replaces (`/text/i` without the u flag folds ASCII letters only, and
 * never maps a non-ASCII character to an ASCII one), so both find the same lines.
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
 * Offsets (relative to `bytes`) of the first match in each line of `bytes` that holds `text`,
 * case-insensitively. `bytes` holds whole lines.
 */
export function findInLines(bytes: Uint8Array, text: string): number[] {
  if (text === "") return [];
  return isAscii(text) ? findAscii(bytes, text) : findDecoded(bytes, text);
}

function findAscii(bytes: Uint8Array, text: string): number[] {
  const needle = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) needle[i] = lower(text.charCodeAt(i));
  const length = needle.length;
  const anchor = anchorOf(needle, bytes.subarray(0, ANCHOR_SAMPLE_BYTES));
  const variants = [...new Set([lower(needle[anchor] ?? 0), upper(needle[anchor] ?? 0)])];
  const matchesAt = (start: number): boolean => {
    if (start < 0 || start + length > bytes.length) return false;
    for (let i = 0; i < length; i++) if (lower(bytes[start + i] ?? 0) !== needle[i]) return false;
    return true;
  };
  const hits: number[] = [];
  // The next occurrence of each case of the anchor byte; the smaller one is tried first.
  const next = variants.map((byte) => bytes.indexOf(byte, anchor));
  for (;;) {
    let which = -1;
    for (let v = 0; v < next.length; v++) {
      const at = next[v] ?? -1;
      if (at !== -1 && (which === -1 || at < (next[which] ?? 0))) which = v;
    }
    if (which === -1) break;
    const at = next[which] ?? 0;
    const start = at - anchor;
    if (matchesAt(start)) {
      hits.push(start);
      // One hit per line: go on after the line's end.
      const newline = bytes.indexOf(LF, start + length);
      if (newline === -1) break;
      // A variant already found past the line (or found nowhere further) keeps its position: searching
      // again from each line would rescan the rest of the range once per hit.
      const from = newline + 1 + anchor;
      for (let v = 0; v < next.length; v++) {
        const at = next[v] ?? -1;
        if (at !== -1 && at < from) next[v] = bytes.indexOf(variants[v] ?? 0, from);
      }
    } else {
      next[which] = bytes.indexOf(variants[which] ?? 0, at + 1);
    }
  }
  return hits;
}

const decoder = new TextDecoder();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Non-ASCII text: the bytes are decoded and searched with a case-insensitive regex. */
function findDecoded(bytes: Uint8Array, text: string): number[] {
  const decoded = decoder.decode(bytes);
  const pattern = new RegExp(escapeRegExp(text), "gi");
  const hits: number[] = [];
  // Offsets come back in bytes: the encoder measures the UTF-8 length of the text before each hit.
  const encoder = new TextEncoder();
  let charsSeen = 0;
  let bytesSeen = 0;
  for (let match = pattern.exec(decoded); match !== null; match = pattern.exec(decoded)) {
    bytesSeen += encoder.encode(decoded.slice(charsSeen, match.index)).length;
    charsSeen = match.index;
    hits.push(bytesSeen);
    const newline = decoded.indexOf("\n", match.index);
    if (newline === -1) break;
    pattern.lastIndex = newline + 1;
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

function trigramHashes(trigram: number): [number, number] {
  const h1 = Math.imul(trigram, 0x9e3779b1) >>> 0;
  const h2 = Math.imul(trigram ^ (trigram >>> 11), 0x85ebca6b) >>> 0;
  return [h1 >>> 7, h2 >>> 9];
}

/** The filter of one line's bytes: a power-of-two number of bits, two per trigram. */
export function lineFilter(bytes: Uint8Array): Uint8Array {
  let bits = FILTER_MIN_BITS;
  while (bits * 2 <= Math.min(FILTER_MAX_BITS, bytes.length * FILTER_BITS_PER_BYTE)) bits *= 2;
  const filter = new Uint8Array(bits >>> 3);
  const mask = bits - 1;
  let trigram = 0;
  for (let i = 0; i < bytes.length; i++) {
    trigram = ((trigram << 8) | lower(bytes[i] ?? 0)) & 0xffffff;
    if (i < 2) continue;
    const h1 = (Math.imul(trigram, 0x9e3779b1) >>> 7) & mask;
    const h2 = (Math.imul(trigram ^ (trigram >>> 11), 0x85ebca6b) >>> 9) & mask;
    filter[h1 >>> 3] = (filter[h1 >>> 3] ?? 0) | (1 << (h1 & 7));
    filter[h2 >>> 3] = (filter[h2 >>> 3] ?? 0) | (1 << (h2 & 7));
  }
  return filter;
}

/** The hashed trigrams of a search text, or null when filters cannot answer for it (non-ASCII, < 3 bytes). */
export type FilterProbe = readonly (readonly [number, number])[];

export function filterProbe(text: string): FilterProbe | null {
  if (text.length < 3 || !isAscii(text)) return null;
  const probe = new Map<number, [number, number]>();
  for (let i = 2; i < text.length; i++) {
    const trigram =
      (lower(text.charCodeAt(i - 2)) << 16) |
      (lower(text.charCodeAt(i - 1)) << 8) |
      lower(text.charCodeAt(i));
    probe.set(trigram, trigramHashes(trigram));
  }
  return [...probe.values()];
}

/** False only when the line cannot contain the text. */
export function mayContain(filter: Uint8Array, probe: FilterProbe): boolean {
  const mask = filter.length * 8 - 1;
  for (const [a, b] of probe) {
    const h1 = a & mask;
    const h2 = b & mask;
    if (((filter[h1 >>> 3] ?? 0) & (1 << (h1 & 7))) === 0) return false;
    if (((filter[h2 >>> 3] ?? 0) & (1 << (h2 & 7))) === 0) return false;
  }
  return true;
}
