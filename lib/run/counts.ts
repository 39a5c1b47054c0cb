/**
 * The one wording for how many rollouts a file holds. A line is either a rollout (it narrows to a Rollout:
 * lib/schemas readRollout) or an unreadable line (not JSON, not an object, or an object that is not a
 * rollout); unreadable lines are listed with their reasons and are in no rollout total (no mean, no
 * share, no triage cause). Every front end (the file chip, the run view, `cli triage`) says it this way.
 */

import type { Policy } from "../identity/types";
import { UNVERIFIED_CODES, UNVERIFIED_LABEL, type UnverifiedCode } from "../verify/unverified";
import { type FilterClause, isFixedByMapClause } from "./filter";
import type { Reward } from "./reward";

export interface LineCounts {
  readonly rollouts: number;
  readonly unreadable: number;
  /** Lines still being written (a followed file's last line, its line break not yet there): not counted. */
  readonly waiting?: number;
}

/**
 * An integer with its thousands grouped as en-US writes them ("17,975"). Not toLocaleString: in the browser
 * its first calls set up ICU's number formatting, 30-60 ms of a main-thread task while a file loads
 * (bench/main-thread.md); other numbers go to it unchanged.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? `-${digits}` : digits;
}

/** A file's size as every page writes it: "512 B", "174.4 KiB", "12.3 MiB", "1.00 GiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** "1 rollout", "2,400 rollouts": a count with its noun in the right number. */
export function count(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** "24 rollouts", or "24 rollouts · 1 unreadable line" when some lines are not rollouts. */
export function lineCountsText(counts: LineCounts): string {
  const rollouts = count(counts.rollouts, "rollout", "rollouts");
  return counts.unreadable === 0
    ? rollouts
    : `${rollouts} · ${count(counts.unreadable, "unreadable line", "unreadable lines")}`;
}

/** A share as the breakdowns write it: "46.7%" (one decimal; "0.0%" of nothing). */
export function percent(n: number, total: number): string {
  return total === 0 ? "0.0%" : `${((100 * n) / total).toFixed(1)}%`;
}

const BASIS_TEXT: Readonly<Record<Reward, string>> = {
  recorded: "recorded",
  contract: "recompute to",
  legacy: "recompute to",
};

const UNSCORED_TEXT: Readonly<Record<Reward, string>> = {
  recorded: "with no recorded reward",
  contract: "not recomputed",
  legacy: "not recomputed",
};

const BASIS_AFTER: Readonly<Record<Reward, string>> = {
  recorded: "",
  contract: " under contract",
  legacy: " under legacy",
};

/**
 * The why-zero headline, explicit about its denominator and its reward: "6 of 24 rollouts recorded 0
 * (25.0%)" (or "recompute to 0 under contract"), plus "· 1 unreadable line, not counted" when some lines
 * are not rollouts. `negative`: how many of the `zero` are below 0 (lib/triage counts them as failed
 * too); when some are, the headline says "0 or less" and names them: "2 of 5 rollouts recorded 0 or less
 * (40.0%; 2 negative)". `unscored`: how many have no reward in `basis` (not recomputed, or none recorded),
 * named too, so that a view where nothing was recomputed never reads as a run without zeros: "0 of 5
 * rollouts recompute to 0 under contract (0.0%; 5 not recomputed)".
 */
export function zeroShareText(
  zero: number,
  counts: LineCounts,
  basis: Reward = "recorded",
  negative = 0,
  unscored = 0,
): string {
  // No rollout at all (a file of records without a response, Gym's bbq example): no share to give.
  if (counts.rollouts === 0)
    return counts.unreadable === 0
      ? "No rollout to count"
      : `No rollout to count: ${count(counts.unreadable, "unreadable line", "unreadable lines")}, each listed with what it is`;
  const what = negative > 0 ? "0 or less" : "0";
  const notes = [
    percent(zero, counts.rollouts),
    ...(negative > 0 ? [`${formatCount(negative)} negative`] : []),
    ...(unscored > 0 ? [`${formatCount(unscored)} ${UNSCORED_TEXT[basis]}`] : []),
  ];
  const head =
    `${formatCount(zero)} of ${count(counts.rollouts, "rollout", "rollouts")} ${BASIS_TEXT[basis]} ${what}${BASIS_AFTER[basis]}` +
    ` (${notes.join("; ")})`;
  const waiting = counts.waiting ?? 0;
  return [
    head,
    ...(counts.unreadable === 0
      ? []
      : [`${count(counts.unreadable, "unreadable line", "unreadable lines")}, not counted`]),
    ...(waiting === 0 ? [] : [`${count(waiting, "line", "lines")} still being written, not counted`]),
  ].join(" · ");
}

/** How many rollouts were not verified under a policy, by lib/verify's reason code. */
export type UnverifiedCounts = Readonly<Partial<Record<UnverifiedCode, number>>>;

/** The rollouts not verified under each policy. */
export type UnverifiedByPolicy = Readonly<Record<Policy, UnverifiedCounts>>;

export function unverifiedCounts(
  rows: readonly {
    readonly unverified: UnverifiedCode | null;
    readonly legacy_unverified: UnverifiedCode | null;
  }[],
): UnverifiedByPolicy {
  const contract: Partial<Record<UnverifiedCode, number>> = {};
  const legacy: Partial<Record<UnverifiedCode, number>> = {};
  for (const row of rows) {
    if (row.unverified !== null) contract[row.unverified] = (contract[row.unverified] ?? 0) + 1;
    if (row.legacy_unverified !== null)
      legacy[row.legacy_unverified] = (legacy[row.legacy_unverified] ?? 0) + 1;
  }
  return { contract, legacy };
}

/**
 * "5 of 5 rollouts not verified under the contract policy (no task data 5)", or null when every rollout was:
 * a summary that says "recomputed" must not leave out that some were not. The policy is the reward
 * setting's (the contract's for the recorded reward, as the other figures beside it recompute under it).
 * (The other policy may still have scored some of them: lib/triage reproducedText counts those neither
 * policy verified.)
 */
export function unverifiedText(
  byPolicy: UnverifiedByPolicy,
  rollouts: number,
  reward: Reward = "recorded",
): string | null {
  const policy: Policy = reward === "legacy" ? "legacy" : "contract";
  const counts = byPolicy[policy];
  const reasons = UNVERIFIED_CODES.flatMap((code) => {
    const n = counts[code] ?? 0;
    return n === 0 ? [] : [`${UNVERIFIED_LABEL[code]} ${formatCount(n)}`];
  });
  const total = UNVERIFIED_CODES.reduce((sum, code) => sum + (counts[code] ?? 0), 0);
  if (total === 0) return null;
  return `${formatCount(total)} of ${count(rollouts, "rollout", "rollouts")} not verified under the ${policy} policy (${reasons.join(", ")})`;
}

/**
 * What a why-zero breakdown covers under a filter, in every front end's words: "Breakdown of 5 of 410
 * rollouts (filter: server:xlam_fc)", and which of its clauses it leaves out (lib/run choosesInBreakdown: a
 * cause, is:fixed_by_map), so every count stays whole.
 */
export function breakdownScopeText(
  filter: string,
  clauses: readonly FilterClause[],
  covered: number,
  total: number,
): string {
  const cause = clauses.some((c) => c.kind === "cause");
  const fixed = clauses.some(isFixedByMapClause);
  const left =
    cause && fixed
      ? "; its cause and is:fixed_by_map clauses are left out here, so every count stays whole"
      : cause
        ? "; its cause clause is left out here, so every cause stays visible"
        : fixed
          ? "; its is:fixed_by_map clause is left out here, so every count stays whole"
          : "";
  return `Breakdown of ${formatCount(covered)} of ${formatCount(total)} rollouts (filter: ${filter.trim()})${left}`;
}
