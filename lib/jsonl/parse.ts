/**
 * JSON parsing with Python's `json` leniency: the bare tokens `NaN`, `Infinity` and `-Infinity` are
 * accepted outside strings (Gym writes them through `json.dumps`) and come out as JS numbers.
 *
 * Valid JSON always goes through the native `JSON.parse` (fast path). Only when that fails does a small
 * strict-JSON parser that also knows the three tokens run, so a line costs one native parse in the
 * common case and the lenient parser decides both the value and the error message otherwise.
 */

export type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Deepest nesting of arrays/objects a line may have (bench/nesting.md, `npm run bench:nesting`):
 * - CPython 3.10 and 3.11 json (loads and dumps) stop at 993 levels, their recursion limit of 1000 less the
 *   frames below; the Gym server as run here (3.11) can neither write nor read a deeper line. 3.12 reaches
 *   1497 and 3.13 (Gym's pin) 9998.
 * - This tool cannot follow 3.13: a Chromium Web Worker's postMessage (a structured clone, how values move
 *   between the app's workers) overflows the stack beyond ~1865 levels, Node's structuredClone beyond
 *   ~1921, and every recursive walk after JSON.parse (canonicalize, verify, render) has its own ceiling. A
 *   deeper line would fail mid-pipeline with "Maximum call stack size exceeded"; checked at parse time it
 *   is one per-line error, in every front end alike. 1000 keeps ~1.8x headroom under the worker's limit.
 * So a line 1001 to 9998 levels deep, which Gym on Python 3.13 reads, is unreadable here, and says why.
 */
export const MAX_NESTING_DEPTH = 1_000;

/** Longest excerpt of the input quoted in an error message. */
const ERROR_EXCERPT_CHARS = 24;

/**
 * Thrown inside the lenient parser only and caught in parsePythonJson. Deliberately not an Error: an
 * Error captures a stack trace, which made every junk line cost tens of microseconds.
 */
class LenientSyntaxError {
  constructor(readonly message: string) {}
}

/** First characters a JSON value (or Python's NaN/Infinity/-Infinity) can start with. */
const VALUE_START = /^[\s]*[{["\-0-9tfnNI]/;

/** Parse one line's text as JSON, accepting Python's NaN/Infinity/-Infinity tokens outside strings. */
export function parseJsonLine(text: string): ParseResult {
  return parsePythonJson(text);
}

/**
 * A line read again after parseJsonLine accepted it (the detail pane reopening an indexed rollout): the
 * same value, without the nesting scan, which the first read did (a sixth of a 66 MB line's reparse).
 * Anything JSON.parse refuses goes through parseJsonLine, so Python's tokens and errors read as there.
 */
export function reparseJsonLine(text: string): ParseResult {
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value };
  } catch {
    return parseJsonLine(text);
  }
}

/** Same leniency for any JSON text (verifiers use it to emulate Python json.loads on tool arguments). */
export function parsePythonJson(text: string): ParseResult {
  // A line that cannot start a JSON value (log text, junk) skips the native parser, whose thrown
  // SyntaxError is the costly part of a bad line; the lenient parser below names the reason.
  if (VALUE_START.test(text)) {
    // Before the native parse, which would build the whole too-deep value first (a 50 MB line of
    // brackets took 26 s and 2.6 GB): the scan stops at the first bracket past the limit.
    const tooDeep = tooDeepAt(text, MAX_NESTING_DEPTH);
    if (tooDeep !== -1) return { ok: false, error: `invalid JSON: ${nestingMessage(tooDeep)}` };
    try {
      const value: unknown = JSON.parse(text);
      return { ok: true, value };
    } catch {
      // Fall through: the text may use Python's tokens, or be invalid; the lenient parser tells which.
    }
  }
  try {
    return { ok: true, value: parseLenient(text) };
  } catch (error) {
    if (error instanceof LenientSyntaxError) return { ok: false, error: `invalid JSON: ${error.message}` };
    throw error;
  }
}

/**
 * Strict JSON (RFC 8259) plus the three Python tokens. Exported for tests that compare it with
 * `JSON.parse`; callers use `parsePythonJson`.
 */
export function parseLenient(text: string): unknown {
  const parser = new LenientParser(text);
  return parser.parseDocument();
}

const NUMBER_PATTERN = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class LenientParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    this.skipWhitespace();
    if (this.pos >= this.text.length) throw new LenientSyntaxError("empty text");
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos < this.text.length) {
      throw new LenientSyntaxError(
        `unexpected text after the JSON value at position ${this.pos}${this.near()}`,
      );
    }
    return value;
  }

  private parseValue(depth: number): unknown {
    if (depth >= MAX_NESTING_DEPTH && (this.text[this.pos] === "[" || this.text[this.pos] === "{")) {
      throw new LenientSyntaxError(nestingMessage(this.pos));
    }
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b /* { */:
        return this.parseObject(depth);
      case 0x5b /* [ */:
        return this.parseArray(depth);
      case 0x22 /* " */:
        return this.parseString();
      case 0x74 /* t */:
        return this.parseKeyword("true", true);
      case 0x66 /* f */:
        return this.parseKeyword("false", false);
      case 0x6e /* n */:
        return this.parseKeyword("null", null);
      case 0x4e /* N */:
        return this.parseKeyword("NaN", Number.NaN);
      case 0x49 /* I */:
        return this.parseKeyword("Infinity", Number.POSITIVE_INFINITY);
      case 0x2d /* - */:
        if (this.text.charCodeAt(this.pos + 1) === 0x49)
          return this.parseKeyword("-Infinity", Number.NEGATIVE_INFINITY);
        return this.parseNumber();
      default:
        if (c >= 0x30 && c <= 0x39) return this.parseNumber();
        throw this.unexpected();
    }
  }

  private parseObject(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.pos++; // {
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x22) throw this.unexpected("expected a string key");
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) throw this.unexpected("expected ':'");
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue(depth + 1);
      // Like JSON.parse: "__proto__" is an ordinary own key, never a prototype change. Duplicates: last wins.
      if (key === "__proto__") {
        Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        result[key] = value;
      }
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.pos);
      if (next === 0x2c) {
        this.pos++;
        continue;
      }
      if (next === 0x7d) {
        this.pos++;
        return result;
      }
      throw this.unexpected("expected ',' or '}'");
    }
  }

  private parseArray(depth: number): unknown[] {
    const result: unknown[] = [];
    this.pos++; // [
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      result.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.pos);
      if (next === 0x2c) {
        this.pos++;
        continue;
      }
      if (next === 0x5d) {
        this.pos++;
        return result;
      }
      throw this.unexpected("expected ',' or ']'");
    }
  }

  private parseString(): string {
    const start = this.pos;
    let escaped = false;
    let i = start + 1;
    for (; i < this.text.length; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        i++; // the escaped character can never end the string
      } else if (c < 0x20) {
        throw new LenientSyntaxError(`control character U+${hex4(c)} in string at position ${i}`);
      }
    }
    if (i >= this.text.length)
      throw new LenientSyntaxError(`unterminated string starting at position ${start}`);
    this.pos = i + 1;
    if (!escaped) return this.text.slice(start + 1, i);
    // Escapes follow exactly JSON's rules, so the native parser decodes them.
    try {
      const decoded: unknown = JSON.parse(this.text.slice(start, i + 1));
      if (typeof decoded === "string") return decoded;
    } catch {
      // reported below
    }
    throw new LenientSyntaxError(`invalid escape in string starting at position ${start}`);
  }

  private parseNumber(): number {
    NUMBER_PATTERN.lastIndex = this.pos;
    const match = NUMBER_PATTERN.exec(this.text);
    if (match === null) throw this.unexpected("expected a number");
    this.pos += match[0].length;
    return Number(match[0]);
  }

  private parseKeyword<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) throw this.unexpected();
    this.pos += word.length;
    return value;
  }

  private skipWhitespace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else return;
    }
  }

  private unexpected(expectation?: string): LenientSyntaxError {
    const suffix = expectation === undefined ? "" : ` (${expectation})`;
    if (this.pos >= this.text.length) return new LenientSyntaxError(`unexpected end of text${suffix}`);
    const ch = JSON.stringify(this.text.charAt(this.pos));
    return new LenientSyntaxError(
      `unexpected character ${ch} at position ${this.pos}${suffix}${this.near()}`,
    );
  }

  private near(): string {
    const excerpt = this.text.slice(this.pos, this.pos + ERROR_EXCERPT_CHARS);
    const more = this.pos + ERROR_EXCERPT_CHARS < this.text.length ? "..." : "";
    return ` near ${JSON.stringify(excerpt + more)}`;
  }
}

function nestingMessage(position: number): string {
  return `nesting deeper than ${MAX_NESTING_DEPTH} levels (this tool's limit; CPython 3.11's json stops at 993) at position ${position}`;
}

/**
 * Position of the first "[" or "{" outside strings that opens level `limit + 1` of `text`, or -1. It runs
 * before any parse, on text that may not be JSON at all: an unterminated string ends the scan (the parser
 * then names the error). Strings are skipped with indexOf (they are most of a rollout's text), so the scan
 * costs little next to JSON.parse, and it stops at the first bracket past the limit: time and memory
 * proportional to the prefix it read.
 */
export function tooDeepAt(text: string, limit: number): number {
  // Most lines have too few brackets in all to be that deep; counting them with indexOf is ~10x cheaper
  // than the structural scan below.
  if (!moreOpenersThan(text, limit)) return -1;
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      if (end === -1) return -1;
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return -1;
}

/** Where the string opened at `open` closes: a quote not preceded by an odd run of backslashes; -1 if none. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end !== -1) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * True when `text` starts a JSON object or array and ends before closing it (inside a string, or with a
 * bracket still open): what a line cut short looks like, as opposed to text that is not JSON at all.
 */
export function unclosedJson(text: string): boolean {
  const start = text.search(/\S/);
  if (start === -1 || (text[start] !== "{" && text[start] !== "[")) return false;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      if (end === -1) return true;
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      // Closed before the end: whatever is wrong with the line, it was not cut mid-value.
      if (--depth === 0) return false;
    }
  }
  return depth > 0;
}

function moreOpenersThan(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++count > limit) return true;
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++count > limit) return true;
  return false;
}

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, "0");
}
