import { memo } from "react";
import { cx } from "@/components/cx";
import type { RolloutIndexEntry } from "@/hooks/types";
import { type Reward, rewardName } from "@/lib/run";
import {
  type FilterFlag,
  filterApplies,
  flagClause,
  flagLabel,
  hasClause,
  type StatusCounts,
  toggleClause,
} from "./list";
import { RewardChart } from "./RewardChart";
import styles from "./SummaryBand.module.css";

interface Props {
  /** Counts over the rows the filter keeps: the tiles follow the one filter, as the list does. */
  counts: StatusCounts;
  entries: readonly RolloutIndexEntry[];
  /** Every rollout of the file (the scope's denominator). */
  total: number;
  errorLines: number;
  /** The one filter (lib/run syntax); a tile toggles its clause. */
  filter: string;
  onFilter(filter: string): void;
  /** The run view's reward setting: the zero tile counts and filters zeros in it. */
  reward: Reward;
  /** What the rows whose rewards are pending are doing: "restoring" after a reload, else "pending". */
  pendingLabel: string;
}

type Counted = "unverified" | "changed" | "zero" | "ambiguous" | "mismatched" | "external";

function perRollout(key: Counted): key is "unverified" | "changed" | "zero" {
  return key === "unverified" || key === "changed" || key === "zero";
}

/** Every tile counts rollouts, the unit its filter selects; call counts are in the hint. */
function tileValue(counts: StatusCounts, key: Counted): number {
  return perRollout(key) ? counts[key] : counts.rollouts_with[key];
}

function tileHint(counts: StatusCounts, key: Counted, hint: string): string {
  return perRollout(key) ? hint : `${hint} (${counts[key]} calls in all)`;
}

const TILES: readonly {
  flag: FilterFlag;
  key: Counted;
  tone: string;
  hint: string;
}[] = [
  {
    flag: "unverified",
    key: "unverified",
    tone: "unverified",
    hint: "rollouts without a recomputed reward (contract): each row says why (no server, no task data, Gym refuses, ...)",
  },
  {
    flag: "changed",
    key: "changed",
    tone: "changed",
    hint: "rollouts whose recomputed reward (contract) differs from the recorded one",
  },
  {
    flag: "zero",
    key: "zero",
    tone: "neutral",
    hint: "rollouts whose reward is 0 or below",
  },
  {
    flag: "ambiguous",
    key: "ambiguous",
    tone: "ambiguous",
    hint: "rollouts with an ambiguous call: duplicate or missing call_ids, alias guesses and collisions",
  },
  {
    flag: "mismatched",
    key: "mismatched",
    tone: "mismatched",
    hint: "rollouts with a mismatched call: malformed entries, near-miss servers, unknown tools, disagreeing aliases",
  },
  {
    flag: "external",
    key: "external",
    tone: "external",
    hint: "rollouts with a call that provenance attributes to another server",
  },
];

function hintOf(tile: (typeof TILES)[number], reward: Reward): string {
  return tile.flag === "zero"
    ? `rollouts whose reward is 0 or below in ${rewardName(reward)} (the reward switch)`
    : tile.hint;
}

export const SummaryBand = memo(function SummaryBand(props: Props) {
  const { counts, entries, total, errorLines, filter, onFilter, pendingLabel, reward } = props;
  const filtered = filterApplies(filter);
  return (
    <section className={styles.summary} aria-label="Summary">
      {filtered && (
        <div
          className={cx("scope muted", styles.scope)}
          data-testid="tiles-scope"
          data-kept={counts.rollouts}
          data-total={total}
        >
          {counts.rollouts} of {total} rollouts (filter: <code>{filter.trim()}</code>)
        </div>
      )}
      <div className={styles.summaryTotals}>
        <div className={styles.total}>
          {/* Under a filter both totals are the kept rows', as the tiles are: "1 of 5 rollouts", its calls. */}
          <span className={styles.totalValue} data-testid="rollout-count">
            {counts.rollouts}
          </span>
          <span className={styles.totalLabel}>{filtered ? `of ${total} rollouts` : "rollouts"}</span>
        </div>
        <div className={styles.total}>
          <span className={styles.totalValue}>{counts.calls}</span>
          <span className={styles.totalLabel}>tool calls</span>
        </div>
        {errorLines > 0 && (
          <div className={cx(styles.total, styles.totalError)}>
            <span className={styles.totalValue} data-testid="error-count">
              {errorLines}
            </span>
            <span className={styles.totalLabel}>unreadable {errorLines === 1 ? "line" : "lines"}</span>
          </div>
        )}
        {counts.pending > 0 && (
          <div className={styles.total} data-testid="pending-count" data-pending={counts.pending}>
            <span className={styles.totalValue}>{counts.pending}</span>
            <span className={styles.totalLabel}>{pendingLabel}</span>
          </div>
        )}
      </div>
      <div className={styles.summaryTiles}>
        {TILES.map((tile) => {
          const clause = flagClause(tile.flag, reward);
          return (
            <button
              type="button"
              key={tile.flag}
              className={cx(
                styles.tile,
                styles[`tone_${tile.tone}`],
                hasClause(filter, clause) && styles.tileActive,
              )}
              aria-pressed={hasClause(filter, clause)}
              title={tileHint(counts, tile.key, hintOf(tile, reward))}
              data-summary={tile.flag}
              data-value={tileValue(counts, tile.key)}
              {...(tile.flag === "unverified" ? { "data-unverified-count": counts.unverified } : {})}
              onClick={() => onFilter(toggleClause(filter, clause))}
            >
              <span className={styles.tileValue}>{tileValue(counts, tile.key)}</span>
              <span className={styles.tileLabel}>
                {flagLabel(tile.flag, reward)}
                {perRollout(tile.key) ? "" : " rollouts"}
              </span>
            </button>
          );
        })}
      </div>
      <RewardChart entries={entries} />
    </section>
  );
});
