/**
 * Repaired JSONL: each rollout line goes through repairRollout; a repaired line gets exactly two keys
 * spliced in (`mcp_tool_call_provenance` and its `mcp_tool_call_provenance_derived` label), every
 * other line and byte is written as read.
 */
import { type HarnessId, inferHarness } from "../harness";
import {
  createRepairer,
  type RepairOptions,
  type RepairResult,
  type RepairServer,
  type UnresolvedReason,
} from "../repair";
import { readRollout } from "../schemas";
import type { SourceLine } from "./lines";
import { type LineOperation, type WrittenLine, writeLine } from "./write";

export interface RepairLineReport {
  readonly line: number;
  readonly status: RepairResult["status"];
  readonly message: string;
  readonly derived: number;
  readonly unresolved: readonly {
    readonly call_id: string | null;
    readonly emitted: string;
    readonly reason: UnresolvedReason;
  }[];
}

export interface RepairSummary {
  readonly harness: HarnessId;
  /** Lines read, blank lines included. */
  lines: number;
  repaired: number;
  unchanged: number;
  skipped: number;
  invalid: number;
  /** Lines that are not JSON: written back unchanged. */
  bad: { line: number; error: string }[];
  derived_calls: number;
  unresolved: Record<UnresolvedReason, number>;
  /** Alias collisions of the configuration (same for every line). */
  collisions: readonly {
    readonly alias: string;
    readonly identities: readonly { server: string; tool: string }[];
  }[];
  /**
   * Per-line outcomes for lines that are rollouts, or null when not kept (a multi-gigabyte file would
   * otherwise hold one entry per line in memory).
   */
  details: RepairLineReport[] | null;
  /** Distinct names no alias of the harness matched (no_match), at most LEFT_OUT_NAMES of them. */
  left_out: Set<string>;
  /**
   * Nothing repaired: the other harnesses whose aliases of the servers' tools those names are (lib/harness
   * inferHarness: a suggestion, said as inferred), set once every line is read.
   */
  suggested: HarnessId[];
}

/** The left-out names kept for the suggestion: enough to tell a harness, bounded on a huge file. */
export const LEFT_OUT_NAMES = 1000;

/** The harnesses other than the one tried whose aliases of the servers' tools the names are (inferred). */
export function suggestHarnesses(
  names: Iterable<string>,
  servers: readonly RepairServer[],
  tried: HarnessId,
): HarnessId[] {
  const emitted = [...names];
  const suggested = new Set<HarnessId>();
  for (const server of servers)
    for (const harness of inferHarness(emitted, server.name, server.tools)?.harnesses ?? [])
      if (harness !== tried) suggested.add(harness);
  return [...suggested];
}

export function emptyRepairSummary(
  harness: HarnessId,
  options: { keepDetails?: boolean } = {},
): RepairSummary {
  return {
    harness,
    lines: 0,
    repaired: 0,
    unchanged: 0,
    skipped: 0,
    invalid: 0,
    bad: [],
    derived_calls: 0,
    unresolved: { no_call_id: 0, duplicate_call_id: 0, collision: 0, no_match: 0 },
    collisions: [],
    details: options.keepDetails === false ? null : [],
    left_out: new Set(),
    suggested: [],
  };
}

/** A line operation that repairs and records each outcome in `summary`. */
export function repairOperation(options: RepairOptions, summary: RepairSummary): LineOperation {
  const repair = createRepairer(options);
  return (value, line) => {
    const read = readRollout(value);
    if (!read.ok) {
      summary.invalid++;
      summary.details?.push({ line, status: "invalid", message: read.message, derived: 0, unresolved: [] });
      return [];
    }
    const result = repair(read.rollout);
    summary[result.status]++;
    summary.derived_calls += result.derived.length;
    for (const u of result.unresolved) {
      summary.unresolved[u.reason]++;
      if (u.reason === "no_match" && summary.left_out.size < LEFT_OUT_NAMES) summary.left_out.add(u.emitted);
    }
    if (summary.collisions.length === 0 && result.collisions.length > 0)
      summary.collisions = result.collisions;
    summary.details?.push({
      line,
      status: result.status,
      message: result.message,
      derived: result.derived.length,
      unresolved: result.unresolved.map((u) => ({
        call_id: u.call_id,
        emitted: u.emitted,
        reason: u.reason,
      })),
    });
    return result.set;
  };
}

/** Repairs every line; the summary is complete once the generator is exhausted. */
export async function* repairJsonl(
  lines: AsyncIterable<SourceLine> | Iterable<SourceLine>,
  options: RepairOptions,
  summary: RepairSummary = emptyRepairSummary(options.harness),
): AsyncGenerator<WrittenLine> {
  const op = repairOperation(options, summary);
  for await (const src of lines) {
    summary.lines++;
    if (src.parsed !== null && !src.parsed.ok) summary.bad.push({ line: src.line, error: src.parsed.error });
    const written = writeLine(src, op);
    if (written.error !== undefined) summary.bad.push({ line: src.line, error: written.error });
    yield written;
  }
  if (summary.repaired === 0)
    summary.suggested = suggestHarnesses(summary.left_out, options.servers, options.harness);
}

/** One paragraph for a terminal. */
export function formatRepairSummary(s: RepairSummary): string {
  const rollouts = s.repaired + s.unchanged + s.skipped + s.invalid;
  const lines = [
    `repair (${s.harness}): ${s.repaired} of ${rollouts} rollouts repaired, ${s.derived_calls} calls given derived provenance.`,
  ];
  if (s.skipped > 0) lines.push(`${s.skipped} skipped: they already have a provenance map.`);
  if (s.unchanged > 0)
    lines.push(
      `${s.unchanged} unchanged: nothing to derive (no function_calls, or none is an unambiguous alias).`,
    );
  if (s.invalid > 0) lines.push(`${s.invalid} invalid: not a rollout (written unchanged).`);
  const reasons = Object.entries(s.unresolved).filter(([, n]) => n > 0);
  if (reasons.length > 0) lines.push(`calls left out: ${reasons.map(([r, n]) => `${r} ${n}`).join(", ")}.`);
  for (const c of s.collisions) {
    const who = c.identities.map((i) => `(${i.server}, ${i.tool})`).join(", ");
    lines.push(`collision: ${JSON.stringify(c.alias)} <- ${who}; calls with this name stay out.`);
  }
  if (s.suggested.length > 0)
    lines.push(
      `the names left out look like ${s.suggested.join(" or ")} aliases of these tools (inferred from the names): try --harness ${s.suggested[0]}.`,
    );
  for (const b of s.bad) lines.push(`line ${b.line}: ${b.error} (written unchanged)`);
  return `${lines.join("\n")}\n`;
}
