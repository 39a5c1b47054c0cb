/**
 * `pd.Timestamp(value)` as far as Gym's tools need it: does it raise (ValueError vs TypeError, which the tools
 * treat differently), and which instant does it denote (for the read-only searches).
 *
 * pandas parses ISO 8601 itself and hands anything else to dateutil, which is very lenient. The ISO forms
 * and the common dateutil forms (slashes, month names, am/pm) are reproduced; rarer free text that dateutil
 * would accept is reported as a ValueError here. Time zones are accepted and ignored for the ordering.
 */
import { PyException, pyRepr, pyTypeName } from "./py";

/** Gym's tools run "now" at this instant (email.py's HARDCODED_CURRENT_TIME; the system prompt agrees). */
const GYM_NOW_MS = Date.UTC(2023, 10, 30, 23, 59, 0);
/** pd.Timestamp holds nanoseconds in an int64. */
const MAX_TIMESTAMP_NS = 9.223372036854776e18;

const ISO =
  /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?|(\d{2})(\d{2}))?(?:[T ](\d{1,2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const SLASHED = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})(?:[ T,]+(.*))?$/;
const TIME =
  /^(\d{1,2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(am|pm|a\.m\.|p\.m\.)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"] as const;
const WEEKDAY = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?$/i;

/** Milliseconds since the epoch (naive UTC), or NaN for NaT. Throws a PyException where pandas raises. */
export function pandasTimestamp(value: unknown): number {
  if (value === null || value === undefined) return Number.NaN;
  if (typeof value === "boolean" || typeof value === "object") {
    throw new PyException(
      "TypeError",
      `Cannot convert input [${pyRepr(value)}] of type <class '${pyTypeName(value)}'> to Timestamp`,
    );
  }
  if (typeof value === "number") {
    if (Number.isNaN(value)) return Number.NaN;
    if (!Number.isFinite(value))
      throw new PyException("OverflowError", "cannot convert float infinity to integer");
    if (Math.abs(value) > MAX_TIMESTAMP_NS) {
      throw new PyException("ValueError", `Out of bounds nanosecond timestamp: ${value}`);
    }
    return value / 1e6;
  }
  if (typeof value !== "string") throw new PyException("TypeError", "unsupported type");
  const ms = parseDateString(value.trim());
  if (ms === undefined) {
    throw new PyException("ValueError", `could not convert string to Timestamp: ${pyRepr(value)}`);
  }
  return ms;
}

/** Whether `pd.Timestamp(value)` raises ValueError (the tools' "invalid format" refusals). */
export function isValidTimestampText(value: string): boolean {
  return parseDateString(value.trim()) !== undefined;
}

function parseDateString(text: string): number | undefined {
  const lower = text.toLowerCase();
  if (lower === "now" || lower === "today") return GYM_NOW_MS;
  if (lower === "") return Number.NaN; // pandas: empty string is NaT
  const iso = ISO.exec(text);
  if (iso) {
    const [, y, m1, d1, m2, d2, hh, mi, ss, frac] = iso;
    return build(Number(y), Number(m1 ?? m2 ?? 1), Number(d1 ?? d2 ?? 1), hh, mi, ss, frac);
  }
  const slashed = SLASHED.exec(text);
  if (slashed) {
    const [, a, b, c, rest] = slashed;
    const time = rest === undefined ? { h: 0, m: 0, s: 0, ms: 0 } : parseTime(rest);
    if (!time) return undefined;
    // dateutil: a 4-digit first field is the year (Y/M/D), otherwise month first (M/D/Y).
    const [y, m, d] = a!.length >= 3 ? [a, b, c] : [c, a, b];
    const year = expandYear(Number(y), y!.length);
    return withTime(year, Number(m), Number(d), time);
  }
  // A bare time of day: dateutil puts it on the current date (Gym's "now" here).
  const clock = /^\d{1,2}(:\d{2}|\s*(am|pm))/i.test(text) ? parseTime(text) : undefined;
  if (clock) return withTime(2023, 11, 30, clock);
  return parseWords(text);
}

function expandYear(y: number, digits: number): number {
  if (digits > 2) return y;
  return y < 50 ? 2000 + y : 1900 + y; // dateutil's century window around the current year, simplified
}

function build(
  y: number,
  m: number,
  d: number,
  hh?: string,
  mi?: string,
  ss?: string,
  frac?: string,
): number | undefined {
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  return withTime(y, m, d, { h: Number(hh ?? 0), m: Number(mi ?? 0), s: Number(ss ?? 0), ms });
}

interface Clock {
  readonly h: number;
  readonly m: number;
  readonly s: number;
  readonly ms: number;
}

function withTime(y: number, m: number, d: number, t: Clock): number | undefined {
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return undefined;
  if (t.h > 23 || t.m > 59 || t.s > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  date.setUTCHours(t.h, t.m, t.s, t.ms);
  return date.getTime();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[m - 1]!;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function parseTime(text: string): Clock | undefined {
  const t = TIME.exec(text.trim());
  if (!t) return undefined;
  const [, hh, mi, ss, frac, ampm] = t;
  let h = Number(hh);
  if (ampm) {
    if (h < 1 || h > 12) return undefined;
    const pm = ampm.toLowerCase().startsWith("p");
    h = (h % 12) + (pm ? 12 : 0);
  }
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  return { h, m: Number(mi ?? 0), s: Number(ss ?? 0), ms };
}

/** "Dec 1, 2023 10:00", "1 December 2023", "Friday, December 1 2023 3pm". */
function parseWords(text: string): number | undefined {
  const tokens = text.replace(/,/g, " ").split(/\s+/).filter(Boolean);
  let month: number | undefined;
  const numbers: string[] = [];
  const timeParts: string[] = [];
  for (const token of tokens) {
    const lower = token.toLowerCase().replace(/\.$/, "");
    const monthIndex = MONTHS.findIndex(
      (name) => lower === name || (lower.length > 3 && name === lower.slice(0, 3)),
    );
    if (monthIndex >= 0 && month === undefined && /^[a-z]+$/.test(lower)) {
      month = monthIndex + 1;
    } else if (WEEKDAY.test(token)) {
      // dateutil ignores a weekday name.
    } else if (/^\d{1,4}(st|nd|rd|th)?$/i.test(token)) {
      numbers.push(token.replace(/\D+$/, ""));
    } else if (
      /^\d{1,2}(:\d{2}(:\d{2}(\.\d+)?)?)?(am|pm)?$/i.test(token) ||
      /^(am|pm|utc|gmt|z)$/i.test(token)
    ) {
      timeParts.push(token);
    } else {
      return undefined;
    }
  }
  if (month === undefined) return undefined;
  const year = numbers.find((n) => n.length === 4);
  const rest = numbers.filter((n) => n !== year);
  const day = rest.shift();
  if (day === undefined) return undefined;
  // A leftover bare number (e.g. "3" in "Dec 1 2023 3 pm") joins the time.
  const time = parseTime([...rest, ...timeParts].join(" ").replace(/\s+(am|pm)/i, "$1") || "0");
  if (!time) return undefined;
  return withTime(year === undefined ? 2023 : Number(year), month, Number(day), time);
}
