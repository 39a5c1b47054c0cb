import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RowOffsets } from "./row-offsets";

/** The same answers by summing every row: what RowOffsets must agree with. */
function naive(sizes: readonly number[], gap: number) {
  const start = (index: number) => {
    let sum = 0;
    for (let i = 0; i < Math.min(index, sizes.length); i++) sum += (sizes[i] ?? 0) + gap;
    return sum;
  };
  return {
    start,
    total: () => (sizes.length === 0 ? 0 : start(sizes.length) - gap),
    indexAt: (offset: number) => {
      let index = 0;
      for (let i = 0; i < sizes.length; i++) if (start(i) <= offset) index = i;
      return index;
    },
  };
}

describe("RowOffsets", () => {
  it("places unmeasured rows at the estimate, with the gap between rows", () => {
    const rows = new RowOffsets(5, 100, 8);
    expect(rows.start(0)).toBe(0);
    expect(rows.start(3)).toBe(324);
    expect(rows.total()).toBe(5 * 100 + 4 * 8);
    expect(rows.indexAt(-50)).toBe(0);
    expect(rows.indexAt(107)).toBe(0);
    expect(rows.indexAt(108)).toBe(1);
    expect(rows.indexAt(1e9)).toBe(4);
    expect(rows.isMeasured(2)).toBe(false);
  });

  it("moves every later row when one is measured, and says by how much", () => {
    const rows = new RowOffsets(200_001, 70, 8);
    expect(rows.set(3, 300)).toBe(230);
    expect(rows.set(3, 300)).toBe(0);
    expect(rows.isMeasured(3)).toBe(true);
    expect(rows.start(3)).toBe(3 * 78);
    expect(rows.start(4)).toBe(3 * 78 + 308);
    expect(rows.start(200_001)).toBe(200_001 * 78 + 230);
    expect(rows.indexAt(3 * 78 + 307)).toBe(3);
    expect(rows.indexAt(3 * 78 + 308)).toBe(4);
    expect(rows.set(-1, 5)).toBe(0);
    expect(rows.set(200_001, 5)).toBe(0);
  });

  it("has no rows when empty", () => {
    const rows = new RowOffsets(0, 70, 8);
    expect(rows.total()).toBe(0);
    expect(rows.indexAt(100)).toBe(0);
    expect(rows.start(5)).toBe(0);
  });

  it("agrees with summing every row, whatever the sizes measured", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 0, max: 10 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 500 })), { maxLength: 40 }),
        fc.array(fc.integer({ min: -100, max: 20_000 }), { minLength: 1, maxLength: 10 }),
        (count, gap, measures, probes) => {
          const rows = new RowOffsets(count, 50, gap);
          const sizes = Array.from({ length: count }, () => 50);
          for (const [at, size] of measures) {
            rows.set(at % count, size);
            sizes[at % count] = size;
          }
          const expected = naive(sizes, gap);
          for (let i = 0; i <= count; i++) expect(rows.start(i)).toBe(expected.start(i));
          expect(rows.total()).toBe(expected.total());
          for (const offset of probes) expect(rows.indexAt(offset)).toBe(expected.indexAt(offset));
        },
      ),
    );
  });
});
