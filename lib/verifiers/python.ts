/**
 * Python value semantics that Gym verifiers depend on, reproduced in TypeScript.
 *
 * Verifiers written in Python compare `str(value)`, test `==` across int/float/bool and call `float()`.
 * JS values lose what those results depend on (1.0 parses to 1, object keys that look like integers are
 * reordered), so tool-call text is parsed here into a `PyValue` tree that keeps the Python type of every
 * number and the order of every dict, exactly as `json.loads` builds it.
 */

import { decimalAndSpaceToAscii, isPrintable, pyLower as pyLowerTable, pyStripSpace } from "./pyunicode";

export type PyValue =
  | { readonly kind: "none" }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "int"; readonly value: bigint }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "str"; readonly value: string }
  | { readonly kind: "list"; readonly items: readonly PyValue[] }
  /** A Map keeps insertion order and, like a dict, keeps a re-assigned key at its first position. */
  | { readonly kind: "dict"; readonly entries: ReadonlyMap<string, PyValue> };

export type PyJsonResult =
  | { readonly ok: true; readonly value: PyValue }
  | { readonly ok: false; readonly error: string };

/**
 * CPython (3.11 and later) refuses to convert a decimal string of more digits to int
 * (sys.int_info.default_max_str_digits): int(), json.loads and every other text-to-int conversion raise ValueError.
 */
export const PY_INT_MAX_STR_DIGITS = 4300;

/** CPython's ValueError text for a decimal string of `digits` digits over the limit (sign and "_" not counted). */
export function pyIntLimitMessage(digits: number): string {
  return `Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`;
}

export type PyIntResult =
  | { readonly ok: true; readonly value: bigint }
  | { readonly ok: false; readonly error: string };

const PY_INT_TEXT = /^[+-]?[0-9](?:_?[0-9])*$/;
/** CPython's message formats the argument with %.200R: its repr cut to 200 code points. */
const PY_INT_REPR_MAX = 200;

/**
 * `int(text)` (base 10) on a str, as CPython 3.13 does it; every text-to-int conversion of the port goes
 * through here. Decimal digits of any script become ASCII digits and non-ASCII whitespace a space, then ASCII
 * whitespace is stripped ("\x1c5" is refused while "\x855" is 5); the syntax is checked first, then the digit
 * limit, so a long invalid text gets "invalid literal" (3.11 reported the digit limit first).
 */
export function pyIntFromStr(text: string): PyIntResult {
  const ascii = decimalAndSpaceToAscii(text).replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "");
  if (!PY_INT_TEXT.test(ascii)) {
    const repr = Array.from(pyStrRepr(text)).slice(0, PY_INT_REPR_MAX).join("");
    return { ok: false, error: `invalid literal for int() with base 10: ${repr}` };
  }
  const unsigned = ascii.replace(/^[+-]/, "").replaceAll("_", "");
  if (unsigned.length > PY_INT_MAX_STR_DIGITS)
    return { ok: false, error: pyIntLimitMessage(unsigned.length) };
  return { ok: true, value: BigInt(ascii.replaceAll("_", "")) };
}

/**
 * The deepest nesting of arrays and objects CPython 3.13's json.loads decodes (measured: 9998 parse, 9999 raise
 * RecursionError). 3.13 counts C recursion apart from Python frames, so the caller's stack barely matters;
 * under 3.11 the limit was the interpreter's (1000) minus the caller's depth.
 */
export const PY_JSON_MAX_DEPTH = 9998;

export const PY_NONE: PyValue = { kind: "none" };

export function pyStrValue(value: string): PyValue {
  return { kind: "str", value };
}

/** How a json.loads port builds values of some representation. */
export interface PyJsonBuilder<V> {
  none(): V;
  bool(value: boolean): V;
  /** An integer literal, exactly (arbitrary precision). */
  int(text: string): V;
  float(value: number): V;
  str(value: string): V;
  list(items: V[]): V;
  /** Keys in insertion order; a repeated key keeps its first position and takes its last value. */
  dict(entries: Map<string, V>): V;
}

export type PyJsonFailure = {
  readonly ok: false;
  readonly error: string;
  /** The Python exception json.loads raises: JSONDecodeError, ValueError (int digits) or RecursionError. */
  readonly pyType: "JSONDecodeError" | "ValueError" | "RecursionError";
};

const PY_VALUE_BUILDER: PyJsonBuilder<PyValue> = {
  none: () => PY_NONE,
  bool: (value) => ({ kind: "bool", value }),
  int: (text) => ({ kind: "int", value: BigInt(text) }),
  float: (value) => ({ kind: "float", value }),
  str: (value) => ({ kind: "str", value }),
  list: (items) => ({ kind: "list", items }),
  dict: (entries) => ({ kind: "dict", entries }),
};

/** `json.loads(text)` with CPython's accepted syntax (NaN, Infinity, -Infinity; lone surrogates kept). */
export function pyJsonLoads(text: string): PyJsonResult {
  const result = pyJsonParse(text, PY_VALUE_BUILDER);
  return result.ok ? result : { ok: false, error: result.error };
}

/**
 * `json.loads(text)` into any representation. Iterative, so nesting up to CPython's limit never touches the
 * JS stack limit; deeper nesting fails like CPython's RecursionError.
 */
export function pyJsonParse<V>(
  text: string,
  builder: PyJsonBuilder<V>,
): { readonly ok: true; readonly value: V } | PyJsonFailure {
  try {
    return { ok: true, value: new PyJsonParser(text, builder).document() };
  } catch (error) {
    if (error instanceof PyJsonError) return { ok: false, error: error.message, pyType: error.pyType };
    throw error;
  }
}

class PyJsonError {
  constructor(
    readonly pyType: PyJsonFailure["pyType"],
    readonly message: string,
  ) {}
}

const NUMBER_RE = /(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;

/** An open container while parsing. */
type Frame<V> =
  | { readonly kind: "list"; readonly items: V[] }
  | { readonly kind: "dict"; readonly entries: Map<string, V>; key: string };

class PyJsonParser<V> {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly b: PyJsonBuilder<V>,
  ) {}

  document(): V {
    if (this.text.charCodeAt(0) === 0xfeff) {
      throw new PyJsonError(
        "JSONDecodeError",
        "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)",
      );
    }
    this.skipWs();
    const value = this.parseValue();
    this.skipWs();
    if (this.pos !== this.text.length) this.fail("Extra data");
    return value;
  }

  private skipWs(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  private fail(what: string): never {
    throw new PyJsonError("JSONDecodeError", `${what}: char ${this.pos}`);
  }

  /** One value, with containers handled by an explicit stack. */
  private parseValue(): V {
    const t = this.text;
    const stack: Frame<V>[] = [];
    for (;;) {
      // Parse a value start: either a scalar (then fall to closing) or a container opening.
      let value: V | undefined;
      const c = t.charCodeAt(this.pos);
      if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
        if (stack.length >= PY_JSON_MAX_DEPTH) {
          throw new PyJsonError(
            "RecursionError",
            "maximum recursion depth exceeded while decoding a JSON document",
          );
        }
        this.pos++;
        this.skipWs();
        if (c === 0x5b) {
          if (t.charCodeAt(this.pos) === 0x5d) {
            this.pos++;
            value = this.b.list([]);
          } else {
            stack.push({ kind: "list", items: [] });
            continue;
          }
        } else if (t.charCodeAt(this.pos) === 0x7d) {
          this.pos++;
          value = this.b.dict(new Map());
        } else {
          const key = this.key();
          stack.push({ kind: "dict", entries: new Map(), key });
          continue;
        }
      } else {
        value = this.scalar();
      }
      // Attach the value to the innermost container; close containers as far as they end here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return value;
        if (top.kind === "list") top.items.push(value);
        else top.entries.set(top.key, value);
        this.skipWs();
        const d = t.charCodeAt(this.pos);
        if (d === 0x2c /* , */) {
          this.pos++;
          this.skipWs();
          if (top.kind === "dict") top.key = this.key();
          else if (t.charCodeAt(this.pos) === 0x5d) this.fail("Illegal trailing comma before end of array");
          break;
        }
        if (top.kind === "list" ? d !== 0x5d : d !== 0x7d) this.fail("Expecting ',' delimiter");
        this.pos++;
        stack.pop();
        value = top.kind === "list" ? this.b.list(top.items) : this.b.dict(top.entries);
      }
    }
  }

  /** A dict key and its colon, leaving the position at the value. */
  private key(): string {
    if (this.text.charCodeAt(this.pos) !== 0x22) {
      if (this.text.charCodeAt(this.pos) === 0x7d) this.fail("Illegal trailing comma before end of object");
      this.fail("Expecting property name enclosed in double quotes");
    }
    const key = this.string();
    this.skipWs();
    if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("Expecting ':' delimiter");
    this.pos++;
    this.skipWs();
    return key;
  }

  private scalar(): V {
    const t = this.text;
    switch (t[this.pos]) {
      case '"':
        return this.b.str(this.string());
      case "t":
        return this.keyword("true", this.b.bool(true));
      case "f":
        return this.keyword("false", this.b.bool(false));
      case "n":
        return this.keyword("null", this.b.none());
      case "N":
        return this.keyword("NaN", this.b.float(Number.NaN));
      case "I":
        return this.keyword("Infinity", this.b.float(Number.POSITIVE_INFINITY));
      default:
        if (t.startsWith("-Infinity", this.pos)) {
          return this.keyword("-Infinity", this.b.float(Number.NEGATIVE_INFINITY));
        }
        return this.number();
    }
  }

  private keyword(word: string, value: V): V {
    if (!this.text.startsWith(word, this.pos)) this.fail("Expecting value");
    this.pos += word.length;
    return value;
  }

  private number(): V {
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(this.text);
    if (m === null) this.fail("Expecting value");
    this.pos += m[0].length;
    const [whole, integer = "", frac, exp] = m;
    if (frac === undefined && exp === undefined) {
      const digits = integer.startsWith("-") ? integer.length - 1 : integer.length;
      if (digits > PY_INT_MAX_STR_DIGITS) {
        throw new PyJsonError("ValueError", pyIntLimitMessage(digits));
      }
      return this.b.int(integer);
    }
    // Number() rounds a decimal string correctly, as Python's float() does (1e400 is inf in both).
    return this.b.float(Number(whole));
  }

  private string(): string {
    const t = this.text;
    this.pos++; // opening quote
    let out = "";
    let chunkStart = this.pos;
    for (;;) {
      if (this.pos >= t.length) this.fail("Unterminated string starting at");
      const code = t.charCodeAt(this.pos);
      if (code === 0x22) {
        out += t.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (code < 0x20) this.fail("Invalid control character at");
      if (code !== 0x5c) {
        this.pos++;
        continue;
      }
      out += t.slice(chunkStart, this.pos);
      const esc = t[this.pos + 1];
      this.pos += 2;
      switch (esc) {
        case '"':
          out += '"';
          break;
        case "\\":
          out += "\\";
          break;
        case "/":
          out += "/";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u":
          // JS strings are UTF-16, so a \\uD83D\\uDE00 pair and a lone surrogate both come out as Python has them.
          out += String.fromCharCode(this.hex4());
          break;
        default:
          this.pos -= 1;
          this.fail("Invalid \\escape");
      }
      chunkStart = this.pos;
    }
  }

  private hex4(): number {
    const hex = this.text.slice(this.pos, this.pos + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("Invalid \\uXXXX escape");
    this.pos += 4;
    return Number.parseInt(hex, 16);
  }
}

/**
 * A value JSON.parse already built, as Python would hold it. An integral number becomes an int, since
 * JSON.parse cannot tell `1` from `1.0`; that is the one place a Python float may be misread as an int.
 * Returns null for values JSON cannot hold (undefined, functions, symbols).
 */
export function pyFromJs(value: unknown): PyValue | null {
  if (value === null) return PY_NONE;
  switch (typeof value) {
    case "boolean":
      return { kind: "bool", value };
    case "string":
      return { kind: "str", value };
    case "number":
      return Number.isInteger(value) ? { kind: "int", value: BigInt(value) } : { kind: "float", value };
    case "bigint":
      return { kind: "int", value };
    case "object": {
      if (Array.isArray(value)) {
        const items: PyValue[] = [];
        for (const item of value) {
          const converted = pyFromJs(item);
          if (converted === null) return null;
          items.push(converted);
        }
        return { kind: "list", items };
      }
      const entries = new Map<string, PyValue>();
      for (const [key, item] of Object.entries(value)) {
        const converted = pyFromJs(item);
        if (converted === null) return null;
        entries.set(key, converted);
      }
      return { kind: "dict", entries };
    }
    default:
      return null;
  }
}

/** `repr(float)`: the shortest round-tripping digits, switching to exponent form outside [1e-4, 1e16). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Number.POSITIVE_INFINITY) return "inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  // toExponential() with no argument yields the shortest digits that round-trip, like Python's repr.
  const [mantissa = "", expText = "0"] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const expSign = exp < 0 ? "-" : "+";
    return `${sign}${digits[0]}${frac}e${expSign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const intLen = exp + 1;
  if (digits.length <= intLen) return `${sign}${digits.padEnd(intLen, "0")}.0`;
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
}

/** `repr(str)`: Python's quote choice and escapes; every character str.isprintable() rejects is escaped. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x20 && cp < 0x7f && ch !== quote && ch !== "\\") {
      out += ch;
      continue;
    }
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (isPrintable(cp)) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + quote;
}

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, "0");
}

/** `repr(value)`. */
export function pyRepr(v: PyValue): string {
  switch (v.kind) {
    case "str":
      return pyStrRepr(v.value);
    case "list":
      return `[${v.items.map(pyRepr).join(", ")}]`;
    case "dict":
      return `{${[...v.entries].map(([k, item]) => `${pyStrRepr(k)}: ${pyRepr(item)}`).join(", ")}}`;
    default:
      return pyStr(v);
  }
}

/** `str(value)`. */
export function pyStr(v: PyValue): string {
  switch (v.kind) {
    case "none":
      return "None";
    case "bool":
      return v.value ? "True" : "False";
    case "int":
      return v.value.toString();
    case "float":
      return pyFloatRepr(v.value);
    case "str":
      return v.value;
    default:
      return pyRepr(v);
  }
}

/** `s.strip()` with Python's whitespace table (String.prototype.trim's differs: \x1c-\x1f, \x85, \ufeff). */
export function pyStrip(s: string): string {
  return pyStripSpace(s);
}

/** `s.lower()` with Python's case tables (including the final-sigma rule). */
export function pyLower(s: string): string {
  return pyLowerTable(s);
}

/** A number as Python's numeric tower sees it for comparison: bool and int are exact integers. */
function numeric(v: PyValue): { int: bigint } | { float: number } | null {
  if (v.kind === "bool") return { int: v.value ? 1n : 0n };
  if (v.kind === "int") return { int: v.value };
  if (v.kind === "float") return { float: v.value };
  return null;
}

/** Python's exact comparison of an int with a float (no rounding of the int). */
function intEqualsFloat(i: bigint, f: number): boolean {
  return Number.isInteger(f) && BigInt(f) === i;
}

/** `a == b` for values json.loads can build (True == 1 == 1.0; NaN never equal; dicts ignore order). */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== null || nb !== null) {
    if (na === null || nb === null) return false;
    if ("int" in na) return "int" in nb ? na.int === nb.int : intEqualsFloat(na.int, nb.float);
    return "int" in nb ? intEqualsFloat(nb.int, na.float) : na.float === nb.float;
  }
  switch (a.kind) {
    case "none":
      return b.kind === "none";
    case "str":
      return b.kind === "str" && a.value === b.value;
    case "list":
      return (
        b.kind === "list" &&
        a.items.length === b.items.length &&
        a.items.every((item, i) => {
          const other = b.items[i];
          return other !== undefined && pyEquals(item, other);
        })
      );
    case "dict": {
      if (b.kind !== "dict" || a.entries.size !== b.entries.size) return false;
      for (const [key, item] of a.entries) {
        const other = b.entries.get(key);
        if (other === undefined || !pyEquals(item, other)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** `float(text)` for a str: optional sign, digits with single underscores, inf/infinity/nan in any case. */
const PY_FLOAT_STRING =
  /^[+-]?(?:(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?|inf|infinity|nan)$/i;

/** `float(value)`; null where Python raises (TypeError, ValueError, OverflowError). */
export function pyFloat(v: PyValue): number | null {
  switch (v.kind) {
    case "float":
      return v.value;
    case "bool":
      return v.value ? 1 : 0;
    case "int": {
      const f = Number(v.value);
      return Number.isFinite(f) ? f : null;
    }
    case "str": {
      const s = pyStrip(v.value);
      if (!PY_FLOAT_STRING.test(s)) return null;
      const lower = s.toLowerCase();
      const negative = lower.startsWith("-");
      const body = lower.replace(/^[+-]/, "");
      if (body === "nan") return Number.NaN;
      if (body === "inf" || body === "infinity")
        return negative ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
      return Number(lower.replaceAll("_", ""));
    }
    default:
      return null;
  }
}

/** `bool(value)`. */
export function pyTruthy(v: PyValue): boolean {
  switch (v.kind) {
    case "none":
      return false;
    case "bool":
      return v.value;
    case "int":
      return v.value !== 0n;
    case "float":
      return v.value !== 0;
    case "str":
      return v.value !== "";
    case "list":
      return v.items.length > 0;
    case "dict":
      return v.entries.size > 0;
  }
}

/** `d.get(key)` on a dict value; undefined when the value is not a dict or lacks the key. */
export function pyDictGet(v: PyValue, key: string): PyValue | undefined {
  return v.kind === "dict" ? v.entries.get(key) : undefined;
}

/** The PyValue as JSON.parse would give it (for details shown to users); an int beyond any double becomes a string. */
export function pyToJs(v: PyValue): unknown {
  switch (v.kind) {
    case "none":
      return null;
    case "bool":
    case "str":
      return v.value;
    case "float":
      return Number.isFinite(v.value) ? v.value : pyFloatRepr(v.value);
    case "int": {
      const n = Number(v.value);
      return Number.isFinite(n) ? n : v.value.toString();
    }
    case "list":
      return v.items.map(pyToJs);
    case "dict": {
      const out: Record<string, unknown> = {};
      for (const [key, item] of v.entries) {
        Object.defineProperty(out, key, {
          value: pyToJs(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
}
