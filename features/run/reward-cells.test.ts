import { describe, expect, it } from "vitest";
import { BINS, cellTitle, PAIRS_NAMED, rewardCells } from "./reward-cells";

describe("rewardCells", () => {
  it("bins recorded against recomputed rewards and marks the cells whose score moved", () => {
    const { lo, hi, cells, max } = rewardCells([
      { recorded: 1, contract: 1 },
      { recorded: 1, contract: 1 },
      { recorded: 0, contract: 1 },
      { recorded: 0.5, contract: 0.5 },
    ]);
    expect({ lo, hi, max }).toEqual({ lo: 0, hi: 1, max: 2 });
    expect(cells.map(({ x, y, count, changed }) => ({ x, y, count, changed }))).toEqual([
      { x: BINS, y: BINS, count: 2, changed: false },
      { x: 0, y: BINS, count: 1, changed: true },
      { x: BINS / 2, y: BINS / 2, count: 1, changed: false },
    ]);
    expect(cellTitle(cells[0]!)).toBe("2 rollouts: recorded 1, recomputed 1");
  });

  it("leaves out what cannot be drawn (a recorded NaN, a reward not computed) and stretches the axes to the rest", () => {
    const { lo, hi, cells } = rewardCells([
      { recorded: Number.NaN, contract: 1 },
      { recorded: 1, contract: null },
      { recorded: 2, contract: -1 },
    ]);
    expect({ lo, hi }).toEqual({ lo: -1, hi: 2 });
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({ x: BINS, y: 0, count: 1, changed: true });
  });

  it("names a cell's first distinct pairs and says there are others (continuous rewards)", () => {
    const points = Array.from({ length: 50 }, (_, i) => ({ recorded: 0.96 + i / 10_000, contract: 1 }));
    const { cells } = rewardCells([...points, ...points]);
    expect(cells).toHaveLength(1);
    expect(cells[0]?.count).toBe(100);
    expect(cells[0]?.pairs).toHaveLength(PAIRS_NAMED);
    expect(cellTitle(cells[0]!)).toMatch(/^100 rollouts: recorded 0\.96, recomputed 1; .*; and other pairs$/);
  });

  it("an empty run has the unit axes and no cell", () => {
    expect(rewardCells([])).toEqual({ lo: 0, hi: 1, cells: [], max: 1 });
  });
});
