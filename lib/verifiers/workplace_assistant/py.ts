/**
 * The slice of Python semantics Gym's workplace tools depend on, over the values `loadsArguments` builds from
 * a call's JSON arguments, as Python's json.loads builds them:
 *   None → null, bool → boolean, int → bigint (exact, any size), float → number, str → string,
 *   list → Array, dict → PyDict (a Map: insertion order, integer-like keys included).
 * pandas' missing-value marker in the tables is a float NaN, as in pandas.
 */
import {
  type PyJsonBuilder,
  type PyJsonFailure,
  pyFloatRepr,
  pyIntFromStr,
  pyJsonParse,
  pyStrRepr,
} from "../python";
import { pyIsDigitString, pyLower, pyStripSpace } from "../pyunicode";

export { pyFloatRepr, pyStrRepr };

export type PyExceptionType =
  | "TypeError"
  | "ValueError"
  | "AttributeError"
  | "KeyError"
  | "OverflowError"
  | "ZeroDivisionError"
  | "JSONDecodeError"
  | "RecursionError"
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

/** A Python dict from json.loads: string keys in insertion order. */
export type PyDict = Map<string, unknown>;

const NATIVE_BUILDER: PyJsonBuilder<unknown> = {
  none: () => null,
  bool: (value) => value,
  int: (text) => BigInt(text),
  float: (value) => value,
  str: (value) => value,
  list: (items) => items,
  dict: (entries) => entries,
};

/** `json.loads(text)` into the values above. */
export function loadsArguments(text: string): { ok: true; value: unknown } | PyJsonFailure {
  return pyJsonParse(text, NATIVE_BUILDER);
}

/**
 * A value JSON.parse built (the request's own fields: actions, ground truth) as Python holds it. JSON.parse
 * cannot tell 1 from 1.0, so an integral number becomes an int; call arguments never come this way.
 */
export function fromJs(value: unknown): unknown {
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(fromJs);
  if (typeof value === "object" && value !== null && !(value instanceof Map)) {
    const out: PyDict = new Map();
    for (const [k, v] of Object.entries(value)) out.set(k, fromJs(v));
    return out;
  }
  return value;
}

export function isDict(value: unknown): value is PyDict {
  return value instanceof Map;
}

/** Python's type name, as error messages print it. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint") return "int";
  if (typeof value === "number") return "float";
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
  if (typeof value === "bigint") return value !== 0n;
  if (typeof value === "number") return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return value.size > 0;
  return true;
}

type PyNumber = bigint | number | boolean;

function isNumeric(v: unknown): v is PyNumber {
  return typeof v === "bigint" || typeof v === "number" || typeof v === "boolean";
}

/** bool and int as an exact integer; a float stays a float. */
function asIntOrFloat(v: PyNumber): bigint | number {
  return typeof v === "boolean" ? (v ? 1n : 0n) : v;
}

/**
 * Python's exact numeric comparison: negative, zero or positive, or NaN when unordered (a NaN operand).
 * An int is compared with a float exactly, never by rounding the int to a double.
 */
export function compareNumbers(a: PyNumber, b: PyNumber): number {
  const x = asIntOrFloat(a);
  const y = asIntOrFloat(b);
  if (typeof x === "bigint" && typeof y === "bigint") return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === "number" && typeof y === "number")
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : Number.NaN;
  if (typeof x === "bigint") return -compareFloatInt(y as number, x);
  return compareFloatInt(x, y as bigint);
}

function compareFloatInt(f: number, i: bigint): number {
  if (Number.isNaN(f)) return Number.NaN;
  if (!Number.isFinite(f)) return f > 0 ? 1 : -1;
  const floor = Math.floor(f);
  const bf = BigInt(floor);
  if (bf < i) return -1;
  if (bf > i) return 1;
  return floor === f ? 0 : 1;
}

/** `a == b` for Python values (True == 1 == 1.0; NaN != NaN; dicts ignore order). */
export function pyEq(a: unknown, b: unknown): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b) === 0;
  if (a === null || a === undefined || b === null || b === undefined) return isNoneLike(a) && isNoneLike(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEq(item, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !pyEq(v, b.get(k))) return false;
    return true;
  }
  return false;
}

function isNoneLike(v: unknown): boolean {
  return v === null || v === undefined;
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
    return typeof needle === "string" && container.has(needle);
  }
  throw new PyException("TypeError", `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** Dict keys and Index lookups hash their argument: lists and dicts are unhashable. */
export function assertHashable(value: unknown): void {
  if (Array.isArray(value) || isDict(value)) {
    throw new PyException("TypeError", `unhashable type: '${pyTypeName(value)}'`);
  }
}

/** `value.lower()`: only str has it; Python's own case tables. */
export function pyLowerMethod(value: unknown): string {
  if (typeof value !== "string") {
    throw new PyException("AttributeError", `'${pyTypeName(value)}' object has no attribute 'lower'`);
  }
  return pyLower(value);
}

/** `str.isdigit()` (Python's table: decimal digits of every script, superscripts, circled digits, ...). */
export function pyIsDigit(s: string): boolean {
  return pyIsDigitString(s);
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

/** `int(value)`: ValueError for bad text and NaN, OverflowError for infinity, TypeError for other types. */
export function pyInt(value: unknown): bigint {
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "bigint") return value;
  if (typeof value === "number") {
    if (Number.isNaN(value)) throw new PyException("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(value)) {
      throw new PyException("OverflowError", "cannot convert float infinity to integer");
    }
    return BigInt(Math.trunc(value));
  }
  if (typeof value === "string") {
    const parsed = pyIntFromStr(value);
    if (!parsed.ok) throw new PyException("ValueError", parsed.error);
    return parsed.value;
  }
  throw new PyException(
    "TypeError",
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`,
  );
}

/** `str.strip()` with Python's whitespace. */
export function pyStrip(s: string): string {
  return pyStripSpace(s);
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
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return pyFloatRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isDict(value)) {
    const parts: string[] = [];
    for (const [k, v] of value) parts.push(`${pyStrRepr(k)}: ${pyRepr(v)}`);
    return `{${parts.join(", ")}}`;
  }
  return String(value);
}

/**
 * `a > b` as Python orders values: numbers (and bools) among themselves, strings by code point; anything
 * else raises TypeError.
 */
export function pyGreater(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b) > 0;
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
  return objectMaxValue(foldObjectMax(OBJECT_MAX_START, rows, 0, column));
}

/** Where pandasObjectMax's left-to-right fold stands after some rows: resumable over appended rows. */
export interface ObjectMaxFold {
  readonly best: unknown;
  readonly seen: boolean;
  readonly allMissing: boolean;
}

export const OBJECT_MAX_START: ObjectMaxFold = { best: undefined, seen: false, allMissing: true };

/** Continues the fold over rows[from..]: the same comparisons, in the same order, as one pass over all rows. */
export function foldObjectMax(
  start: ObjectMaxFold,
  rows: readonly (readonly unknown[])[],
  from: number,
  column: number,
): ObjectMaxFold {
  let { best, seen, allMissing } = start;
  for (let i = from; i < rows.length; i++) {
    const raw = rows[i]![column];
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
  return { best, seen, allMissing };
}

export function objectMaxValue(fold: ObjectMaxFold): unknown {
  return fold.allMissing ? Number.NaN : fold.best;
}

function numericOperand(op: string, a: unknown, b: unknown): [bigint | number, bigint | number] {
  if (!isNumeric(a) || !isNumeric(b)) {
    throw new PyException(
      "TypeError",
      `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
    );
  }
  return [asIntOrFloat(a), asIntOrFloat(b)];
}

/** `a + b`, `a - b`, `a * b` and `a // b` on Python numbers (int op int stays an exact int, else float). */
export function pyArith(op: "+" | "-" | "*" | "//", a: unknown, b: unknown): bigint | number {
  const [x, y] = numericOperand(op, a, b);
  if (typeof x === "bigint" && typeof y === "bigint") {
    if (op === "+") return x + y;
    if (op === "-") return x - y;
    if (op === "*") return x * y;
    if (y === 0n) throw new PyException("ZeroDivisionError", "integer division or modulo by zero");
    const q = x / y;
    return x % y !== 0n && x < 0n !== y < 0n ? q - 1n : q;
  }
  const fx = Number(x);
  const fy = Number(y);
  if (op === "+") return fx + fy;
  if (op === "-") return fx - fy;
  if (op === "*") return fx * fy;
  if (fy === 0) throw new PyException("ZeroDivisionError", "float floor division by zero");
  return Math.floor(fx / fy);
}

/** `a < b` (TypeError between unorderable types). */
export function pyLess(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b) < 0;
  if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b) < 0;
  throw new PyException(
    "TypeError",
    `'<' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
  );
}

/** `min(a, b)`: b only if b < a. */
export function pyMin(a: unknown, b: unknown): unknown {
  return pyLess(b, a) ? b : a;
}

/** `max(a, b)`: b only if b > a. */
export function pyMax(a: unknown, b: unknown): unknown {
  return pyLess(a, b) ? b : a;
}

/** A slice index (`__index__`): ints and bools; anything else raises TypeError. */
function sliceIndex(v: unknown): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1n : 0n;
  throw new PyException("TypeError", "slice indices must be integers or None or have an __index__ method");
}

/** `items[start:end]` with Python's clamping and negative indices. */
export function pySlice<T>(items: readonly T[], start: unknown, end: unknown): T[] {
  const n = BigInt(items.length);
  const norm = (i: bigint): number => {
    const j = i < 0n ? i + n : i;
    return Number(j < 0n ? 0n : j > n ? n : j);
  };
  const s = norm(sliceIndex(start));
  const e = norm(sliceIndex(end));
  return items.slice(s, Math.max(s, e));
}

/**
 * A Python value as JSON.parse would give it, for callers that serialize tool results (json.dumps of a
 * dict keeps insertion order; an int beyond 2^53 loses precision here, NaN becomes null in JSON.stringify).
 */
export function toJs(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(toJs);
  if (isDict(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value)
      Object.defineProperty(out, k, { value: toJs(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJs(v);
    return out;
  }
  return value;
}
