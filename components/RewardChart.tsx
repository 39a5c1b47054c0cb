import type { RolloutIndexEntry } from "@/hooks/types";

/** Rewards are binned into this many steps per axis. */
const BINS = 10;
const SIZE = 132;
/** Room for the axis labels (left, bottom). */
const PAD = 18;
/** Room between the frame and the extreme dots, so 0 and 1 are not clipped. */
const INSET = 9;

interface Cell {
  x: number;
  y: number;
  count: number;
  changed: boolean;
}

function bin(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * BINS);
}

/** Recorded (x) against recomputed (y, policy contract) rewards; off-diagonal cells are rollouts whose score moved. */
export function RewardChart({ entries }: { entries: readonly RolloutIndexEntry[] }) {
  const cells = new Map<string, Cell>();
  for (const entry of entries) {
    if (entry.recorded === null || entry.contract === null) continue;
    const x = bin(entry.recorded);
    const y = bin(entry.contract);
    const key = `${x},${y}`;
    const cell = cells.get(key) ?? { x, y, count: 0, changed: false };
    cell.count++;
    if (entry.recorded !== entry.contract) cell.changed = true;
    cells.set(key, cell);
  }
  const max = Math.max(1, ...[...cells.values()].map((cell) => cell.count));
  const step = (SIZE - PAD - 2 * INSET) / BINS;
  const cx = (x: number) => PAD + INSET + x * step;
  const cy = (y: number) => SIZE - PAD - INSET - y * step;
  return (
    <svg
      className="reward-chart"
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      width={SIZE}
      height={SIZE}
      role="img"
      aria-label="Recorded against recomputed reward"
    >
      <rect x={PAD} y={0} width={SIZE - PAD} height={SIZE - PAD} className="chart-frame" />
      <line x1={cx(0)} y1={cy(0)} x2={cx(BINS)} y2={cy(BINS)} className="chart-diagonal" />
      {[...cells.values()].map((cell) => (
        <circle
          key={`${cell.x},${cell.y}`}
          cx={cx(cell.x)}
          cy={cy(cell.y)}
          r={2.5 + 5 * Math.sqrt(cell.count / max)}
          className={cell.changed ? "chart-dot chart-dot-changed" : "chart-dot"}
        >
          <title>{`${cell.count} rollout${cell.count === 1 ? "" : "s"}: recorded ${cell.x / BINS}, recomputed ${cell.y / BINS}`}</title>
        </circle>
      ))}
      <text x={cx(0)} y={SIZE - 5} className="chart-label" textAnchor="middle">
        0
      </text>
      <text x={(cx(0) + cx(BINS)) / 2} y={SIZE - 5} className="chart-label" textAnchor="middle">
        recorded
      </text>
      <text x={cx(BINS)} y={SIZE - 5} className="chart-label" textAnchor="middle">
        1
      </text>
      <text x={PAD - 5} y={cy(0) + 3} className="chart-label" textAnchor="end">
        0
      </text>
      <text x={PAD - 5} y={cy(BINS) + 3} className="chart-label" textAnchor="end">
        1
      </text>
      <text
        x={8}
        y={(cy(0) + cy(BINS)) / 2}
        className="chart-label"
        textAnchor="middle"
        transform={`rotate(-90 8 ${(cy(0) + cy(BINS)) / 2})`}
      >
        recomputed
      </text>
    </svg>
  );
}
