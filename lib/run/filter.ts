/**
 * Structured filters over run rows, as one line of text so the URL, the CLI's --filter and the UI share
 * them: whitespace-separated clauses, all of which must hold.
 *
 *   recorded:0..0  contract:0.5..  legacy:..1     reward range (inclusive; either end may be left out)
 *   field:agent_ref.name=hermes_agent              a field of the rollout (dotted path) equals the text
 *   field:response.model~gpt                       ... or contains it (case-insensitive)
 *   flag:alias_guess   flag:ambiguous               some call has this flag or highlight
 *   cause:identity                                 the why-zero cause (lib/triage)
 *
 * A value with spaces is written as a JSON string: field:category="a b". parseFilter(formatFilter(x)) is x.
 */
import { ZERO_CAUSES, type ZeroCause } from "../triage";
import type { RunRow } from "./row";

export type RewardField = "recorded" | "contract" | "legacy";

export type FilterClause =
  | {
      readonly kind: "range";
      readonly field: RewardField;
      readonly min: number | null;
      readonly max: number | null;
    }
  | { readonly kind: "field"; readonly path: string; readonly op: "eq" | "contains"; readonly value: string }
  | { readonly kind: "flag"; readonly name: string }
  | { readonly kind: "cause"; readonly cause: ZeroCause };

export type ParsedFilter =
  | { readonly ok: true; readonly clauses: readonly FilterClause[] }
  | { readonly ok: false; readonly error: string };

const REWARD_FIELDS: readonly RewardField[] = ["recorded", "contract", "legacy"];
const TOKEN = /"(?:[^"\\]|\\.)*"|[^\s"]+/g;
const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;

function isRewardField(x: string): x is RewardField {
  return (REWARD_FIELDS as readonly string[]).includes(x);
}

function isCause(x: string): x is ZeroCause {
  return (ZERO_CAUSES as readonly string[]).includes(x);
}

/** Splits on whitespace outside JSON strings: `field:a="x y"` is one clause. */
function clauses(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const gap = text.slice(last, match.index);
    if (/\s/.test(gap) && current !== "") {
      out.push(current);
      current = "";
    }
    current += match[0];
    last = match.index + match[0].length;
  }
  if (current !== "") out.push(current);
  return out;
}

function parseNumber(text: string): number | null | undefined {
  if (text === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function parseValue(text: string): string | undefined {
  if (!text.startsWith('"')) return text;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseClause(token: string): FilterClause | string {
  const colon = token.indexOf(":");
  if (colon <= 0) return `"${token}": a clause is kind:value (recorded|contract|legacy|field|flag|cause)`;
  const kind = token.slice(0, colon);
  const rest = token.slice(colon + 1);
  if (isRewardField(kind)) {
    const dots = rest.indexOf("..");
    const [lo, hi] = dots < 0 ? [rest, rest] : [rest.slice(0, dots), rest.slice(dots + 2)];
    const min = parseNumber(lo);
    const max = parseNumber(hi);
    if (min === undefined || max === undefined || (dots < 0 && rest === ""))
      return `"${token}": a reward range is MIN..MAX, MIN.., ..MAX or one number`;
    return { kind: "range", field: kind, min, max };
  }
  if (kind === "field") {
    const op = rest.search(/[=~]/);
    if (op <= 0) return `"${token}": write field:PATH=TEXT or field:PATH~TEXT`;
    const path = rest.slice(0, op);
    if (!PATH.test(path)) return `"${token}": a field path is names joined by dots`;
    const value = parseValue(rest.slice(op + 1));
    if (value === undefined) return `"${token}": the value is not a valid JSON string`;
    return { kind: "field", path, op: rest[op] === "=" ? "eq" : "contains", value };
  }
  if (kind === "flag") {
    if (rest === "") return `"${token}": name a flag or highlight`;
    return { kind: "flag", name: rest };
  }
  if (kind === "cause") {
    if (!isCause(rest)) return `"${token}": the cause is one of ${ZERO_CAUSES.join(", ")}`;
    return { kind: "cause", cause: rest };
  }
  return `"${token}": unknown clause kind "${kind}" (recorded|contract|legacy|field|flag|cause)`;
}

export function parseFilter(text: string): ParsedFilter {
  if (text.replace(TOKEN, "").trim() !== "") return { ok: false, error: 'an unterminated " in the filter' };
  const out: FilterClause[] = [];
  for (const token of clauses(text)) {
    const clause = parseClause(token);
    if (typeof clause === "string") return { ok: false, error: clause };
    out.push(clause);
  }
  return { ok: true, clauses: out };
}

function formatValue(value: string): string {
  return value === "" || /[\s"]/.test(value) ? JSON.stringify(value) : value;
}

export function formatClause(clause: FilterClause): string {
  switch (clause.kind) {
    case "range":
      if (clause.min !== null && clause.min === clause.max) return `${clause.field}:${clause.min}`;
      return `${clause.field}:${clause.min ?? ""}..${clause.max ?? ""}`;
    case "field":
      return `field:${clause.path}${clause.op === "eq" ? "=" : "~"}${formatValue(clause.value)}`;
    case "flag":
      return `flag:${clause.name}`;
    case "cause":
      return `cause:${clause.cause}`;
  }
}

export function formatFilter(clauses: readonly FilterClause[]): string {
  return clauses.map(formatClause).join(" ");
}

/** Whether any clause reads the rollout itself (field clauses); others need only the row. */
export function needsRollout(clauses: readonly FilterClause[]): boolean {
  return clauses.some((c) => c.kind === "field");
}

function at(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    if (Array.isArray(current)) {
      const index = Number(key);
      if (!Number.isInteger(index)) return undefined;
      current = current[index];
    } else {
      if (!Object.hasOwn(current, key)) return undefined;
      current = Reflect.get(current, key);
    }
  }
  return current;
}

/** The text a field clause compares: strings as they are, other JSON values as JSON. */
function fieldText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function holds(clause: FilterClause, row: RunRow, rollout: unknown): boolean {
  switch (clause.kind) {
    case "range": {
      const reward = row[clause.field];
      if (reward === null) return false;
      return (clause.min === null || reward >= clause.min) && (clause.max === null || reward <= clause.max);
    }
    case "field": {
      const text = fieldText(at(rollout, clause.path));
      if (text === undefined) return false;
      return clause.op === "eq"
        ? text === clause.value
        : text.toLowerCase().includes(clause.value.toLowerCase());
    }
    case "flag":
      return row.flags.includes(clause.name);
    case "cause":
      return row.cause === clause.cause;
  }
}

/** Every clause holds. `rollout` is read only by field clauses (see needsRollout). */
export function matchesFilter(clauses: readonly FilterClause[], row: RunRow, rollout?: unknown): boolean {
  return clauses.every((clause) => holds(clause, row, rollout));
}
