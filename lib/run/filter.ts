/**
 * Structured filters over run rows, as one line of text so the URL, the CLI's --filter and the UI share
 * them: whitespace-separated clauses, all of which must hold.
 *
 *   recorded:0..0  contract:0.5..  legacy:..1     reward range (inclusive; either end may be left out)
 *   field:agent_ref.name=hermes_agent              a field of the rollout (dotted path) equals the text
 *   field:response.model~gpt                       ... or contains it (case-insensitive)
 *   flag:alias_guess   flag:ambiguous               some call has this flag or highlight
 *   cause:identity                                 the why-zero cause (lib/triage)
 *   agent:hermes_agent                             agent_ref.name equals the text
 *   server:workplace_assistant                     the verifying server equals the text
 *   is:changed  is:unverified  is:no_server        the recomputed reward (contract) differs from the
 *                                                  recorded one / could not be computed / no verifying
 *                                                  server was decided
 *   is:fixed_by_map                                a zero that scores above 0 with a harness's
 *                                                  provenance map for its calls (harness what-if)
 *   is:text_call                                   no function_call: the call is written as text
 *                                                  (lib/triage text_call)
 *   text:"customer id"                             the raw line holds the text (ASCII letters fold case,
 *                                                  as the page's search does)
 *   verifier:failure_reason=tool_name_mismatch     a short field Gym's verifier wrote (a rollout not
 *                                                  verified here, lib/triage countedFields) has the value:
 *                                                  a string as it is, another value as JSON (hit=false)
 *
 * A value with spaces is written as a JSON string: field:category="a b". parseFilter(formatFilter(x)) is x.
 * The page's chips, tiles, cause buttons, agent and server selects and search box each edit one clause of
 * this one filter, so the list, the tiles, the metrics, the breakdown and the export all follow it.
 */

import { bareOrJsonString } from "../jsonl";
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
  | { readonly kind: "cause"; readonly cause: ZeroCause }
  | { readonly kind: "agent"; readonly value: string }
  | { readonly kind: "server"; readonly value: string }
  | { readonly kind: "is"; readonly state: RowState }
  | { readonly kind: "text"; readonly value: string }
  | { readonly kind: "verifier"; readonly key: string; readonly value: string };

/**
 * Row states an `is:` clause names: the recomputed reward (contract) differs from the recorded one, or is
 * missing; no verifying server was decided for the rollout; a zero that a provenance map for its calls
 * would score above 0 (lib/triage what_if_map: the harness what-if); a zero whose response writes its call as
 * text (lib/triage text_call).
 */
export const ROW_STATES = ["changed", "unverified", "no_server", "fixed_by_map", "text_call"] as const;
export type RowState = (typeof ROW_STATES)[number];

export type ParsedFilter =
  | { readonly ok: true; readonly clauses: readonly FilterClause[] }
  | { readonly ok: false; readonly error: string };

const KINDS = "recorded|contract|legacy|field|flag|cause|agent|server|is|text|verifier";
const REWARD_FIELDS: readonly RewardField[] = ["recorded", "contract", "legacy"];
const TOKEN = /"(?:[^"\\]|\\.)*"|[^\s"]+/g;
const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
/** A `verifier:` clause's key: a top-level key with no space, quote or `=` (others get no clause). */
const VERIFIER_KEY = /^[^\s"=]+$/;

function isRewardField(x: string): x is RewardField {
  return (REWARD_FIELDS as readonly string[]).includes(x);
}

function isRowState(x: string): x is RowState {
  return (ROW_STATES as readonly string[]).includes(x);
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

function parseClause(token: string): FilterClause | string {
  const colon = token.indexOf(":");
  if (colon <= 0) return `"${token}": a clause is kind:value (${KINDS})`;
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
    const value = bareOrJsonString(rest.slice(op + 1));
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
  if (kind === "agent" || kind === "server" || kind === "text") {
    const value = bareOrJsonString(rest);
    if (value === undefined) return `"${token}": the value is not a valid JSON string`;
    if (value === "") return `"${token}": ${kind}: needs a value`;
    return { kind, value };
  }
  if (kind === "verifier") {
    const eq = rest.indexOf("=");
    const key = rest.slice(0, eq);
    if (eq <= 0 || !VERIFIER_KEY.test(key)) return `"${token}": write verifier:KEY=VALUE`;
    const value = bareOrJsonString(rest.slice(eq + 1));
    if (value === undefined) return `"${token}": the value is not a valid JSON string`;
    return { kind: "verifier", key, value };
  }
  if (kind === "is") {
    if (!isRowState(rest)) return `"${token}": is: is one of ${ROW_STATES.join(", ")}`;
    return { kind: "is", state: rest };
  }
  return `"${token}": unknown clause kind "${kind}" (${KINDS})`;
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
    case "agent":
    case "server":
    case "text":
      return `${clause.kind}:${formatValue(clause.value)}`;
    case "is":
      return `is:${clause.state}`;
    case "verifier":
      return `verifier:${clause.key}=${formatValue(clause.value)}`;
  }
}

/**
 * The text a `verifier:` clause compares for a counted field's JSON text (lib/triage RecordedField): a
 * string as it is, another value as JSON, so `verifier:hit=false` and `verifier:reason=none` read plainly;
 * a string that would read as another value (`"false"`) as its JSON string, so no two values share a clause.
 */
export function verifierValueText(json: string): string {
  const text = bareOrJsonString(json) ?? json;
  // A string that reads as another value ("false", "1", "NaN") keeps its quotes: the boolean false and the
  // string "false" are two values of the counts, so two clauses.
  return json.startsWith('"') && readsAsValue(text) ? json : text;
}

/** Whether bare text reads as a JSON value other than a string (or as Python's NaN and infinities). */
function readsAsValue(text: string): boolean {
  if (/^-?(NaN|Infinity)$/.test(text)) return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The clause keeping the rollouts whose counted field `key` has the value `json` (its JSON text, as the
 * run's counts write it); null for a key no clause can name.
 */
export function verifierClause(key: string, json: string): FilterClause | null {
  return VERIFIER_KEY.test(key) ? { kind: "verifier", key, value: verifierValueText(json) } : null;
}

/**
 * The clauses that keep exactly the rollouts a recorded field's value is counted on (lib/triage
 * recordedFieldsByVerifier): the `verifier:` clause and, when the run has several verifying servers
 * (`group` given), that server's clause, or is:no_server for the rows no server was decided for. The zero
 * clause is the caller's. Null for a key no clause can name.
 */
export function recordedValueClauses(
  key: string,
  json: string,
  group?: string | null,
): { readonly value: FilterClause; readonly group: FilterClause | null } | null {
  const value = verifierClause(key, json);
  if (value === null) return null;
  if (group === undefined) return { value, group: null };
  return {
    value,
    group: group === null ? { kind: "is", state: "no_server" } : { kind: "server", value: group },
  };
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

/**
 * What a clause reads of a rollout. A run row (lib/run row.ts) is one; the page's list rows are another,
 * known in part while the file loads: a field left undefined is not known yet, and a clause that reads it
 * is undecided (evaluateFilter returns undefined) rather than false.
 */
export interface FilterSubject {
  readonly agent: string | null;
  readonly server: string | null;
  readonly recorded: number | null;
  readonly contract?: number | null;
  readonly legacy?: number | null;
  /** Distinct call flags and highlights (contract policy). */
  readonly flags?: readonly string[];
  /** Only the highlights (ambiguous, mismatched, external) when the flags are not known yet. */
  readonly highlights?: readonly string[];
  readonly cause?: ZeroCause | null;
  /** The harness whose provenance map rescues this zero (RunRow), null for none. */
  readonly what_if_map?: string | null;
  /** The zero's response writes its call as text (RunRow). */
  readonly text_call?: boolean;
  /** The short fields Gym's verifier wrote, where this project did not verify the rollout (RunRow). */
  readonly recorded_fields?: readonly { readonly key: string; readonly value: string }[];
}

export interface FilterContext {
  /** The parsed rollout: read by field clauses (see needsRollout). */
  readonly rollout?: unknown;
  /** Whether the raw line holds a text clause's text; undefined when not known (yet). */
  readonly text?: (needle: string) => boolean | undefined;
}

/** ASCII letters fold case, nothing else does: the page's byte search (worker/search.ts) finds the same lines. */
function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Whether a raw line holds a text clause's text, as the search box and `text:` read it. */
export function lineHolds(line: string, needle: string): boolean {
  return foldAscii(line).includes(foldAscii(needle));
}

/** A recomputed reward differs from the recorded one (both known). */
function changed(subject: FilterSubject): boolean | undefined {
  if (subject.contract === undefined) return undefined;
  return subject.recorded !== null && subject.contract !== null && subject.contract !== subject.recorded;
}

function holds(clause: FilterClause, row: FilterSubject, context: FilterContext): boolean | undefined {
  switch (clause.kind) {
    case "range": {
      const reward = row[clause.field];
      if (reward === undefined) return undefined;
      if (reward === null) return false;
      return (clause.min === null || reward >= clause.min) && (clause.max === null || reward <= clause.max);
    }
    case "field": {
      if (!("rollout" in context)) return undefined;
      const text = fieldText(at(context.rollout, clause.path));
      if (text === undefined) return false;
      return clause.op === "eq"
        ? text === clause.value
        : text.toLowerCase().includes(clause.value.toLowerCase());
    }
    case "flag":
      if (row.flags !== undefined) return row.flags.includes(clause.name);
      if (row.highlights !== undefined && HIGHLIGHT_NAMES.includes(clause.name))
        return row.highlights.includes(clause.name);
      return undefined;
    case "cause":
      return row.cause === undefined ? undefined : row.cause === clause.cause;
    case "agent":
      return row.agent === clause.value;
    case "server":
      return row.server === clause.value;
    case "is":
      if (clause.state === "changed") return changed(row);
      if (clause.state === "no_server") return row.server === null;
      if (clause.state === "fixed_by_map")
        return row.what_if_map === undefined ? undefined : row.what_if_map !== null;
      if (clause.state === "text_call") return row.text_call;
      return row.contract === undefined ? undefined : row.contract === null;
    case "text":
      return context.text?.(clause.value);
    case "verifier":
      if (row.recorded_fields === undefined) return undefined;
      return row.recorded_fields.some(
        (field) => field.key === clause.key && verifierValueText(field.value) === clause.value,
      );
  }
}

const HIGHLIGHT_NAMES: readonly string[] = ["ambiguous", "mismatched", "external"];

/**
 * Whether every clause holds: true, false, or undefined when no clause fails and some cannot be decided
 * yet from what the subject and context know.
 */
export function evaluateFilter(
  clauses: readonly FilterClause[],
  subject: FilterSubject,
  context: FilterContext = {},
): boolean | undefined {
  let decided = true;
  for (const clause of clauses) {
    const result = holds(clause, subject, context);
    if (result === false) return false;
    if (result === undefined) decided = false;
  }
  return decided ? true : undefined;
}

/**
 * Every clause holds for a fully known row. `rollout` is read only by field clauses (see needsRollout);
 * `line` (the raw line text) only by text clauses.
 */
export function matchesFilter(
  clauses: readonly FilterClause[],
  row: RunRow,
  rollout?: unknown,
  line?: string,
): boolean {
  return (
    evaluateFilter(clauses, row, {
      rollout,
      ...(line === undefined ? {} : { text: (needle: string) => lineHolds(line, needle) }),
    }) === true
  );
}

/** The clauses with every clause of these kinds left out (e.g. the breakdown ignores its own cause clause). */
export function withoutKinds(
  clauses: readonly FilterClause[],
  kinds: readonly FilterClause["kind"][],
): FilterClause[] {
  return clauses.filter((clause) => !kinds.includes(clause.kind));
}

/**
 * Whether a clause chooses among the why-zero breakdown's own rows (a cause; the zeros a provenance map
 * rescues): the breakdown leaves it out, so its counts stay whole while the list holds what was chosen.
 */
export function choosesInBreakdown(clause: FilterClause): boolean {
  return clause.kind === "cause" || isFixedByMapClause(clause);
}

/** Whether a clause is `is:fixed_by_map` (the zeros a provenance map rescues). */
export function isFixedByMapClause(clause: FilterClause): boolean {
  return clause.kind === "is" && clause.state === "fixed_by_map";
}

/** The clauses the why-zero breakdown counts under (every front end's): all but choosesInBreakdown's. */
export function breakdownClauses(clauses: readonly FilterClause[]): FilterClause[] {
  return clauses.filter((clause) => !choosesInBreakdown(clause));
}

/** The text clauses' texts (the page answers them with its byte search). */
export function textsOf(clauses: readonly FilterClause[]): string[] {
  return clauses.flatMap((clause) => (clause.kind === "text" ? [clause.value] : []));
}
