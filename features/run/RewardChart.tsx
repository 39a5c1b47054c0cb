import { memo } from "react";
import type { RolloutIndexEntry } from "@/hooks/types";
import styles from "./RewardChart.module.css";
import { BINS, cellTitle, rewardCells } from "./reward-cells";

const SIZE = 132;
/** Room for the axis labels (left, bottom). */
const PAD = 18;
/** Room between the frame and the extreme dots, so 0 and 1 are not clipped. */
const INSET = 9;

const label = (v: number) => String(Number(v.toPrecision(3)));

/** Recorded (x) against recomputed (y, policy contract) rewards; off-diagonal cells are rollouts whose score moved. */
/** Re-rendered only when the rows change (not at every session event): it walks every row. */
export const RewardChart = memo(function RewardChart({ entries }: { entries: readonly RolloutIndexEntry[] }) {
  const { lo, hi, cells, max } = rewardCells(entries);
  const step = (SIZE - PAD - 2 * INSET) / BINS;
  const cx = (x: number) => PAD + INSET + x * step;
  const cy = (y: number) => SIZE - PAD - INSET - y * step;
  return (
    <svg
      className={styles.rewardChart}
      data-testid="reward-chart"
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      width={SIZE}
      height={SIZE}
      role="img"
      aria-label="Recorded against recomputed reward"
    >
      <rect x={PAD} y={0} width={SIZE - PAD} height={SIZE - PAD} className={styles.chartFrame} />
      <line x1={cx(0)} y1={cy(0)} x2={cx(BINS)} y2={cy(BINS)} className={styles.chartDiagonal} />
      {cells.map((cell) => (
        <circle
          key={`${cell.x},${cell.y}`}
          cx={cx(cell.x)}
          cy={cy(cell.y)}
          r={2.5 + 5 * Math.sqrt(cell.count / max)}
          className={cell.changed ? `${styles.chartDot} ${styles.chartDotChanged}` : styles.chartDot}
        >
          <title>{cellTitle(cell)}</title>
        </circle>
      ))}
      <text x={cx(0)} y={SIZE - 5} className={styles.chartLabel} textAnchor="middle">
        {label(lo)}
      </text>
      <text x={(cx(0) + cx(BINS)) / 2} y={SIZE - 5} className={styles.chartLabel} textAnchor="middle">
        recorded
      </text>
      <text x={cx(BINS)} y={SIZE - 5} className={styles.chartLabel} textAnchor="middle" data-axis-max={hi}>
        {label(hi)}
      </text>
      <text x={PAD - 5} y={cy(0) + 3} className={styles.chartLabel} textAnchor="end">
        {label(lo)}
      </text>
      <text x={PAD - 5} y={cy(BINS) + 3} className={styles.chartLabel} textAnchor="end">
        {label(hi)}
      </text>
      <text
        x={8}
        y={(cy(0) + cy(BINS)) / 2}
        className={styles.chartLabel}
        textAnchor="middle"
        transform={`rotate(-90 8 ${(cy(0) + cy(BINS)) / 2})`}
      >
        recomputed
      </text>
    </svg>
  );
});
