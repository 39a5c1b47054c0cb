import { describe, expect, it } from "vitest";
import { formatReward } from "./badges";

describe("formatReward", () => {
  it("shows whole rewards with one decimal and others with at most three, never a bare dot", () => {
    const cases: [number | null, string][] = [
      [1, "1.0"],
      [0, "0.0"],
      [-1, "-1.0"],
      [0.5, "0.5"],
      [0.125, "0.125"],
      [1 / 3, "0.333"],
      [12.5, "12.5"],
      // Float sums Gym writes (grl_sokoban's -2.0000000000000004, newton_bench's 0.9999999999999998).
      [-2.0000000000000004, "-2.0"],
      [0.9999999999999998, "1.0"],
      [0.1 + 0.2, "0.3"],
      [Number.NaN, "NaN"],
      [null, "—"],
    ];
    for (const [value, text] of cases) expect(formatReward(value), String(value)).toBe(text);
  });
});
