/**
 * A port of python-dateutil 2.9's parser (dateutil/parser/_parser.py: _timelex, parserinfo, _ymd, parser._parse)
 * as pandas drives it: default parserinfo, dayfirst=False, yearfirst=False, fuzzy=False, no tzinfos. Only
 * the grammar is ported: the result is the fields and the UTC offset the parse yields, or the failure.
 *
 * Python semantics kept: characters are classified with Python's own tables (isalpha, isdigit, isspace),
 * numeric tokens go through float()/Decimal() rules (any script's decimal digits), and string slices count
 * code points. The machine's time.tzname is taken to be ("UTC", "UTC"), as on Gym's servers.
 */
import { pyIntFromStr } from "../python";
import { decimalValue, isAlpha, isDigit, isSpace, pyLower } from "../pyunicode";

export interface DateFields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly microsecond: number;
}

/** email.py's HARDCODED_CURRENT_TIME, standing in for the clock ("now", the date of a bare time). */
export const GYM_NOW: DateFields = Object.freeze({
  year: 2023,
  month: 11,
  day: 30,
  hour: 23,
  minute: 59,
  second: 0,
  microsecond: 0,
});

/** time.tzname on a UTC machine. */
const LOCAL_TZ_NAMES: ReadonlySet<string> = new Set(["UTC"]);

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : DAYS[m - 1]!;
}

// ---------------------------------------------------------------------------------------------------------
// _timelex

function isWordChar(ch: string): boolean {
  return isAlpha(ch.codePointAt(0)!);
}
function isNumChar(ch: string): boolean {
  return isDigit(ch.codePointAt(0)!);
}
function isSpaceChar(ch: string): boolean {
  return isSpace(ch.codePointAt(0)!);
}

/** `_timelex.split(s)` */
export function timelexSplit(s: string): string[] {
  const chars = Array.from(s).filter((c) => c !== "\x00");
  let pos = 0;
  const tokens: string[] = [];
  const tokenstack: string[] = [];
  const charstack: string[] = [];
  const next = (): string | undefined => {
    if (charstack.length > 0) return charstack.shift();
    return pos < chars.length ? chars[pos++] : undefined;
  };
  let eof = false;
  for (;;) {
    if (tokenstack.length > 0) {
      tokens.push(tokenstack.shift()!);
      continue;
    }
    if (eof) break;
    let seenletters = false;
    let token: string | undefined;
    let state: "" | "a" | "0" | "a." | "0." = "";
    for (;;) {
      const nextchar = next();
      if (nextchar === undefined) {
        eof = true;
        break;
      }
      if (!state) {
        token = nextchar;
        if (isWordChar(nextchar)) state = "a";
        else if (isNumChar(nextchar)) state = "0";
        else if (isSpaceChar(nextchar)) {
          token = " ";
          break;
        } else break;
      } else if (state === "a") {
        seenletters = true;
        if (isWordChar(nextchar)) token += nextchar;
        else if (nextchar === ".") {
          token += nextchar;
          state = "a.";
        } else {
          charstack.push(nextchar);
          break;
        }
      } else if (state === "0") {
        if (isNumChar(nextchar)) token += nextchar;
        else if (nextchar === "." || (nextchar === "," && Array.from(token!).length >= 2)) {
          token += nextchar;
          state = "0.";
        } else {
          charstack.push(nextchar);
          break;
        }
      } else if (state === "a.") {
        seenletters = true;
        if (nextchar === "." || isWordChar(nextchar)) token += nextchar;
        else if (isNumChar(nextchar) && token!.endsWith(".")) {
          token += nextchar;
          state = "0.";
        } else {
          charstack.push(nextchar);
          break;
        }
      } else if (state === "0.") {
        if (nextchar === "." || isNumChar(nextchar)) token += nextchar;
        else if (isWordChar(nextchar) && token!.endsWith(".")) {
          token += nextchar;
          state = "a.";
        } else {
          charstack.push(nextchar);
          break;
        }
      }
    }
    if (token === undefined) break;
    if (
      (state === "a." || state === "0.") &&
      (seenletters || countChar(token, ".") > 1 || token.endsWith(".") || token.endsWith(","))
    ) {
      const parts = token.split(/([.,])/);
      token = parts[0]!;
      for (const part of parts.slice(1)) if (part) tokenstack.push(part);
    }
    if (state === "0." && countChar(token, ".") === 0) token = token.replaceAll(",", ".");
    tokens.push(token);
  }
  return tokens;
}

function countChar(s: string, c: string): number {
  let n = 0;
  for (const ch of s) if (ch === c) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// parserinfo (the defaults)

function lookup(entries: readonly (readonly string[])[]): ReadonlyMap<string, number> {
  const m = new Map<string, number>();
  entries.forEach((names, i) => {
    for (const n of names) m.set(n.toLowerCase(), i);
  });
  return m;
}

const JUMP: ReadonlySet<string> = new Set([
  " ",
  ".",
  ",",
  ";",
  "-",
  "/",
  "'",
  "at",
  "on",
  "and",
  "ad",
  "m",
  "t",
  "of",
  "st",
  "nd",
  "rd",
  "th",
]);
const WEEKDAYS = lookup([
  ["Mon", "Monday"],
  ["Tue", "Tuesday"],
  ["Wed", "Wednesday"],
  ["Thu", "Thursday"],
  ["Fri", "Friday"],
  ["Sat", "Saturday"],
  ["Sun", "Sunday"],
]);
const MONTHS = lookup([
  ["Jan", "January"],
  ["Feb", "February"],
  ["Mar", "March"],
  ["Apr", "April"],
  ["May", "May"],
  ["Jun", "June"],
  ["Jul", "July"],
  ["Aug", "August"],
  ["Sep", "Sept", "September"],
  ["Oct", "October"],
  ["Nov", "November"],
  ["Dec", "December"],
]);
const HMS = lookup([
  ["h", "hour", "hours"],
  ["m", "minute", "minutes"],
  ["s", "second", "seconds"],
]);
const AMPM = lookup([
  ["am", "a"],
  ["pm", "p"],
]);
const UTCZONE_LIST: readonly string[] = ["UTC", "GMT", "Z", "z"];
const UTCZONE_LOWER: ReadonlySet<string> = new Set(["utc", "gmt", "z"]);

const jump = (name: string) => JUMP.has(pyLower(name));
const weekday = (name: string) => WEEKDAYS.get(pyLower(name));
const month = (name: string) => {
  const m = MONTHS.get(pyLower(name));
  return m === undefined ? undefined : m + 1;
};
const hms = (name: string) => HMS.get(pyLower(name));
const ampm = (name: string) => AMPM.get(pyLower(name));
const pertain = (name: string) => pyLower(name) === "of";
const utczone = (name: string) => UTCZONE_LOWER.has(pyLower(name));
/** parserinfo.tzoffset: note the case-sensitive lookup in the lower-cased table (only "z" is found). */
const infoTzoffset = (name: string): number | null => (UTCZONE_LOWER.has(name) ? 0 : null);

/** The two-digit year window: within 50 years of the current year (Gym's current year here). */
const CURRENT_YEAR = GYM_NOW.year;
function convertyear(year: number, centurySpecified: boolean): number {
  if (year < 100 && !centurySpecified) {
    let y = year + Math.floor(CURRENT_YEAR / 100) * 100;
    if (y >= CURRENT_YEAR + 50) y -= 100;
    else if (y < CURRENT_YEAR - 50) y += 100;
    return y;
  }
  return year;
}

// ---------------------------------------------------------------------------------------------------------
// Python numbers from tokens

class ParseFail {
  constructor(readonly message: string) {}
}

function fail(message = "Unknown string format"): never {
  throw new ParseFail(message);
}

const PY_WS_CLASS =
  "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const FLOAT_SYNTAX =
  /^[+-]?(?:(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?|inf|infinity|nan)$/i;
const LEADING_TRAILING_WS = new RegExp(`^${PY_WS_CLASS}+|${PY_WS_CLASS}+$`, "gu");

/** Any script's decimal digits as ASCII (what float(), int() and Decimal() accept). */
function asciiDigits(s: string): string {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch;
    else {
      const d = decimalValue(cp);
      out += d >= 0 ? String(d) : ch;
    }
  }
  return out;
}

/** `float(s)`, or undefined where Python raises ValueError. */
function pyFloat(s: string): number | undefined {
  const t = asciiDigits(s.replace(LEADING_TRAILING_WS, ""));
  if (!FLOAT_SYNTAX.test(t)) return undefined;
  const lower = t.toLowerCase().replaceAll("_", "");
  const body = lower.replace(/^[+-]/, "");
  if (body === "nan") return Number.NaN;
  if (body === "inf" || body === "infinity") return lower.startsWith("-") ? -Infinity : Infinity;
  return Number(lower);
}

/** `Decimal(s)` restricted to finite values (parser._to_decimal); fails like dateutil otherwise. */
function toDecimal(s: string): number {
  const v = pyFloat(s);
  if (v === undefined || !Number.isFinite(v)) fail("Unknown numeric token");
  return v;
}

/**
 * `int(s)` on a numeric token or a slice of one. Its ValueError (bad text, or more digits than CPython converts)
 * ends the parse, as dateutil's `_parse` turns it into "Unknown string format".
 */
function pyInt(s: string): number {
  const parsed = pyIntFromStr(s);
  if (!parsed.ok) fail(parsed.error);
  return Number(parsed.value);
}

/** `str.isdigit()` */
function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (const ch of s) if (!isNumChar(ch)) return false;
  return true;
}

function cpLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `s[a:b]` by code points (b may be omitted; negative indices count from the end). */
function cpSlice(s: string, a: number, b?: number): string {
  return Array.from(s).slice(a, b).join("");
}

// ---------------------------------------------------------------------------------------------------------
// _ymd

class Ymd {
  readonly values: number[] = [];
  centurySpecified = false;
  dstridx: number | null = null;
  mstridx: number | null = null;
  ystridx: number | null = null;

  get length(): number {
    return this.values.length;
  }

  couldBeDay(value: number): boolean {
    if (this.dstridx !== null) return false;
    if (this.mstridx === null) return value >= 1 && value <= 31;
    const m = this.values[this.mstridx]!;
    if (this.ystridx === null) return value >= 1 && value <= daysInMonth(2000, m);
    return value >= 1 && value <= daysInMonth(this.values[this.ystridx]!, m);
  }

  /** `append(val, label)`: a str value of more than two digits, or a number above 100, is the year. */
  append(val: string | number, label?: "M" | "D" | "Y"): void {
    let lab = label;
    let n: number;
    if (typeof val === "string") {
      if (isDigits(val) && cpLen(val) > 2) {
        this.centurySpecified = true;
        lab = "Y";
      }
      n = pyInt(val);
    } else {
      if (val > 100) {
        this.centurySpecified = true;
        lab = "Y";
      }
      n = Math.trunc(val);
    }
    this.values.push(n);
    const idx = this.values.length - 1;
    if (lab === "M") {
      if (this.mstridx !== null) fail("Month is already set");
      this.mstridx = idx;
    } else if (lab === "D") {
      if (this.dstridx !== null) fail("Day is already set");
      this.dstridx = idx;
    } else if (lab === "Y") {
      if (this.ystridx !== null) fail("Year is already set");
      this.ystridx = idx;
    }
  }

  resolve(): [number | null, number | null, number | null] {
    const v = this.values;
    const len = v.length;
    const strids = new Map<"y" | "m" | "d", number>();
    if (this.ystridx !== null) strids.set("y", this.ystridx);
    if (this.mstridx !== null) strids.set("m", this.mstridx);
    if (this.dstridx !== null) strids.set("d", this.dstridx);
    if ((len === strids.size && len > 0) || (len === 3 && strids.size === 2)) {
      if (len === 3 && strids.size === 2) {
        const used = new Set(strids.values());
        const missing = [0, 1, 2].find((x) => !used.has(x))!;
        const key = (["y", "m", "d"] as const).find((k) => !strids.has(k))!;
        strids.set(key, missing);
      }
      const get = (k: "y" | "m" | "d") => (strids.has(k) ? v[strids.get(k)!]! : null);
      return [get("y"), get("m"), get("d")];
    }
    const mstridx = this.mstridx;
    let year: number | null = null;
    let monthV: number | null = null;
    let day: number | null = null;
    if (len > 3) fail("More than three YMD values");
    if (len === 1 || (mstridx !== null && len === 2)) {
      let other: number;
      if (mstridx !== null) {
        monthV = v[mstridx]!;
        other = v[mstridx - 1 < 0 ? len - 1 : mstridx - 1]!;
      } else other = v[0]!;
      if (len > 1 || mstridx === null) {
        if (other > 31) year = other;
        else day = other;
      }
    } else if (len === 2) {
      if (v[0]! > 31) [year, monthV] = [v[0]!, v[1]!];
      else if (v[1]! > 31) [monthV, year] = [v[0]!, v[1]!];
      else [monthV, day] = [v[0]!, v[1]!]; // dayfirst is False
    } else if (len === 3) {
      if (mstridx === 0) {
        if (v[1]! > 31) [monthV, year, day] = [v[0]!, v[1]!, v[2]!];
        else [monthV, day, year] = [v[0]!, v[1]!, v[2]!];
      } else if (mstridx === 1) {
        if (v[0]! > 31) [year, monthV, day] = [v[0]!, v[1]!, v[2]!];
        else [day, monthV, year] = [v[0]!, v[1]!, v[2]!];
      } else if (mstridx === 2) {
        if (v[1]! > 31) [day, year, monthV] = [v[0]!, v[1]!, v[2]!];
        else [year, day, monthV] = [v[0]!, v[1]!, v[2]!];
      } else if (v[0]! > 31 || this.ystridx === 0) {
        [year, monthV, day] = [v[0]!, v[1]!, v[2]!];
      } else if (v[0]! > 12) {
        [day, monthV, year] = [v[0]!, v[1]!, v[2]!];
      } else {
        [monthV, day, year] = [v[0]!, v[1]!, v[2]!];
      }
    }
    return [year, monthV, day];
  }
}

// ---------------------------------------------------------------------------------------------------------
// parser._parse

interface Res {
  year: number | null;
  month: number | null;
  day: number | null;
  weekday: number | null;
  hour: number | null;
  minute: number | null;
  second: number | null;
  microsecond: number | null;
  tzname: string | null;
  tzoffset: number | null;
  ampm: number | null;
  centurySpecified: boolean;
}

function parsems(value: string): [number, number] {
  if (!value.includes(".")) return [pyInt(value), 0];
  const parts = value.split(".");
  if (parts.length !== 2) fail("too many values to unpack");
  const [i, f] = parts as [string, string];
  return [pyInt(i), pyInt(cpSlice(f.padEnd(6, "0"), 0, 6))];
}

function parseMinSec(value: number): [number, number | null] {
  const minute = Math.trunc(value);
  const rem = value % 1;
  return [minute, rem ? Math.trunc(60 * rem) : null];
}

function adjustAmpm(hour: number, ap: number): number {
  if (hour < 12 && ap === 1) return hour + 12;
  if (hour === 12 && ap === 0) return 0;
  return hour;
}

function couldBeTzname(res: Res, token: string): boolean {
  return (
    res.hour !== null &&
    res.tzname === null &&
    res.tzoffset === null &&
    cpLen(token) <= 5 &&
    (/^[A-Z]+$/.test(token) || UTCZONE_LIST.includes(token))
  );
}

function findHmsIdx(idx: number, tokens: readonly string[]): number | null {
  const n = tokens.length;
  if (idx + 1 < n && hms(tokens[idx + 1]!) !== undefined) return idx + 1;
  if (idx + 2 < n && tokens[idx + 1] === " " && hms(tokens[idx + 2]!) !== undefined) return idx + 2;
  if (idx > 0 && hms(tokens[idx - 1]!) !== undefined) return idx - 1;
  if (1 < idx && idx === n - 1 && tokens[idx - 1] === " " && hms(tokens[idx - 2]!) !== undefined)
    return idx - 2;
  return null;
}

function assignHms(res: Res, valueRepr: string, which: number): void {
  const value = toDecimal(valueRepr);
  if (which === 0) {
    res.hour = Math.trunc(value);
    if (value % 1) res.minute = Math.trunc(60 * (value % 1));
  } else if (which === 1) {
    [res.minute, res.second] = parseMinSec(value);
  } else if (which === 2) {
    [res.second, res.microsecond] = parsems(valueRepr);
  }
}

/** tokens[i], raising IndexError (a parse failure) past the end like Python's list indexing. */
function tok(tokens: readonly string[], i: number): string {
  const t = tokens[i < 0 ? tokens.length + i : i];
  if (t === undefined) fail("list index out of range");
  return t;
}

function parseNumericToken(tokens: string[], idx0: number, ymd: Ymd, res: Res): number {
  let idx = idx0;
  const valueRepr = tokens[idx]!;
  let value = toDecimal(valueRepr);
  const lenLi = cpLen(valueRepr);
  const lenL = tokens.length;
  if (
    ymd.length === 3 &&
    (lenLi === 2 || lenLi === 4) &&
    res.hour === null &&
    (idx + 1 >= lenL || (tokens[idx + 1] !== ":" && hms(tokens[idx + 1]!) === undefined))
  ) {
    const s = tokens[idx]!;
    res.hour = pyInt(cpSlice(s, 0, 2));
    if (lenLi === 4) res.minute = pyInt(cpSlice(s, 2));
  } else if (lenLi === 6 || (lenLi > 6 && Array.from(tokens[idx]!).indexOf(".") === 6)) {
    const s = tokens[idx]!;
    if (ymd.length === 0 && !s.includes(".")) {
      ymd.append(cpSlice(s, 0, 2));
      ymd.append(cpSlice(s, 2, 4));
      ymd.append(cpSlice(s, 4));
    } else {
      res.hour = pyInt(cpSlice(s, 0, 2));
      res.minute = pyInt(cpSlice(s, 2, 4));
      [res.second, res.microsecond] = parsems(cpSlice(s, 4));
    }
  } else if (lenLi === 8 || lenLi === 12 || lenLi === 14) {
    const s = tokens[idx]!;
    ymd.append(cpSlice(s, 0, 4), "Y");
    ymd.append(cpSlice(s, 4, 6));
    ymd.append(cpSlice(s, 6, 8));
    if (lenLi > 8) {
      res.hour = pyInt(cpSlice(s, 8, 10));
      res.minute = pyInt(cpSlice(s, 10, 12));
      if (lenLi > 12) res.second = pyInt(cpSlice(s, 12));
    }
  } else if (findHmsIdx(idx, tokens) !== null) {
    const hmsIdx = findHmsIdx(idx, tokens)!;
    let which: number;
    if (hmsIdx > idx) {
      which = hms(tokens[hmsIdx]!)!;
      idx = hmsIdx;
    } else {
      which = hms(tokens[hmsIdx]!)! + 1;
    }
    assignHms(res, valueRepr, which);
  } else if (idx + 2 < lenL && tokens[idx + 1] === ":") {
    res.hour = Math.trunc(value);
    value = toDecimal(tokens[idx + 2]!);
    [res.minute, res.second] = parseMinSec(value);
    if (idx + 4 < lenL && tokens[idx + 3] === ":") {
      [res.second, res.microsecond] = parsems(tokens[idx + 4]!);
      idx += 2;
    }
    idx += 2;
  } else if (idx + 1 < lenL && ["-", "/", "."].includes(tokens[idx + 1]!)) {
    const sep = tokens[idx + 1]!;
    ymd.append(valueRepr);
    if (idx + 2 < lenL && !jump(tokens[idx + 2]!)) {
      if (isDigits(tokens[idx + 2]!)) {
        ymd.append(tokens[idx + 2]!);
      } else {
        const m = month(tokens[idx + 2]!);
        if (m !== undefined) ymd.append(m, "M");
        else fail();
      }
      if (idx + 3 < lenL && tokens[idx + 3] === sep) {
        const t4 = tok(tokens, idx + 4);
        const m = month(t4);
        if (m !== undefined) ymd.append(m, "M");
        else ymd.append(t4);
        idx += 2;
      }
      idx += 1;
    }
    idx += 1;
  } else if (idx + 1 >= lenL || jump(tokens[idx + 1]!)) {
    if (idx + 2 < lenL && ampm(tokens[idx + 2]!) !== undefined) {
      res.hour = adjustAmpm(Math.trunc(value), ampm(tokens[idx + 2]!)!);
      idx += 1;
    } else {
      ymd.append(value);
    }
    idx += 1;
  } else if (ampm(tokens[idx + 1]!) !== undefined && value >= 0 && value < 24) {
    res.hour = adjustAmpm(Math.trunc(value), ampm(tokens[idx + 1]!)!);
    idx += 1;
  } else if (ymd.couldBeDay(value)) {
    ymd.append(value);
  } else {
    fail();
  }
  return idx;
}

function parseTokens(timestr: string): Res {
  const res: Res = {
    year: null,
    month: null,
    day: null,
    weekday: null,
    hour: null,
    minute: null,
    second: null,
    microsecond: null,
    tzname: null,
    tzoffset: null,
    ampm: null,
    centurySpecified: false,
  };
  const l = timelexSplit(timestr);
  const ymd = new Ymd();
  const lenL = l.length;
  let i = 0;
  while (i < lenL) {
    const token = l[i]!;
    if (pyFloat(token) !== undefined) {
      i = parseNumericToken(l, i, ymd, res);
    } else if (weekday(token) !== undefined) {
      res.weekday = weekday(token)!;
    } else if (month(token) !== undefined) {
      ymd.append(month(token)!, "M");
      if (i + 1 < lenL) {
        if (l[i + 1] === "-" || l[i + 1] === "/") {
          const sep = l[i + 1]!;
          ymd.append(tok(l, i + 2));
          if (i + 3 < lenL && l[i + 3] === sep) {
            ymd.append(tok(l, i + 4));
            i += 2;
          }
          i += 2;
        } else if (i + 4 < lenL && l[i + 1] === " " && l[i + 3] === " " && pertain(l[i + 2]!)) {
          if (isDigits(l[i + 4]!)) {
            ymd.append(String(convertyear(pyInt(l[i + 4]!), false)), "Y");
          }
          i += 4;
        }
      }
    } else if (ampm(token) !== undefined) {
      const value = ampm(token)!;
      if (res.hour === null) fail("No hour specified with AM or PM flag.");
      if (!(res.hour >= 0 && res.hour <= 12)) fail("Invalid hour specified for 12-hour clock.");
      res.hour = adjustAmpm(res.hour, value);
      res.ampm = value;
    } else if (couldBeTzname(res, token)) {
      res.tzname = token;
      res.tzoffset = infoTzoffset(token);
      if (i + 1 < lenL && (l[i + 1] === "+" || l[i + 1] === "-")) {
        l[i + 1] = l[i + 1] === "+" ? "-" : "+";
        res.tzoffset = null;
        if (utczone(res.tzname)) res.tzname = null;
      }
    } else if (res.hour !== null && (token === "+" || token === "-")) {
      const signal = token === "+" ? 1 : -1;
      const next = tok(l, i + 1);
      const lenLi = cpLen(next);
      let hourOffset: number;
      let minOffset: number;
      if (lenLi === 4) {
        hourOffset = pyInt(cpSlice(next, 0, 2));
        minOffset = pyInt(cpSlice(next, 2));
      } else if (i + 2 < lenL && l[i + 2] === ":") {
        hourOffset = pyInt(next);
        minOffset = pyInt(tok(l, i + 3));
        i += 2;
      } else if (lenLi <= 2) {
        hourOffset = pyInt(cpSlice(next, 0, 2));
        minOffset = 0;
      } else {
        fail();
      }
      res.tzoffset = signal * (hourOffset * 3600 + minOffset * 60);
      if (
        i + 5 < lenL &&
        jump(l[i + 2]!) &&
        l[i + 3] === "(" &&
        l[i + 5] === ")" &&
        cpLen(l[i + 4]!) >= 3 &&
        couldBeTzname({ ...res, tzoffset: null }, l[i + 4]!)
      ) {
        res.tzname = l[i + 4]!;
        i += 4;
      }
      i += 1;
    } else if (!jump(token)) {
      fail();
    }
    i += 1;
  }
  const [y, m, d] = ymd.resolve();
  res.centurySpecified = ymd.centurySpecified;
  res.year = y;
  res.month = m;
  res.day = d;
  // parserinfo.validate
  if (res.year !== null) res.year = convertyear(res.year, res.centurySpecified);
  if ((res.tzoffset === 0 && !res.tzname) || res.tzname === "Z" || res.tzname === "z") {
    res.tzname = "UTC";
    res.tzoffset = 0;
  } else if (res.tzoffset !== 0 && res.tzname && utczone(res.tzname)) {
    res.tzoffset = 0;
  }
  return res;
}

export type DateutilResult =
  | { readonly ok: true; readonly fields: DateFields; readonly offsetSeconds: number | null }
  | { readonly ok: false; readonly error: string };

/**
 * pandas' `dateutil_parse(s, default)` over `DEFAULTPARSER._parse(s)`: the parsed fields replace those of
 * `defaults` (no clipping of a default day), a weekday without a day is refused, and the zone becomes an
 * offset (seconds east of UTC; null for a naive result).
 */
export function dateutilParse(s: string, defaults: DateFields): DateutilResult {
  let res: Res;
  try {
    res = parseTokens(s);
  } catch (error) {
    if (error instanceof ParseFail)
      return { ok: false, error: "Unknown datetime string format, unable to parse" };
    throw error;
  }
  const has = [res.year, res.month, res.day, res.hour, res.minute, res.second, res.microsecond].some(
    (v) => v !== null,
  );
  if (!has) return { ok: false, error: "Unable to parse datetime string" };
  if (res.weekday !== null && !res.day) {
    return { ok: false, error: "Parsing datetimes with weekday but no day information is not supported" };
  }
  const fields: DateFields = {
    year: res.year ?? defaults.year,
    month: res.month ?? defaults.month,
    day: res.day ?? defaults.day,
    hour: res.hour ?? defaults.hour,
    minute: res.minute ?? defaults.minute,
    second: res.second ?? defaults.second,
    microsecond: res.microsecond ?? defaults.microsecond,
  };
  const rangeError = checkRanges(fields);
  if (rangeError) return { ok: false, error: rangeError };
  let offsetSeconds: number | null = null;
  if (res.tzname !== null && LOCAL_TZ_NAMES.has(res.tzname)) offsetSeconds = 0;
  else if (res.tzoffset === 0) offsetSeconds = 0;
  else if (res.tzoffset) offsetSeconds = res.tzoffset;
  return { ok: true, fields, offsetSeconds };
}

/** datetime.replace's checks. */
function checkRanges(f: DateFields): string | undefined {
  if (!(f.year >= 1 && f.year <= 9999)) return `year ${f.year} is out of range`;
  if (!(f.month >= 1 && f.month <= 12)) return "month must be in 1..12";
  if (!(f.day >= 1 && f.day <= daysInMonth(f.year, f.month))) return "day is out of range for month";
  if (!(f.hour >= 0 && f.hour <= 23)) return "hour must be in 0..23";
  if (!(f.minute >= 0 && f.minute <= 59)) return "minute must be in 0..59";
  if (!(f.second >= 0 && f.second <= 59)) return "second must be in 0..59";
  if (!(f.microsecond >= 0 && f.microsecond <= 999999)) return "microsecond must be in 0..999999";
  return undefined;
}
