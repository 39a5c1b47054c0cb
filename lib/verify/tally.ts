/**
 * The one-line account of a verify run that `cli verify` and `cli export --what verify` print on stderr:
 * rollouts and unreadable lines, the means over the rollouts that have each reward (with how many), how
 * many recomputed rewards differ from the recorded ones, and the unverified ones by reason code. One tally
 * for both, so a rollout without a recomputed reward is never counted as "verified" by one of them.
 */
import type { Policy } from "../identity/types";
import { MEAN_DECIMALS } from "../metrics";
import type { UnverifiedCode } from "./unverified";

export class VerifyTally {
  rollouts = 0;
  /** Lines that are not a readable rollout (not JSON, placeholder rows, task rows, other records). */
  unreadable = 0;
  /** Rollouts without a recomputed reward. */
  withoutReward = 0;
  /** Rollouts whose recomputed reward differs from the recorded one. */
  changed = 0;
  readonly unverified = new Map<UnverifiedCode, number>();
  private recordedSum = 0;
  private recordedCount = 0;
  private recomputedSum = 0;
  private recomputedCount = 0;

  add(recorded: number | null, recomputed: number | null, unverified: UnverifiedCode | null): void {
    this.rollouts++;
    if (unverified !== null) this.unverified.set(unverified, (this.unverified.get(unverified) ?? 0) + 1);
    if (recorded !== null) {
      this.recordedSum += recorded;
      this.recordedCount++;
    }
    if (recomputed === null) this.withoutReward++;
    else {
      this.recomputedSum += recomputed;
      this.recomputedCount++;
    }
    if (recorded !== null && recomputed !== null && recorded !== recomputed) this.changed++;
  }

  /** "verify (contract): 5 rollouts; mean recorded reward 0.6000 (of 5), …; 0 changed, 5 unverified (…)\n" */
  line(policy: Policy): string {
    const mean = (sum: number, count: number) =>
      count === 0 ? "n/a" : `${(sum / count).toFixed(MEAN_DECIMALS)} (of ${count})`;
    return (
      `verify (${policy}): ${this.rollouts} rollouts` +
      (this.unreadable > 0 ? `, ${this.unreadable} unreadable lines` : "") +
      `; mean recorded reward ${mean(this.recordedSum, this.recordedCount)}` +
      `, mean recomputed reward ${mean(this.recomputedSum, this.recomputedCount)}` +
      `; ${this.changed} changed, ${this.withoutReward} unverified` +
      (this.unverified.size > 0
        ? ` (${[...this.unverified.entries()]
            .sort((a, b) => b[1] - a[1])
            .map(([code, n]) => `${code} ${n}`)
            .join(", ")})`
        : "") +
      "\n"
    );
  }
}
