import type { RolloutIndexEntry } from "@/hooks/types";

/** Rewards are binned into this many cells per axis. */
const BINS = 10;
const SIZE = 132;
const PAD = 18;

interface Cell {
  x: number;
  y: number;
  count: number;
  changed: boolean;
}

function bin(value: number): number {
  const clamped = Math.min(1, Math.max(0, value));
  return Math.min(BINS - 1, Math.floor(clamped * BINS));
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
  const step = (SIZE - PAD) / BINS;
  const cx = (x: number) => PAD + (x + 0.5) * step;
  const cy = (y: number) => SIZE - PAD - (y + 0.5) * step;
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
      <line x1={PAD} y1={SIZE - PAD} x2={SIZE} y2={0} className="chart-diagonal" />
      {[...cells.values()].map((cell) => (
        <circle
          key={`${cell.x},${cell.y}`}
          cx={cx(cell.x)}
          cy={cy(cell.y)}
          r={2 + 4.5 * Math.sqrt(cell.count / max)}
          className={cell.changed ? "chart-dot chart-dot-changed" : "chart-dot"}
        >
          <title>{`${cell.count} rollout${cell.count === 1 ? "" : "s"}`}</title>
        </circle>
      ))}
      <text x={PAD} y={SIZE - 4} className="chart-label">
        0
      </text>
      <text x={SIZE - 2} y={SIZE - 4} className="chart-label" textAnchor="end">
        recorded 1
      </text>
      <text x={2} y={10} className="chart-label">
        1
      </text>
      <text x={10} y={SIZE - PAD - 4} className="chart-label" transform={`rotate(-90 10 ${SIZE - PAD - 4})`}>
        recomputed
      </text>
    </svg>
  );
}
