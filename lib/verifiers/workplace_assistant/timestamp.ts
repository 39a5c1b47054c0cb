/**
 * `pd.Timestamp(value)` as pandas 2.3 computes it, for what Gym's tools depend on: whether it raises (and
 * which exception: the tools treat ValueError and TypeError differently), whether the result is NaT, whether
 * it is time-zone aware (comparing aware with naive raises TypeError), and the instant (for ordering).
 *
 * For a string, pandas' own path is reproduced (pandas/_libs/tslibs/conversion.pyx, parsing.pyx and
 * np_datetime_strings.c): empty and NaT spellings, the case-sensitive "now"/"today", its ISO 8601 parser,
 * the "does this look like a datetime" test, the MM/DD/YYYY fast path with its day-first swap, quarters and
 * month abbreviations, then dateutil's parser (dateutil/parser/_parser.py, ported in dateutil.ts) with
 * pandas' own tz rules (an offset of 24 h or more is refused; "UTC" is the machine's local zone name, as on
 * Gym's UTC servers).
 *
 * Assumption: "now", "today" and a bare time of day use Gym's hard-coded current time (2023-11-30 23:59)
 * where pandas reads the clock. That moves instants only, with one exception: a text without a day takes the
 * clock's day of the month, so "10:00 Feb" is Feb 30 here and raises ValueError, as pandas does on the 29th
 * to 31st, while pandas accepts it on other days (`npm run fidelity` on 2026-12-03 showed it). Which Gym saw
 * depends on the day it ran, which a rollout does not record.
 */
import { pyIntFromStr } from "../python";
import { decimalValue, pyUpper } from "../pyunicode";
import { type DateFields, dateutilParse, daysInMonth, GYM_NOW } from "./dateutil";
import { PyException, pyRepr, pyTypeName } from "./py";

/** A pandas Timestamp reduced to what the tools observe. */
export interface PdTimestamp {
  /** NaT (pandas' missing time): compares False with everything. */
  readonly nat: boolean;
  readonly aware: boolean;
  /** The instant in milliseconds since the epoch (UTC for aware values, wall time for naive ones). */
  readonly ms: number;
  /** The wall-clock date as a day number since the epoch (what `.date()` gives). */
  readonly day: number;
}

export const NAT: PdTimestamp = Object.freeze({ nat: true, aware: false, ms: Number.NaN, day: Number.NaN });

const NAT_STRINGS: ReadonlySet<string> = new Set(["NaT", "nat", "NAT", "nan", "NaN", "NAN"]);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MS_PER_DAY = 86_400_000;
/** Nanosecond Timestamps span 1677-09-21 00:12:43.145224193 to 2262-04-11 23:47:16.854775807. */
const NS_MIN_MS = -9_223_372_036_854.775;
const NS_MAX_MS = 9_223_372_036_854.775;

function err(type: "ValueError" | "TypeError", message: string): never {
  throw new PyException(type, message);
}

/** Days since 1970-01-01 of a proleptic Gregorian date (any year). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function build(f: DateFields, offsetSeconds: number | null): PdTimestamp {
  const day = daysFromCivil(f.year, f.month, f.day);
  const wall = day * MS_PER_DAY + ((f.hour * 60 + f.minute) * 60 + f.second) * 1000 + f.microsecond / 1000;
  if (offsetSeconds === null) return { nat: false, aware: false, ms: wall, day };
  return { nat: false, aware: true, ms: wall - offsetSeconds * 1000, day };
}

/** `pd.Timestamp(value)`. Throws a PyException where pandas raises. */
export function pandasTimestamp(value: unknown): PdTimestamp {
  if (value === null || value === undefined) return NAT;
  if (typeof value === "string") return timestampFromString(value);
  if (typeof value === "bigint") {
    if (value === INT64_MIN) return NAT; // NaT's own int64 value
    if (value < INT64_MIN || value > INT64_MAX) {
      err("ValueError", `Out of bounds nanosecond timestamp ${value}`);
    }
    const ms = Number(value) / 1e6;
    return { nat: false, aware: false, ms, day: Math.floor(ms / MS_PER_DAY) };
  }
  if (typeof value === "number") {
    if (Number.isNaN(value)) return NAT;
    if (!(Math.abs(value) < 2 ** 63)) {
      err("ValueError", `cannot convert input ${pyRepr(value)} with the unit 'None'`);
    }
    const ms = value / 1e6;
    return { nat: false, aware: false, ms, day: Math.floor(ms / MS_PER_DAY) };
  }
  return err(
    "TypeError",
    `Cannot convert input [${pyRepr(value)}] of type <class '${pyTypeName(value)}'> to Timestamp`,
  );
}

/** Whether `pd.Timestamp(text)` parses (no ValueError). */
export function isValidTimestampText(text: string): boolean {
  try {
    pandasTimestamp(text);
    return true;
  } catch (error) {
    if (error instanceof PyException) return false;
    throw error;
  }
}

/** pandas' convert_str_to_tsobject. */
function timestampFromString(ts: string): PdTimestamp {
  if (ts.length === 0 || NAT_STRINGS.has(ts)) return NAT;
  if (ts === "now" || ts === "today") return build(GYM_NOW, null);
  const iso = parseIso8601(ts);
  if (iso !== undefined) {
    const t = build(iso.fields, iso.offsetMinutes === null ? null : iso.offsetMinutes * 60);
    if (iso.nanosecondUnit && !(t.ms >= NS_MIN_MS && t.ms <= NS_MAX_MS)) {
      err("ValueError", `Out of bounds nanosecond timestamp: ${ts}`);
    }
    return t;
  }
  return parseDatetimeString(ts);
}

// ---------------------------------------------------------------------------------------------------------
// pandas' ISO 8601 parser (np_datetime_strings.c parse_iso_8601_datetime), called without exceptions: any
// failure, range errors included, hands the string on to the general path.

interface IsoResult {
  readonly fields: DateFields;
  /** null: naive. */
  readonly offsetMinutes: number | null;
  /** More than 6 fractional digits: a nanosecond Timestamp, with the nanosecond bounds. */
  readonly nanosecondUnit: boolean;
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isCSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** The UTF-8 bytes pandas' C code reads (a non-ASCII character is several bytes, none of them a digit). */
function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function parseIso8601(str: string): IsoResult | undefined {
  const b = utf8(str);
  const len = b.length;
  let p = 0;
  const at = (i: number): number => (i < len ? b[i]! : 0);
  while (p < len && isCSpace(b[p]!)) p++;
  const negative = at(p) === 0x2d;
  if (negative) p++;
  if (p >= len) return undefined;
  let year = 0;
  if (
    len - p >= 4 &&
    isAsciiDigit(at(p)) &&
    isAsciiDigit(at(p + 1)) &&
    isAsciiDigit(at(p + 2)) &&
    isAsciiDigit(at(p + 3))
  ) {
    year = (at(p) - 48) * 1000 + (at(p + 1) - 48) * 100 + (at(p + 2) - 48) * 10 + (at(p + 3) - 48);
    p += 4;
  }
  if (negative) year = -year;
  const f = { year, month: 1, day: 1, hour: 0, minute: 0, second: 0, microsecond: 0 };
  const naive = (): IsoResult => ({ fields: f, offsetMinutes: null, nanosecondUnit: false });
  if (p >= len) return naive();
  let ymdSep = 0;
  if (!isAsciiDigit(at(p))) {
    const c = at(p);
    if (c !== 0x2d && c !== 0x2f && c !== 0x2e && c !== 0x20 && c !== 0x5c) return undefined; // - / . space backslash
    ymdSep = c;
    p++;
    if (p >= len || !isAsciiDigit(at(p))) return undefined;
  }
  f.month = at(p) - 48;
  p++;
  if (p < len && isAsciiDigit(at(p))) {
    f.month = f.month * 10 + (at(p) - 48);
    p++;
  } else if (!ymdSep) return undefined;
  if (f.month < 1 || f.month > 12) return undefined;
  if (p >= len) return ymdSep ? naive() : undefined; // YYYYMM is not ISO
  if (ymdSep) {
    if (at(p) !== ymdSep || len - p === 1) return undefined;
    p++;
  }
  if (!isAsciiDigit(at(p))) return undefined;
  f.day = at(p) - 48;
  p++;
  if (p < len && isAsciiDigit(at(p))) {
    f.day = f.day * 10 + (at(p) - 48);
    p++;
  } else if (!ymdSep) return undefined;
  if (f.day < 1 || f.day > daysInMonth(year, f.month)) return undefined;
  if (p >= len) return naive();
  if ((at(p) !== 0x54 && at(p) !== 0x20) || len - p === 1) return undefined; // 'T' or ' '
  p++;
  if (!isAsciiDigit(at(p))) return undefined;
  f.hour = at(p) - 48;
  p++;
  let hourTwoDigits = false;
  if (p < len && isAsciiDigit(at(p))) {
    hourTwoDigits = true;
    f.hour = f.hour * 10 + (at(p) - 48);
    p++;
    if (f.hour >= 24) return undefined;
  }
  let nanosecondUnit = false;
  let offsetMinutes: number | null = null;
  // The time fields: false is a parse error; true goes on to the time zone.
  const time = (): boolean => {
    if (p >= len) {
      if (!hourTwoDigits) return false;
      return true;
    }
    let hmsSep = false;
    if (at(p) === 0x3a) {
      hmsSep = true;
      p++;
      if (p >= len || !isAsciiDigit(at(p))) return false;
    } else if (!isAsciiDigit(at(p))) {
      if (!hourTwoDigits) return false;
      return true;
    }
    f.minute = at(p) - 48;
    p++;
    if (p < len && isAsciiDigit(at(p))) {
      f.minute = f.minute * 10 + (at(p) - 48);
      p++;
      if (f.minute >= 60) return false;
    } else if (!hmsSep) return false;
    if (p >= len) return true;
    if (hmsSep && at(p) === 0x3a) {
      p++;
      if (p >= len || !isAsciiDigit(at(p))) return false;
    } else if (!(!hmsSep && isAsciiDigit(at(p)))) {
      return true;
    }
    f.second = at(p) - 48;
    p++;
    if (p < len && isAsciiDigit(at(p))) {
      f.second = f.second * 10 + (at(p) - 48);
      p++;
      if (f.second >= 60) return false;
    } else if (!hmsSep) return false;
    if (p < len && at(p) === 0x2e) p++;
    else return true;
    let us = 0;
    for (let i = 0; i < 6; i++) {
      us *= 10;
      if (p < len && isAsciiDigit(at(p))) {
        us += at(p) - 48;
        p++;
      }
    }
    f.microsecond = us;
    if (p < len && isAsciiDigit(at(p))) {
      nanosecondUnit = true;
      while (p < len && isAsciiDigit(at(p))) p++; // picoseconds and attoseconds: beyond a nanosecond Timestamp
    }
    return true;
  };
  if (!time()) return undefined;
  // parse_timezone
  while (p < len && isCSpace(at(p))) p++;
  if (p >= len) return { fields: f, offsetMinutes, nanosecondUnit };
  if (at(p) === 0x5a) {
    offsetMinutes = 0;
    p++;
  } else if (at(p) === 0x2d || at(p) === 0x2b) {
    const neg = at(p) === 0x2d;
    p++;
    let oh = 0;
    let om = 0;
    if (len - p >= 2 && isAsciiDigit(at(p)) && isAsciiDigit(at(p + 1))) {
      oh = (at(p) - 48) * 10 + (at(p + 1) - 48);
      p += 2;
      if (oh >= 24) return undefined;
    } else if (len - p >= 1 && isAsciiDigit(at(p))) {
      oh = at(p) - 48;
      p++;
    } else return undefined;
    if (p < len) {
      if (at(p) === 0x3a) p++;
      if (len - p >= 2 && isAsciiDigit(at(p)) && isAsciiDigit(at(p + 1))) {
        om = (at(p) - 48) * 10 + (at(p + 1) - 48);
        p += 2;
        if (om >= 60) return undefined;
      } else if (len - p >= 1 && isAsciiDigit(at(p))) {
        om = at(p) - 48;
        p++;
      } else return undefined;
    }
    offsetMinutes = neg ? -(oh * 60 + om) : oh * 60 + om;
  }
  while (p < len && isCSpace(at(p))) p++;
  if (p !== len) return undefined;
  return { fields: f, offsetMinutes, nanosecondUnit };
}

// ---------------------------------------------------------------------------------------------------------
// parsing.pyx parse_datetime_string

const TIMEPAT = /^([01]?[0-9]|2[0-3]):([0-5][0-9])/;
const NOT_DATELIKE: ReadonlySet<string> = new Set(["a", "A", "m", "M", "p", "P", "t", "T"]);

function parseDatetimeString(s: string): PdTimestamp {
  if (!looksLikeDatetime(s)) err("ValueError", `Given date string "${s}" not likely a datetime`);
  if (TIMEPAT.test(s)) return fromDateutil(s, GYM_NOW);
  const delimited = parseDelimitedDate(s);
  if (delimited !== undefined) return delimited;
  const abbr = parseDateabbr(s);
  if (abbr !== undefined) return abbr;
  return fromDateutil(s, { year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, microsecond: 0 });
}

function fromDateutil(s: string, defaults: DateFields): PdTimestamp {
  const r = dateutilParse(s, defaults);
  if (!r.ok) err("ValueError", `${r.error}: ${s}`);
  if (r.offsetSeconds !== null && Math.abs(r.offsetSeconds) >= 86_400) {
    err(
      "ValueError",
      `Parsed string "${s}" gives an invalid tzoffset, which must be between -timedelta(hours=24) and timedelta(hours=24)`,
    );
  }
  return build(r.fields, r.offsetSeconds);
}

/** `_does_string_look_like_datetime`: a number below 1000 (as pandas' xstrtod reads it) is not. */
function looksLikeDatetime(s: string): boolean {
  if (s.length === 0) return true;
  if (s.charCodeAt(0) === 0x30) return true;
  if (NOT_DATELIKE.has(s)) return false;
  const value = xstrtod(utf8(s));
  return value === undefined || value >= 1000;
}

/** pandas' xstrtod(decimal='.', sci='e', no thousands separator, skip_trailing): the value if it consumes the whole text. */
function xstrtod(b: Uint8Array): number | undefined {
  let p = 0;
  const len = b.length;
  const at = (i: number): number => (i < len ? b[i]! : 0);
  while (isCSpace(at(p)) && p < len) p++;
  let negative = false;
  if (at(p) === 0x2d) {
    negative = true;
    p++;
  } else if (at(p) === 0x2b) p++;
  let digits = 0;
  let decimals = 0;
  let text = "";
  while (isAsciiDigit(at(p))) {
    text += String.fromCharCode(at(p));
    p++;
    digits++;
  }
  if (at(p) === 0x2e) {
    p++;
    text += ".";
    while (isAsciiDigit(at(p))) {
      text += String.fromCharCode(at(p));
      p++;
      digits++;
      decimals++;
    }
  }
  if (digits === 0) return undefined;
  let exponent = 0;
  if (at(p) === 0x65 || at(p) === 0x45) {
    p++;
    let negExp = false;
    if (at(p) === 0x2d) {
      negExp = true;
      p++;
    } else if (at(p) === 0x2b) p++;
    let n = 0;
    let expDigits = 0;
    while (expDigits < 17 && isAsciiDigit(at(p))) {
      n = n * 10 + (at(p) - 48);
      p++;
      expDigits++;
    }
    // No exponent digits: the 'e' (or its sign) is left unconsumed, so the text is not one number.
    if (expDigits === 0) return undefined;
    exponent = negExp ? -n : n;
  }
  // DBL_MIN_EXP / DBL_MAX_EXP on the decimal exponent: ERANGE, which pandas reads as "looks like a date".
  if (exponent - decimals < -1021 || exponent - decimals > 1024) return undefined;
  while (isCSpace(at(p)) && p < len) p++;
  if (p !== len) return undefined;
  const value = Number(`${text}e${exponent}`);
  if (!Number.isFinite(value)) return undefined; // ERANGE
  return negative ? -value : value;
}

function twoDigits(b: Uint8Array, i: number): number {
  const x = b[i] ?? 0;
  const y = b[i + 1] ?? 0;
  return isAsciiDigit(x) && isAsciiDigit(y) ? (x - 48) * 10 + (y - 48) : -1;
}

function oneDigit(b: Uint8Array, i: number): number {
  const x = b[i] ?? 0;
  return isAsciiDigit(x) ? x - 48 : -1;
}

function fourDigits(b: Uint8Array, i: number): number {
  const hi = twoDigits(b, i);
  const lo = twoDigits(b, i + 2);
  return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
}

function isDelimiter(c: number | undefined): boolean {
  return c === 0x20 || c === 0x2f || c === 0x2d || c === 0x2e;
}

/** `_parse_delimited_date`: MM/DD/YYYY, DD/MM/YYYY (swapped when the first field cannot be a month), MM/YYYY. */
function parseDelimitedDate(s: string): PdTimestamp | undefined {
  const b = utf8(s);
  const n = b.length;
  let month: number;
  let day = 1;
  let year: number;
  let canSwap = false;
  if (n === 10 && isDelimiter(b[2]) && isDelimiter(b[5])) {
    month = twoDigits(b, 0);
    day = twoDigits(b, 3);
    year = fourDigits(b, 6);
    canSwap = true;
  } else if (n === 9 && isDelimiter(b[1]) && isDelimiter(b[4])) {
    month = oneDigit(b, 0);
    day = twoDigits(b, 2);
    year = fourDigits(b, 5);
    canSwap = true;
  } else if (n === 9 && isDelimiter(b[2]) && isDelimiter(b[4])) {
    month = twoDigits(b, 0);
    day = oneDigit(b, 3);
    year = fourDigits(b, 5);
    canSwap = true;
  } else if (n === 8 && isDelimiter(b[1]) && isDelimiter(b[3])) {
    month = oneDigit(b, 0);
    day = oneDigit(b, 2);
    year = fourDigits(b, 4);
    canSwap = true;
  } else if (n === 7 && isDelimiter(b[2])) {
    if (b[2] === 0x2e) return undefined; // "10.2010" could be a float
    month = twoDigits(b, 0);
    year = fourDigits(b, 3);
  } else {
    return undefined;
  }
  if (month < 0 || day < 0 || year < 1000) return undefined;
  if (month >= 1 && month <= 31 && day >= 1 && day <= 31 && (month <= 12 || day <= 12)) {
    if (month > 12 && canSwap) [day, month] = [month, day];
    if (month > 12) err("ValueError", "month must be in 1..12");
    if (day > daysInMonth(year, month)) err("ValueError", "day is out of range for month");
    return build({ year, month, day, hour: 0, minute: 0, second: 0, microsecond: 0 }, null);
  }
  return err("ValueError", `Invalid date specified (${month}/${day})`);
}

/** Python's int() on a short slice; undefined where it raises ValueError. */
function pyIntOrUndefined(s: string): number | undefined {
  const parsed = pyIntFromStr(s);
  return parsed.ok ? Number(parsed.value) : undefined;
}

const PY_WS =
  "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const MONTH_ABBR = [
  "JAN",
  "FEB",
  "MAR",
  "APR",
  "MAY",
  "JUN",
  "JUL",
  "AUG",
  "SEP",
  "OCT",
  "NOV",
  "DEC",
] as const;

/** `_parse_dateabbr_string`: a bare 4-character year, quarters (2023Q4, 4Q2023, 23Q4, 4Q23), %Y-%m, %b %Y, %b-%Y. */
function parseDateabbr(input: string): PdTimestamp | undefined {
  if (NAT_STRINGS.has(input)) return NAT;
  const s = pyUpper(input);
  const cps = Array.from(s);
  const n = cps.length;
  const slice = (a: number, b?: number) => cps.slice(a, b).join("");
  const date = (year: number, month: number) =>
    year >= 1 && year <= 9999
      ? build({ year, month, day: 1, hour: 0, minute: 0, second: 0, microsecond: 0 }, null)
      : undefined;
  if (n === 4) {
    const y = pyIntOrUndefined(s);
    if (y !== undefined) {
      const r = date(y, 1);
      if (r) return r;
    }
  }
  if (n >= 4 && n <= 7) {
    const i = cps.slice(1, 6).indexOf("Q");
    if (i >= 0) {
      const q = i + 1;
      const bytes = utf8(s);
      let quarter = -1;
      let year: number | undefined;
      let ok = true;
      if (q === 1) {
        quarter = oneDigit(bytes, 0);
        if (n === 4 || (n === 5 && cps[q + 1] === "-")) {
          const yy = pyIntOrUndefined(slice(-2));
          year = yy === undefined ? undefined : 2000 + yy;
        } else if (n === 6 || (n === 7 && cps[q + 1] === "-")) {
          year = pyIntOrUndefined(slice(-4));
        } else ok = false;
      } else if (q === 2 || q === 3) {
        if (n === 4 || (n === 5 && cps[q - 1] === "-")) {
          quarter = oneDigit(bytes, bytes.length - 1);
          const yy = pyIntOrUndefined(slice(0, 2));
          year = yy === undefined ? undefined : 2000 + yy;
        } else ok = false;
      } else if (q === 4 || q === 5) {
        if (n === 6 || (n === 7 && cps[q - 1] === "-")) {
          quarter = oneDigit(bytes, bytes.length - 1);
          year = pyIntOrUndefined(slice(0, 4));
        } else ok = false;
      }
      if (ok && year !== undefined) {
        if (!(quarter >= 1 && quarter <= 4)) {
          err("ValueError", `Incorrect quarterly string is given, quarter must be between 1 and 4: ${s}`);
        }
        const r = date(year, (quarter - 1) * 3 + 1);
        if (r) return r;
      }
    }
  }
  return strptimeMonth(s);
}

/** datetime.strptime(s, fmt) for "%Y-%m", "%b %Y" and "%b-%Y" (C locale month abbreviations). */
function strptimeMonth(s: string): PdTimestamp | undefined {
  // %Y is \d{4} in Python's re: any script's decimal digits by Python's Unicode tables, checked below (the JS
  // engine's \p{Nd} follows a newer Unicode, with digits Python 3.13 does not know). %m is ASCII, the
  // format's space is \s+.
  const year = "(.{4})";
  const month = "(1[0-2]|0[1-9]|[1-9])";
  const patterns: [RegExp, "ym" | "by"][] = [
    [new RegExp(`^${year}-${month}$`, "iu"), "ym"],
    [new RegExp(`^(${MONTH_ABBR.join("|")})${PY_WS}+${year}$`, "iu"), "by"],
    [new RegExp(`^(${MONTH_ABBR.join("|")})-${year}$`, "iu"), "by"],
  ];
  for (const [re, kind] of patterns) {
    const m = re.exec(s);
    if (!m) continue;
    const yearText = kind === "ym" ? m[1]! : m[2]!;
    if (!Array.from(yearText).every((ch) => decimalValue(ch.codePointAt(0)!) >= 0)) continue;
    const y = pyIntOrUndefined(yearText)!;
    const mo =
      kind === "ym" ? Number(m[2]) : MONTH_ABBR.indexOf(pyUpper(m[1]!) as (typeof MONTH_ABBR)[number]) + 1;
    if (y < 1) continue;
    return build({ year: y, month: mo, day: 1, hour: 0, minute: 0, second: 0, microsecond: 0 }, null);
  }
  return undefined;
}

/**
 * Compares two Timestamps like Python's operators: NaN (every comparison False) when either is NaT, and
 * TypeError between a naive and an aware one.
 */
export function compareTimestamps(a: PdTimestamp, b: PdTimestamp): number {
  if (a.nat || b.nat) return Number.NaN;
  if (a.aware !== b.aware) err("TypeError", "Cannot compare tz-naive and tz-aware timestamps");
  return a.ms - b.ms;
}

/**
 * `list.sort(key=pd.Timestamp, reverse=True)`: newest first. Raises TypeError when naive and aware values
 * meet (with at least two items some comparison pairs them, as in Python's sort).
 */
export function sortNewestFirst<T>(items: T[], key: (item: T) => PdTimestamp): void {
  if (items.length < 2) return;
  let naive = false;
  let aware = false;
  for (const item of items) {
    const t = key(item);
    if (t.nat) continue;
    if (t.aware) aware = true;
    else naive = true;
  }
  if (naive && aware) err("TypeError", "Cannot compare tz-naive and tz-aware timestamps");
  // NaT compares False both ways; a stable sort that treats it as equal to its neighbours is close enough
  // for a read-only listing.
  items.sort((x, y) => {
    const c = compareTimestamps(key(y), key(x));
    return Number.isNaN(c) ? 0 : c;
  });
}
