/**
 * A byte-preserving editor for one JSONL line: it replaces the values of the top-level keys an
 * operation owns and appends new keys before the closing brace. Every other byte (unknown keys, key
 * order, whitespace, number formatting such as `1.0`, `1e5` or `NaN`) is kept exactly as read.
 */
import { type ObjectSpans, scanObjectLine } from "./spans";

/** Python's `json.dumps` defaults, which is how Gym writes rollout lines. */
const DEFAULT_KEY_SEPARATOR = ": ";
const DEFAULT_ITEM_SEPARATOR = ", ";

export interface TopLevelEdit {
  readonly key: string;
  /**
   * The new value. It is serialized in the line's own separator style. Use `raw` instead to splice
   * exact JSON text (e.g. a number formatted like the original token).
   */
  readonly value?: unknown;
  readonly raw?: string;
}

export type EditResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly error: string };

interface Separators {
  readonly key: string;
  readonly item: string;
}

function separatorsOf(spans: ObjectSpans): Separators {
  const key = spans.keySeparator ?? DEFAULT_KEY_SEPARATOR;
  // With a single member there is no item separator to copy; follow the key separator's spacing.
  const item = spans.itemSeparator ?? (key.endsWith(" ") ? DEFAULT_ITEM_SEPARATOR : ",");
  return { key: normalizeSeparator(key, ":"), item: normalizeSeparator(item, ",") };
}

/** Keep the punctuation with its surrounding spaces, but never copy a line break into a JSONL line. */
function normalizeSeparator(sep: string, punctuation: string): string {
  return /^[ \t]*[:,][ \t]*$/.test(sep) ? sep : `${punctuation}${sep.endsWith(" ") ? " " : ""}`;
}

/** JSON text for `value` using the given separators. Non-finite numbers become null, as in JSON.stringify. */
export function serializeValue(value: unknown, seps: Separators = { key: ": ", item: ", " }): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (Array.isArray(value)) {
    return `[${value.map((v) => serializeValue(v === undefined ? null : v, seps)).join(seps.item)}]`;
  }
  if (typeof value === "object") {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      parts.push(`${JSON.stringify(k)}${seps.key}${serializeValue(v, seps)}`);
    }
    return `{${parts.join(seps.item)}}`;
  }
  return "null";
}

/**
 * Formats `n` the way `original` (a JSON number token) was formatted where that matters:
 * a float-looking token (`1.0`) keeps a float look for an integral value (`0.0`, not `0`).
 */
export function formatNumberLike(original: string | null, n: number): string {
  if (!Number.isFinite(n)) return "null";
  const text = JSON.stringify(n);
  const floatLooking = original !== null && /^-?\d+\.\d+$/.test(original);
  return floatLooking && Number.isInteger(n) ? n.toFixed(1) : text;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The original JSON text of a top-level key's value (the last occurrence wins, as in JSON.parse). */
export function rawValueOf(line: Uint8Array, key: string): string | null {
  const scanned = scanObjectLine(line);
  if (!scanned.ok) return null;
  const member = lastMember(scanned.spans, key);
  return member === undefined ? null : decoder.decode(line.subarray(member.valueStart, member.valueEnd));
}

function lastMember(spans: ObjectSpans, key: string) {
  for (let i = spans.members.length - 1; i >= 0; i--) {
    const m = spans.members[i]!;
    if (m.key === key) return m;
  }
  return undefined;
}

/**
 * Applies `edits` to one line (without its terminator). An existing key gets its value replaced in
 * place (the last occurrence, the one JSON.parse reports); a new key is appended after the last
 * member, in the order given. With no edits the input is returned unchanged.
 */
export function editTopLevel(line: Uint8Array, edits: readonly TopLevelEdit[]): EditResult {
  if (edits.length === 0) return { ok: true, bytes: line };
  const scanned = scanObjectLine(line);
  if (!scanned.ok) return { ok: false, error: scanned.error };
  const { spans } = scanned;
  const seps = separatorsOf(spans);
  const replacements: { start: number; end: number; text: string }[] = [];
  const appended: string[] = [];
  const seen = new Set<string>();
  for (const edit of edits) {
    if (seen.has(edit.key)) return { ok: false, error: `key '${edit.key}' is edited twice` };
    seen.add(edit.key);
    const text = edit.raw ?? serializeValue(edit.value, seps);
    const member = lastMember(spans, edit.key);
    if (member !== undefined) replacements.push({ start: member.valueStart, end: member.valueEnd, text });
    else appended.push(`${JSON.stringify(edit.key)}${seps.key}${text}`);
  }
  if (appended.length > 0) {
    const last = spans.members.at(-1);
    const at = last === undefined ? spans.open + 1 : last.valueEnd;
    const lead = last === undefined ? "" : seps.item;
    replacements.push({ start: at, end: at, text: lead + appended.join(seps.item) });
  }
  replacements.sort((a, b) => a.start - b.start);
  const chunks: Uint8Array[] = [];
  let cursor = 0;
  for (const r of replacements) {
    chunks.push(line.subarray(cursor, r.start), encoder.encode(r.text));
    cursor = r.end;
  }
  chunks.push(line.subarray(cursor));
  return { ok: true, bytes: concatBytes(chunks) };
}

export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
