/**
 * Python's Unicode character tables (str.isprintable, isspace, isalpha, isdigit, the decimal digits int()
 * accepts, str.lower and str.upper), decoded from tables generated from Python's own unicodedata by
 * scripts/gen-python-unicode.py, never taken from the JS engine (whose Unicode version differs).
 */
import {
  ALPHA,
  CASE_IGNORABLE,
  CASED,
  DECIMAL_ZEROS,
  DIGIT,
  LOWER_MULTI,
  LOWER_RUNS,
  NON_PRINTABLE,
  SPACE,
  UPPER_MULTI,
  UPPER_RUNS,
} from "./pyunicode.generated";

export { PYTHON_VERSION as UNICODE_TABLES_PYTHON, UNICODE_VERSION } from "./pyunicode.generated";

/** Sorted [start, end) pairs, flattened. */
function decodeRanges(text: string): Uint32Array {
  const parts = text.split(",");
  const out = new Uint32Array(parts.length * 2);
  let prev = 0;
  parts.forEach((part, i) => {
    const [gap = "0", len = "0"] = part.split(".");
    const start = prev + Number.parseInt(gap, 36);
    const end = start + Number.parseInt(len, 36);
    out[2 * i] = start;
    out[2 * i + 1] = end;
    prev = end;
  });
  return out;
}

function inRanges(ranges: Uint32Array, cp: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[2 * mid]!) hi = mid - 1;
    else if (cp >= ranges[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/** A set tested per code point, with an ASCII fast path. */
class CodePointSet {
  private ranges: Uint32Array | undefined;
  private readonly ascii = new Uint8Array(128);

  constructor(private readonly encoded: string) {
    const r = decodeRanges(encoded);
    for (let cp = 0; cp < 128; cp++) this.ascii[cp] = inRanges(r, cp) ? 1 : 0;
  }

  has(cp: number): boolean {
    if (cp < 128) return this.ascii[cp] === 1;
    this.ranges ??= decodeRanges(this.encoded);
    return inRanges(this.ranges, cp);
  }
}

let tables:
  | {
      nonPrintable: CodePointSet;
      space: CodePointSet;
      alpha: CodePointSet;
      digit: CodePointSet;
      zeros: Uint32Array;
      lower: CaseMap;
      upper: CaseMap;
      cased: CodePointSet;
      caseIgnorable: CodePointSet;
    }
  | undefined;

function t() {
  tables ??= {
    nonPrintable: new CodePointSet(NON_PRINTABLE),
    space: new CodePointSet(SPACE),
    alpha: new CodePointSet(ALPHA),
    digit: new CodePointSet(DIGIT),
    zeros: Uint32Array.from(DECIMAL_ZEROS.split(","), (z) => Number.parseInt(z, 36)),
    lower: new CaseMap(LOWER_RUNS, LOWER_MULTI),
    upper: new CaseMap(UPPER_RUNS, UPPER_MULTI),
    cased: new CodePointSet(CASED),
    caseIgnorable: new CodePointSet(CASE_IGNORABLE),
  };
  return tables;
}

/** `chr(cp).isprintable()` */
export function isPrintable(cp: number): boolean {
  return !t().nonPrintable.has(cp);
}

/** `chr(cp).isspace()` (Py_UNICODE_ISSPACE: what strip(), split() and int() treat as whitespace). */
export function isSpace(cp: number): boolean {
  return t().space.has(cp);
}

/** `chr(cp).isalpha()` */
export function isAlpha(cp: number): boolean {
  return t().alpha.has(cp);
}

/** `chr(cp).isdigit()` (decimal digits plus superscripts, circled digits, ...). */
export function isDigit(cp: number): boolean {
  return t().digit.has(cp);
}

/** `unicodedata.decimal(chr(cp), -1)`: the value int() and float() give a decimal digit of any script. */
export function decimalValue(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  if (cp < 0x660) return -1;
  const zeros = t().zeros;
  let lo = 0;
  let hi = zeros.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (zeros[mid]! <= cp) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return -1;
  const d = cp - zeros[found]!;
  return d <= 9 ? d : -1;
}

/** A per-code-point case mapping: constant-offset runs plus a few one-to-many mappings. */
class CaseMap {
  private readonly starts: number[] = [];
  private readonly counts: number[] = [];
  private readonly steps: number[] = [];
  private readonly deltas: number[] = [];
  private readonly multi = new Map<number, string>();

  constructor(runs: string, multi: string) {
    let prev = 0;
    for (const part of runs.split(",")) {
      const [gap = "0", count = "1", step = "1", delta = "0"] = part.split(".");
      const start = prev + Number.parseInt(gap, 36);
      const n = Number.parseInt(count, 36);
      const s = Number(step);
      this.starts.push(start);
      this.counts.push(n);
      this.steps.push(s);
      this.deltas.push(Number.parseInt(delta, 36));
      prev = start + (n - 1) * s + 1;
    }
    if (multi !== "") {
      for (const part of multi.split(",")) {
        const [cp = "0", to = ""] = part.split(":");
        this.multi.set(
          Number.parseInt(cp, 36),
          String.fromCodePoint(...to.split(".").map((c) => Number.parseInt(c, 36))),
        );
      }
    }
  }

  /** The mapping of one code point, or undefined when it maps to itself. */
  map(cp: number): string | undefined {
    const m = this.multi.get(cp);
    if (m !== undefined) return m;
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= cp) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return undefined;
    const offset = cp - this.starts[found]!;
    const step = this.steps[found]!;
    if (offset % step !== 0 || offset / step >= this.counts[found]!) return undefined;
    return String.fromCodePoint(cp + this.deltas[found]!);
  }
}

const CAPITAL_SIGMA = 0x3a3;

/** CPython's final-sigma test (handle_capital_sigma) at code point index i of cps. */
function finalSigma(cps: readonly number[], i: number): boolean {
  const { cased, caseIgnorable } = t();
  let j = i - 1;
  while (j >= 0 && caseIgnorable.has(cps[j]!)) j--;
  if (j < 0 || !cased.has(cps[j]!)) return false;
  let k = i + 1;
  while (k < cps.length && caseIgnorable.has(cps[k]!)) k++;
  return k >= cps.length || !cased.has(cps[k]!);
}

function isAsciiOnly(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** `s.lower()` */
export function pyLower(s: string): string {
  if (isAsciiOnly(s)) return s.toLowerCase();
  const lower = t().lower;
  const cps = Array.from(s, (c) => c.codePointAt(0)!);
  let out = "";
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    if (cp === CAPITAL_SIGMA) out += finalSigma(cps, i) ? "\u03c2" : "\u03c3";
    else out += lower.map(cp) ?? String.fromCodePoint(cp);
  }
  return out;
}

/** `s.upper()` */
export function pyUpper(s: string): string {
  if (isAsciiOnly(s)) return s.toUpperCase();
  const upper = t().upper;
  let out = "";
  for (const ch of s) out += upper.map(ch.codePointAt(0)!) ?? ch;
  return out;
}

/** `s.strip()` (no argument). */
export function pyStripSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpace(s.charCodeAt(start))) start++;
  while (end > start && isSpace(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

/** `s.split()` (no argument): runs of whitespace separate, empty strings are dropped. */
export function pySplitSpace(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    const space = isSpace(s.charCodeAt(i));
    if (space) {
      if (start >= 0) out.push(s.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}

/** `s.isdigit()` */
export function pyIsDigitString(s: string): boolean {
  if (s.length === 0) return false;
  for (const ch of s) if (!isDigit(ch.codePointAt(0)!)) return false;
  return true;
}

/** `s.isalpha()` */
export function pyIsAlphaString(s: string): boolean {
  if (s.length === 0) return false;
  for (const ch of s) if (!isAlpha(ch.codePointAt(0)!)) return false;
  return true;
}

/**
 * CPython's _PyUnicode_TransformDecimalAndSpaceToASCII, the first step of int() and float() on a str:
 * decimal digits of any script become ASCII digits, whitespace becomes a space, any other non-ASCII
 * character becomes "?" (so it can never parse).
 */
export function decimalAndSpaceToAscii(s: string): string {
  if (isAsciiOnly(s)) return s;
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 128) out += ch;
    else if (isSpace(cp)) out += " ";
    else {
      const d = decimalValue(cp);
      out += d >= 0 ? String(d) : "?";
    }
  }
  return out;
}
