/**
 * The decisive calls of a zero and each call's outcome badge, read from one verify result (the policy whose
 * recomputation scored 0). Call numbers are 0-based positions among the rollout's function_calls, in
 * `response.output` order ("call #k" everywhere).
 *
 * workplace_assistant reports what each call did and, per cell of a table difference, which call wrote it
 * (lib/verifiers/workplace_assistant/writes.ts), so its decisive calls are exact: the calls Gym skipped or a
 * table-changing tool refused, else the calls whose writes produced each differing cell, extra row or
 * removed row. A cell or row no predicted call wrote is "never written", with the ground-truth action that
 * would have written it ("not called"). The other verifiers name the call they read (the injection
 * matched, the values extracted, the refused get_weather), badged "judged".
 */
import type { CallRecord, DisplayCell, RowView, TableDiff } from "../verifiers/workplace_assistant";
import type { VerifyResult } from "../verify/types";
import { readCallOutcomes, readTableDiffs } from "./details";

export type CallBadgeKind = "ok" | "refused" | "skipped" | "wrote" | "not_called" | "judged";

/** What a call did, as its card and transcript step show it. */
export interface CallBadge {
  readonly kind: CallBadgeKind;
  /** ok: ""; refused: the tool's text; skipped: why Gym skipped it; wrote: "table.key" list; judged: what. */
  readonly text: string;
}

/** One call that lost the reward, with why. */
export interface DecisiveCall {
  readonly index: number;
  readonly why: string;
}

/** One differing cell or row of the end state, traced to the call that wrote it. */
export interface CellTrace {
  readonly table: string;
  readonly key: string;
  /** The column of a differing cell; null for a whole row (extra or missing). */
  readonly column: string | null;
  readonly what: "cell" | "extra_row" | "missing_row";
  /** The predicted call that wrote (or removed) it; null: never written by a call. */
  readonly by: number | null;
  /** The ground-truth action that wrote the expected value or row (removed it, for an extra row); null: none. */
  readonly expectedBy: number | null;
  readonly predicted?: DisplayCell;
  readonly expected?: DisplayCell;
}

/** How many traces a sentence quotes. */
export const TRACES_PER_SENTENCE = 3;

function keyText(cell: DisplayCell | undefined): string {
  return typeof cell === "string" ? cell : JSON.stringify(cell ?? null);
}

/** Every differing cell, extra row and missing row of the unequal tables, with who wrote it. */
export function traceTables(
  tables: readonly TableDiff[],
  keyColumns: ReadonlyMap<string, string>,
): CellTrace[] {
  const out: CellTrace[] = [];
  for (const table of tables) {
    if (table.equal) continue;
    const keyColumn = keyColumns.get(table.table) ?? "";
    for (const cell of table.differingCells) {
      out.push({
        table: table.table,
        key: keyText(cell.rowKey),
        column: cell.column,
        what: "cell",
        by: cell.writtenBy ?? null,
        expectedBy: cell.expectedBy ?? null,
        predicted: cell.predicted,
        expected: cell.expected,
      });
    }
    const rowTrace = (row: RowView, what: "extra_row" | "missing_row", by: number | null | undefined) =>
      out.push({
        table: table.table,
        key: keyText(row.values[keyColumn]),
        column: null,
        what,
        by: by ?? null,
        expectedBy: row.expectedBy ?? null,
      });
    for (const row of table.onlyPredicted) rowTrace(row, "extra_row", row.writtenBy);
    for (const row of table.onlyExpected) rowTrace(row, "missing_row", row.removedBy);
  }
  return out;
}

/** workplace_assistant's key column per compared table (the row a trace names). */
export const WORKPLACE_KEYS: ReadonlyMap<string, string> = new Map([
  ["calendar_events", "event_id"],
  ["emails", "email_id"],
  ["plots_data", "file_path"],
  ["project_tasks", "task_id"],
  ["crm_data", "customer_id"],
]);

/** A call Gym skipped (it raised, or named no tool) or a table-changing tool refused. */
export function isFailedCall(call: CallRecord): boolean {
  return (
    call.outcome === "error" ||
    call.outcome === "unknown_name" ||
    (call.outcome === "refused" && call.mutates === true)
  );
}

function skipReason(call: CallRecord): string {
  if (call.outcome === "unknown_name")
    return `no tool named ${call.name || "(no name)"} (${call.message ?? "KeyError"})`;
  return (call.message ?? "raised").replace(/\.$/, "");
}

export function badgeOf(call: CallRecord): CallBadge {
  switch (call.outcome) {
    case "refused":
      return { kind: "refused", text: call.message ?? "" };
    case "error":
    case "unknown_name":
      return { kind: "skipped", text: skipReason(call) };
    case "applied": {
      const writes = call.writes ?? [];
      if (writes.length === 0) return { kind: "ok", text: "" };
      return {
        kind: "wrote",
        text: writes.map((w) => `${w.kind === "removed" ? "removed " : ""}${w.table}.${w.key}`).join(", "),
      };
    }
  }
}

/**
 * Each function_call's badge (index = call number), or null where the verifier says nothing about a call.
 * workplace_assistant: every call it replayed; a call beyond its list is "not called".
 */
export function callBadges(result: VerifyResult, callCount: number): (CallBadge | null)[] {
  const records = readCallOutcomes(result.details);
  const badges: (CallBadge | null)[] = new Array(callCount).fill(null);
  if (result.details?.kind === "workplace_assistant") {
    for (let i = 0; i < callCount; i++) {
      const record = records[i];
      badges[i] =
        record === undefined ? { kind: "not_called", text: "the verifier never ran it" } : badgeOf(record);
    }
    return badges;
  }
  for (const judged of judgedCalls(result)) {
    if (judged.index < callCount) badges[judged.index] = { kind: "judged", text: judged.why };
  }
  return badges;
}

/** The calls another verifier read to decide (the only per-call facts it reports). */
export function judgedCalls(result: VerifyResult): DecisiveCall[] {
  const details = result.details;
  switch (details?.kind) {
    case "indirect_prompt_injection":
      return details.matched_call === null
        ? []
        : [{ index: details.matched_call.index, why: "followed the injected instruction" }];
    case "example_multi_step":
      return details.extract_call === null
        ? []
        : [{ index: details.extract_call, why: "its reported values were scored" }];
    case "example_mcp_weather":
      return details.refused_calls.map((index) => ({
        index,
        why: 'refused: arguments are not {"city": <str>}',
      }));
    case "example_tool_call_multireward":
      return details.matching_call === null
        ? details.predicted_calls.length === 0
          ? []
          : [{ index: 0, why: "compared with expected_call: no call matched" }]
        : [{ index: details.matching_call, why: "matched expected_call" }];
    default:
      return [];
  }
}

function cellText(trace: CellTrace): string {
  return trace.column === null
    ? `${trace.table} row ${trace.key}`
    : `${trace.table} ${trace.key}.${trace.column}`;
}

/** One clause per trace: "crm_data 00000095.status written by call #2 (predicted "lost", expected "won")". */
export function traceText(trace: CellTrace, groundTruthNames: readonly string[]): string {
  const values =
    trace.what === "cell"
      ? ` (predicted ${JSON.stringify(trace.predicted)}, expected ${JSON.stringify(trace.expected)})`
      : "";
  const gt =
    trace.expectedBy === null
      ? ""
      : `; ground-truth action #${trace.expectedBy} ${groundTruthNames[trace.expectedBy] ?? ""}`.trimEnd();
  switch (trace.what) {
    case "cell":
      return trace.by === null
        ? `${cellText(trace)} never written${values}${gt === "" ? "" : `${gt} was not called`}`
        : `${cellText(trace)} written by call #${trace.by}${values}`;
    case "extra_row":
      return trace.by !== null
        ? `${cellText(trace)} added by call #${trace.by}, not expected`
        : trace.expectedBy === null
          ? `${cellText(trace)} only in the predicted state`
          : `${cellText(trace)} never removed${gt} (which removes it) was not called`;
    case "missing_row":
      return trace.by !== null
        ? `${cellText(trace)} removed by call #${trace.by}`
        : `${cellText(trace)} never written${gt === "" ? "" : `${gt} was not called`}`;
  }
}

/** The workplace traces of a verify result (empty for other verifiers or equal tables). */
export function tracesOf(result: VerifyResult): CellTrace[] {
  return traceTables(readTableDiffs(result.details), WORKPLACE_KEYS);
}

/** The ground-truth actions' names, by index (workplace_assistant), for "action #j NAME was not called". */
export function groundTruthNames(result: VerifyResult): string[] {
  return result.details?.kind === "workplace_assistant"
    ? result.details.groundTruthCalls.map((c) => c.name)
    : [];
}

const BADGE_KINDS: readonly CallBadgeKind[] = ["ok", "refused", "skipped", "wrote", "not_called", "judged"];

/**
 * Calls' badges, packed for a long rollout (100k calls): one kind byte per call (0: no badge) and one
 * index per call into the distinct texts, so aliased calls that all fail alike cost a byte and an int each.
 * A pack holds calls [start, start + kinds.length): every call, the first ones, or one page of them.
 */
export interface PackedBadges {
  /** The first call packed. */
  readonly start: number;
  /** The badges of calls start .. start + kinds.length - 1. */
  readonly kinds: Uint8Array;
  readonly texts: Int32Array;
  readonly strings: readonly string[];
  /** Badges of the calls asked for beyond those (the decisive ones), by call index. */
  readonly beyond: readonly { readonly index: number; readonly badge: CallBadge }[];
}

/** The first `limit` calls' badges, packed, plus the badges of the `also` calls beyond them. */
export function packBadges(
  badges: readonly (CallBadge | null)[],
  limit: number,
  also: readonly number[] = [],
): PackedBadges {
  const beyond = also.flatMap((index) => {
    const badge = index >= limit ? badges[index] : undefined;
    return badge ? [{ index, badge }] : [];
  });
  return { ...packRange(badges.slice(0, limit), 0), beyond };
}

/** Calls [start, end) of packed badges, packed on their own (a page the detail pane asks for). */
export function badgePage(packed: PackedBadges, start: number, end: number): PackedBadges {
  const from = Math.max(start, packed.start);
  const to = Math.min(end, packed.start + packed.kinds.length);
  const badges: (CallBadge | null)[] = [];
  for (let i = from; i < to; i++) badges.push(badgeAt(packed, i));
  return { ...packRange(badges, Math.max(0, from)), beyond: [] };
}

/** `shown` are the badges of calls start, start + 1, ...: packed with their distinct texts. */
function packRange(shown: readonly (CallBadge | null)[], start: number): Omit<PackedBadges, "beyond"> {
  const kinds = new Uint8Array(shown.length);
  const texts = new Int32Array(shown.length);
  const strings: string[] = [];
  const ids = new Map<string, number>();
  shown.forEach((badge, i) => {
    if (badge === null) return;
    kinds[i] = BADGE_KINDS.indexOf(badge.kind) + 1;
    let id = ids.get(badge.text);
    if (id === undefined) {
      id = strings.length;
      strings.push(badge.text);
      ids.set(badge.text, id);
    }
    texts[i] = id;
  });
  return { start, kinds, texts, strings };
}

/** Whether the pack holds call `index`'s badge (or that it has none): its range, or its `beyond` calls. */
export function packHolds(packed: PackedBadges, index: number): boolean {
  return (
    (index >= packed.start && index < packed.start + packed.kinds.length) ||
    packed.beyond.some((b) => b.index === index)
  );
}

/** The badge of call `index` in packed badges (null: none, no such call, or not in this pack). */
export function badgeAt(packed: PackedBadges | undefined, index: number): CallBadge | null {
  if (packed === undefined) return null;
  const at = index - packed.start;
  if (at < 0 || at >= packed.kinds.length) return packed.beyond.find((b) => b.index === index)?.badge ?? null;
  const kind = BADGE_KINDS[(packed.kinds[at] ?? 0) - 1];
  if (kind === undefined) return null;
  return { kind, text: packed.strings[packed.texts[at] ?? 0] ?? "" };
}
