import type { Highlight } from "@/hooks/types";
import { STATUS_HIGHLIGHT } from "@/lib/identity";
import type { CallStatus, FlagName, Policy } from "@/lib/identity/types";
import type { CallBadge, CallBadgeKind } from "@/lib/triage";
import styles from "./badges.module.css";
import { cx } from "./cx";

/** Short words for statuses, as in the contract's table. */
const STATUS_HELP: Record<CallStatus, string> = {
  canonical: "provenance names the verifying server: the verifier sees the raw tool name",
  external: "provenance names another server: the verifier sees the emitted name",
  legacy: "no provenance map: the mcp__<server>__ prefix was stripped (legacy fallback)",
  bare: "no provenance map and no legacy prefix: the verifier sees the emitted name",
  non_mcp: "the map has no entry for this call_id: a non-MCP call",
  malformed: "the provenance entry or map is malformed: no canonicalization",
  duplicate: "this call_id occurs on several calls: fail closed",
  uncorrelated: "the call has no usable call_id",
};

/**
 * A status badge takes its status's own colour (lib's STATUS_HIGHLIGHT: external is purple); a flag that
 * raises the call's highlight (server_near_miss makes it mismatched) shows in its flag chip and the row.
 */
export function StatusBadge({ status, highlight }: { status: CallStatus; highlight: Highlight }) {
  return (
    <span
      className={cx(styles.badge, styles[`tone_${STATUS_HIGHLIGHT[status]}`])}
      data-badge-status={status}
      data-highlight={highlight}
      title={STATUS_HELP[status]}
    >
      {status}
    </span>
  );
}

export function FlagChip({ name, highlight }: { name: FlagName; highlight: Highlight }) {
  return <span className={cx(styles.flag, styles[`tone_${highlight}`])}>{name}</span>;
}

export function CountChip({
  highlight,
  count,
  label,
}: {
  highlight: Highlight;
  count: number;
  label?: string;
}) {
  if (count === 0) return <span className={cx(styles.count, styles.countZero)}>·</span>;
  return (
    <span className={cx(styles.count, styles[`count_${highlight}`])} title={label}>
      {count}
    </span>
  );
}

export function formatReward(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  if (Number.isInteger(value)) return value.toFixed(1);
  // 0.9999999999999998 rounds to "1.000": trimmed to "1.0", not "1." (float sums of Gym's rewards do this).
  return value.toFixed(3).replace(/(\.\d*?)0+$/, (_, kept: string) => (kept === "." ? ".0" : kept));
}

/** A call's outcome: its badge (null while the verification is on its way, or where it says nothing). */
export interface CallOutcome {
  readonly badge: CallBadge | null;
  /** One of the calls that lost the reward. */
  readonly decisive: boolean;
  /** Whose replay the badge comes from (lib/triage evidencePolicy); null while it is on its way. */
  readonly policy: Policy | null;
}

export const NO_OUTCOME: CallOutcome = { badge: null, decisive: false, policy: null };

/** "the legacy policy's replay": a badge says under which policy the call did what it says. */
export function replayName(policy: Policy | null): string {
  return policy === null ? "the verifier's replay" : `the ${policy} policy's replay`;
}

/** What a call did in the verifier's replay: ok, refused: text, skipped: why, wrote table.key, not called. */
export function OutcomeBadge({ badge, decisive, policy }: CallOutcome) {
  if (badge === null) return null;
  const label =
    badge.kind === "ok"
      ? "ok"
      : badge.kind === "not_called"
        ? "not called"
        : badge.kind === "wrote"
          ? `wrote ${badge.text}`
          : `${badge.kind}: ${badge.text}`;
  return (
    <span
      className={cx(styles.outcome, styles[`outcome_${badge.kind}`], decisive && styles.outcomeDecisive)}
      data-outcome={badge.kind}
      data-decisive={decisive ? "true" : undefined}
      title={`${decisive ? "Decisive: this call lost the reward. " : ""}${OUTCOME_HELP[badge.kind](replayName(policy))}${badge.text === "" ? "" : ` ${badge.text}`}`}
    >
      {decisive ? "decisive · " : ""}
      {label}
    </span>
  );
}

const OUTCOME_HELP: Record<CallBadgeKind, (replay: string) => string> = {
  ok: (replay) => `In ${replay}, the tool ran it and it changed no compared table.`,
  refused: (replay) => `In ${replay}, the tool refused it:`,
  skipped: (replay) => `In ${replay}, Gym skipped it (it raised, or named no tool of the server):`,
  wrote: (replay) => `In ${replay}, it changed these compared-table rows:`,
  not_called: (replay) => `In ${replay}, the verifier never ran it.`,
  judged: (replay) => `In ${replay}, the verifier read this call to decide:`,
};
