/**
 * Locates the top-level members of one JSON object line, as byte spans of the original line.
 *
 * It works on bytes, not on a decoded string: JSON's structural characters are ASCII, so UTF-8
 * multi-byte sequences (even invalid ones) never look structural, and a splice keeps every other
 * byte exactly as read. Scalars are not interpreted: `1.0`, `1e5`, `NaN`, `-Infinity` are opaque
 * tokens, which is what keeps number formatting intact on export.
 */

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** One top-level member. Offsets are byte offsets into the scanned line; ends are exclusive. */
export interface MemberSpan {
  /** The decoded key. */
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly valueStart: number;
  readonly valueEnd: number;
}

export interface ObjectSpans {
  /** Offset of the opening `{`. */
  readonly open: number;
  /** Offset of the closing `}`. */
  readonly close: number;
  readonly members: readonly MemberSpan[];
  /** Text between a key and its value (e.g. `": "`), taken from the first member. */
  readonly keySeparator: string | null;
  /** Text between a value and the next key (e.g. `", "`), taken from the first two members. */
  readonly itemSeparator: string | null;
}

export type ScanResult =
  | { readonly ok: true; readonly spans: ObjectSpans }
  | { readonly ok: false; readonly error: string };

class ScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function isWhitespace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

function skipWhitespace(bytes: Uint8Array, pos: number): number {
  let p = pos;
  while (p < bytes.length && isWhitespace(bytes[p])) p++;
  return p;
}

/** `pos` is at the opening quote; returns the offset just past the closing quote. */
function skipString(bytes: Uint8Array, pos: number): number {
  let p = pos + 1;
  while (p < bytes.length) {
    const b = bytes[p];
    if (b === BACKSLASH) p += 2;
    else if (b === QUOTE) return p + 1;
    else p++;
  }
  throw new ScanError("unterminated string", pos);
}

/** Skips one value of any kind; returns the offset just past it. Iterative, so deep nesting is fine. */
function skipValue(bytes: Uint8Array, pos: number): number {
  const first = bytes[pos];
  if (first === QUOTE) return skipString(bytes, pos);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    let p = pos;
    while (p < bytes.length) {
      const b = bytes[p];
      if (b === QUOTE) {
        p = skipString(bytes, p);
        continue;
      }
      if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return p + 1;
      }
      p++;
    }
    throw new ScanError("unterminated object or array", pos);
  }
  // A bare token: number, true/false/null, or Python's NaN / Infinity / -Infinity.
  let p = pos;
  while (p < bytes.length) {
    const b = bytes[p];
    if (isWhitespace(b) || b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET || b === COLON) break;
    p++;
  }
  if (p === pos) throw new ScanError("expected a value", pos);
  return p;
}

const decoder = new TextDecoder();

function decodeKey(bytes: Uint8Array, start: number, end: number): string {
  const parsed: unknown = JSON.parse(decoder.decode(bytes.subarray(start, end)));
  if (typeof parsed !== "string") throw new ScanError("key is not a string", start);
  return parsed;
}

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/** Scans one line (without its line terminator) that holds a single JSON object. */
export function scanObjectLine(bytes: Uint8Array): ScanResult {
  try {
    return { ok: true, spans: scan(bytes) };
  } catch (error) {
    if (error instanceof ScanError) return { ok: false, error: `${error.message} at byte ${error.offset}` };
    if (error instanceof SyntaxError) return { ok: false, error: `bad key: ${error.message}` };
    throw error;
  }
}

function scan(bytes: Uint8Array): ObjectSpans {
  let p = skipWhitespace(bytes, startsWithBom(bytes) ? UTF8_BOM.length : 0);
  if (bytes[p] !== OPEN_BRACE) throw new ScanError("expected '{'", p);
  const open = p;
  p = skipWhitespace(bytes, p + 1);
  const members: MemberSpan[] = [];
  let keySeparator: string | null = null;
  let itemSeparator: string | null = null;
  if (bytes[p] === CLOSE_BRACE) return finish(bytes, open, p, members, keySeparator, itemSeparator);
  for (;;) {
    const itemSepStart = members.length === 1 ? members[0]!.valueEnd : -1;
    p = skipWhitespace(bytes, p);
    if (bytes[p] !== QUOTE) throw new ScanError("expected a key", p);
    const keyStart = p;
    const keyEnd = skipString(bytes, p);
    if (itemSepStart >= 0) itemSeparator = decoder.decode(bytes.subarray(itemSepStart, keyStart));
    p = skipWhitespace(bytes, keyEnd);
    if (bytes[p] !== COLON) throw new ScanError("expected ':'", p);
    const valueStart = skipWhitespace(bytes, p + 1);
    if (members.length === 0) keySeparator = decoder.decode(bytes.subarray(keyEnd, valueStart));
    const valueEnd = skipValue(bytes, valueStart);
    members.push({ key: decodeKey(bytes, keyStart, keyEnd), keyStart, keyEnd, valueStart, valueEnd });
    p = skipWhitespace(bytes, valueEnd);
    if (bytes[p] === COMMA) {
      p++;
      continue;
    }
    if (bytes[p] === CLOSE_BRACE) return finish(bytes, open, p, members, keySeparator, itemSeparator);
    throw new ScanError("expected ',' or '}'", p);
  }
}

function finish(
  bytes: Uint8Array,
  open: number,
  close: number,
  members: MemberSpan[],
  keySeparator: string | null,
  itemSeparator: string | null,
): ObjectSpans {
  const rest = skipWhitespace(bytes, close + 1);
  if (rest !== bytes.length) throw new ScanError("unexpected text after the object", rest);
  return { open, close, members, keySeparator, itemSeparator };
}
