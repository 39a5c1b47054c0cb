/**
 * The reward chart's cells: recorded (x) against recomputed (y, policy contract) rewards binned on a grid.
 * Computed at every revision while rewards land (once a second over every row), so it walks the rows once
 * for the axes and once for the cells, allocating per cell and per distinct pair, never per row.
 */

/** Rewards are binned into this many steps per axis. */
export const BINS = 10;
/** Distinct (recorded, recomputed) pairs a cell's tooltip names; continuous rewards would name thousands. */
export const PAIRS_NAMED = 6;

export interface RewardPoint {
  readonly recorded: number | null;
  readonly contract: number | null;
}

export interface RewardCell {
  readonly x: number;
  readonly y: number;
  count: number;
  /** Some rollout in the cell scored other than it was recorded. */
  changed: boolean;
  /** The first PAIRS_NAMED distinct (recorded, recomputed) pairs, in row order. */
  readonly pairs: [number, number][];
  /** The cell holds more distinct pairs than `pairs` names. */
  more: boolean;
}

export interface RewardCells {
  /** The axes' range: [0, 1] stretched to every finite reward shown (multireward up to 3, negative rewards). */
  readonly lo: number;
  readonly hi: number;
  readonly cells: readonly RewardCell[];
  /** The largest cell's count (at least 1), which sizes the dots. */
  readonly max: number;
}

function drawn(point: RewardPoint): point is { recorded: number; contract: number } {
  // A recorded NaN (or a missing reward) is not drawn at all.
  return Number.isFinite(point.recorded) && Number.isFinite(point.contract);
}

function hasPair(pairs: readonly [number, number][], recorded: number, contract: number): boolean {
  for (const pair of pairs) if (pair[0] === recorded && pair[1] === contract) return true;
  return false;
}

export function rewardCells(points: readonly RewardPoint[]): RewardCells {
  let lo = 0;
  let hi = 1;
  for (const point of points) {
    if (!drawn(point)) continue;
    lo = Math.min(lo, point.recorded, point.contract);
    hi = Math.max(hi, point.recorded, point.contract);
  }
  const bin = (value: number) => Math.round(((value - lo) / (hi - lo)) * BINS);
  const byKey = new Map<number, RewardCell>();
  for (const point of points) {
    if (!drawn(point)) continue;
    const { recorded, contract } = point;
    const x = bin(recorded);
    const y = bin(contract);
    const key = x * (BINS + 1) + y;
    let cell = byKey.get(key);
    if (cell === undefined) {
      cell = { x, y, count: 0, changed: false, pairs: [], more: false };
      byKey.set(key, cell);
    }
    cell.count++;
    if (recorded !== contract) cell.changed = true;
    if (!hasPair(cell.pairs, recorded, contract)) {
      if (cell.pairs.length < PAIRS_NAMED) cell.pairs.push([recorded, contract]);
      else cell.more = true;
    }
  }
  const cells = [...byKey.values()];
  let max = 1;
  for (const cell of cells) max = Math.max(max, cell.count);
  return { lo, hi, cells, max };
}

/** The cell's tooltip: how many rollouts, and which exact pairs. */
export function cellTitle(cell: RewardCell): string {
  const pairs = cell.pairs.map(([r, c]) => `recorded ${r}, recomputed ${c}`).join("; ");
  return `${cell.count} rollout${cell.count === 1 ? "" : "s"}: ${pairs}${cell.more ? "; and other pairs" : ""}`;
}
