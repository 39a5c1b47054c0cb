/**
 * The slice of Python semantics Gym's workplace tools depend on, over the JS values `parsePythonJson` yields
 * (string, number, boolean, null for None, arrays for lists, plain objects for dicts). A JS `NaN` stands for
 * both Python's float('nan') and pandas' missing-value marker, which is how pandas stores it too.
 *
 * Known limit: a JSON number parses to a JS number, so Python's int/float distinction is gone. It only shows
 * where a tool formats a non-string argument into text (`str(1.0)` is "1.0", here "1").
 */

export type PyExceptionType =
  | "TypeError"
  | "ValueError"
  | "AttributeError"
  | "KeyError"
  | "OverflowError"
  | "ZeroDivisionError"
  | "JSONDecodeError"
  | "re.error";

/**
 * A Python exception raised by emulated code; tools catch it where Gym's code has `except Exception`.
 * Not an Error subclass: it is control flow on a hot path, and capturing a stack trace per refusal would
 * dominate the cost of a replay.
 */
export class PyException {
  constructor(
    readonly pyType: PyExceptionType,
    readonly message: string,
  ) {}
}

export function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python's type name, as error messages print it. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (Array.isArray(value)) return "list";
  return "dict";
}

/** pandas' isna: None and NaN. */
export function isNa(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "number" && Number.isNaN(value));
}

/** `bool(value)`: NaN is truthy, empty containers are falsy. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === "") return false;
  if (typeof value === "number") return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return true;
}

/** `a == b` for JSON-shaped values (True == 1 == 1.0; NaN != NaN). */
export function pyEq(a: unknown, b: unknown): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  if (a === null || a === undefined || b === null || b === undefined) return isNoneLike(a) && isNoneLike(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEq(item, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && pyEq(a[k], b[k]));
  }
  return false;
}

function isNoneLike(v: unknown): boolean {
  return v === null || v === undefined;
}

function isNumeric(v: unknown): v is number | boolean {
  return typeof v === "number" || typeof v === "boolean";
}

/** `needle in container` for a str, list or dict container; anything else raises TypeError like Python. */
export function pyIn(needle: unknown, container: unknown): boolean {
  if (typeof container === "string") {
    if (typeof needle !== "string") {
      throw new PyException(
        "TypeError",
        `'in <string>' requires string as left operand, not ${pyTypeName(needle)}`,
      );
    }
    return container.includes(needle);
  }
  if (Array.isArray(container)) return container.some((item) => pyEq(item, needle));
  if (isDict(container)) {
    assertHashable(needle);
    return typeof needle === "string" && Object.hasOwn(container, needle);
  }
  throw new PyException("TypeError", `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** Dict keys and Index lookups hash their argument: lists and dicts are unhashable. */
export function assertHashable(value: unknown): void {
  if (Array.isArray(value) || isDict(value)) {
    throw new PyException("TypeError", `unhashable type: '${pyTypeName(value)}'`);
  }
}

/** `value.lower()`: only str has it. Python lower-cases with full Unicode case mapping, as JS does. */
export function pyLowerMethod(value: unknown): string {
  if (typeof value !== "string") {
    throw new PyException("AttributeError", `'${pyTypeName(value)}' object has no attribute 'lower'`);
  }
  return value.toLowerCase();
}

/** `str.isdigit()` on every code point (Unicode decimal digits count, as in Python). */
export function pyIsDigit(s: string): boolean {
  return s.length > 0 && /^[\p{Nd}\u00B2\u00B3\u00B9\u2070-\u2079\u2080-\u2089\u2460-\u2468]+$/u.test(s);
}

/** `len(s)` counts code points. */
export function pyLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `s.zfill(width)`: pads after a leading sign. */
export function pyZfill(s: string, width: number): string {
  const len = pyLen(s);
  if (len >= width) return s;
  const pad = "0".repeat(width - len);
  if (s.startsWith("+") || s.startsWith("-")) return s[0] + pad + s.slice(1);
  return pad + s;
}

const PY_INT_TEXT = /^[+-]?(?:\d(?:_?\d)*)$/u;
/** Characters Python's str.strip() removes that JS `\s` does not (the information separators and NEL). */
const EXTRA_PY_WHITESPACE = new Set([0x1c, 0x1d, 0x1e, 0x1f, 0x85]);

function isPyWhitespace(ch: string): boolean {
  return /\s/u.test(ch) || EXTRA_PY_WHITESPACE.has(ch.charCodeAt(0));
}

/** `s.strip()` */
function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isPyWhitespace(s[start]!)) start++;
  while (end > start && isPyWhitespace(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** `int(value)`: ValueError for bad text and NaN, OverflowError for infinity, TypeError for other types. */
export function pyInt(value: unknown): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") {
    if (Number.isNaN(value)) throw new PyException("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(value)) {
      throw new PyException("OverflowError", "cannot convert float infinity to integer");
    }
    return Math.trunc(value);
  }
  if (typeof value === "string") {
    const text = pyStrip(value);
    const ascii = text.replace(/\p{Nd}/gu, (d) => String(digitValue(d)));
    if (!PY_INT_TEXT.test(ascii)) {
      throw new PyException("ValueError", `invalid literal for int() with base 10: ${pyRepr(value)}`);
    }
    return Number(ascii.replaceAll("_", ""));
  }
  throw new PyException(
    "TypeError",
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`,
  );
}

function digitValue(d: string): number {
  // Every Unicode Nd block is a contiguous run of ten code points starting at a multiple-of-16 offset or
  // at a known zero; find the zero by walking back while the code point is still a digit.
  let cp = d.codePointAt(0)!;
  let v = 0;
  while (v < 9 && /\p{Nd}/u.test(String.fromCodePoint(cp - 1))) {
    cp--;
    v++;
  }
  return v;
}

/** Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const sign = exp < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  const fixed = x.toFixed(Math.max(0, mantissa.replace(/^-?\d\.?/, "").length - exp));
  return fixed.includes(".") ? fixed : `${fixed}.0`;
}

function pyNumberStr(x: number): string {
  // Integral JSON numbers are most likely Python ints (see the module note).
  if (Number.isSafeInteger(x)) return String(x);
  return pyFloatRepr(x);
}

/** `repr(str)`: single quotes unless the text has a single quote and no double quote. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out + quote;
}

export function pyRepr(value: unknown): string {
  if (typeof value === "string") return pyStrRepr(value);
  return pyStr(value);
}

/** `str(value)` as an f-string formats it. */
export function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return pyNumberStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isDict(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/**
 * `a > b` as Python orders values: numbers (and bools) among themselves, strings by code point; anything
 * else raises TypeError.
 */
export function pyGreater(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return Number(a) > Number(b);
  if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b) > 0;
  throw new PyException(
    "TypeError",
    `'>' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
  );
}

/** Orders strings by code point, as Python does (JS `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * pandas `Series.max()` on an object column (cell `column` of each row): missing values are filled with -inf
 * before numpy's reduce, so a NaN among strings raises TypeError; an empty or all-missing column gives NaN.
 */
export function pandasObjectMax(rows: readonly (readonly unknown[])[], column: number): unknown {
  let best: unknown;
  let seen = false;
  let allMissing = true;
  for (const row of rows) {
    const raw = row[column];
    const missing = isNa(raw);
    if (!missing) allMissing = false;
    const v = missing ? Number.NEGATIVE_INFINITY : raw;
    if (!seen) {
      best = v;
      seen = true;
    } else if (typeof v === "string" && typeof best === "string") {
      if (compareCodePoints(v, best) > 0) best = v;
    } else if (pyGreater(v, best)) {
      best = v;
    }
  }
  return allMissing ? Number.NaN : best;
}
