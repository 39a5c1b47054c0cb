import { cx } from "@/components/cx";
import type { RolloutIndexEntry } from "@/hooks/types";
import { type FilterFlag, flagClause, hasClause, type StatusCounts, toggleClause } from "./list";
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
  label: string;
  key: Counted;
  tone: string;
  hint: string;
}[] = [
  {
    flag: "unverified",
    label: "unverified",
    key: "unverified",
    tone: "unverified",
    hint: "rollouts without a recomputed reward (contract): each row says why (no server, missing task data, Gym refuses, ...)",
  },
  {
    flag: "changed",
    label: "reward changed",
    key: "changed",
    tone: "changed",
    hint: "rollouts whose recomputed reward (contract) differs from the recorded one",
  },
  {
    flag: "zero",
    label: "recorded 0",
    key: "zero",
    tone: "neutral",
    hint: "rollouts recorded with reward 0",
  },
  {
    flag: "ambiguous",
    label: "ambiguous",
    key: "ambiguous",
    tone: "ambiguous",
    hint: "rollouts with an ambiguous call: duplicate or missing call_ids, alias guesses and collisions",
  },
  {
    flag: "mismatched",
    label: "mismatched",
    key: "mismatched",
    tone: "mismatched",
    hint: "rollouts with a mismatched call: malformed entries, near-miss servers, unknown tools, disagreeing aliases",
  },
  {
    flag: "external",
    label: "external",
    key: "external",
    tone: "external",
    hint: "rollouts with a call that provenance attributes to another server",
  },
];

export function SummaryBand({ counts, entries, total, errorLines, filter, onFilter, pendingLabel }: Props) {
  const filtered = filter.trim() !== "";
  return (
    <section className={styles.summary} aria-label="Summary">
      {filtered && (
        <div className="scope muted" data-testid="tiles-scope" data-kept={counts.rollouts} data-total={total}>
          {counts.rollouts} of {total} rollouts (filter: <code>{filter.trim()}</code>)
        </div>
      )}
      <div className={styles.summaryTotals}>
        <div className={styles.total}>
          <span className={styles.totalValue} data-testid="rollout-count">
            {filtered ? total : counts.rollouts}
          </span>
          <span className={styles.totalLabel}>rollouts</span>
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
        {TILES.map((tile) => (
          <button
            type="button"
            key={tile.flag}
            className={cx(
              styles.tile,
              styles[`tone_${tile.tone}`],
              hasClause(filter, flagClause(tile.flag)) && styles.tileActive,
            )}
            aria-pressed={hasClause(filter, flagClause(tile.flag))}
            title={tileHint(counts, tile.key, tile.hint)}
            data-summary={tile.flag}
            data-value={tileValue(counts, tile.key)}
            {...(tile.flag === "unverified" ? { "data-unverified-count": counts.unverified } : {})}
            onClick={() => onFilter(toggleClause(filter, flagClause(tile.flag)))}
          >
            <span className={styles.tileValue}>{tileValue(counts, tile.key)}</span>
            <span className={styles.tileLabel}>
              {tile.label}
              {perRollout(tile.key) ? "" : " rollouts"}
            </span>
          </button>
        ))}
      </div>
      <RewardChart entries={entries} />
    </section>
  );
}
