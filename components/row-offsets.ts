/**
 * Where each row of a long virtualized list starts, for lists of hundreds of thousands of rows whose rows
 * are measured as they appear. A row's size change, a row's start and the row at an offset each cost
 * O(log n) (a Fenwick tree of the rows' strides), and setting it up is one pass over typed arrays.
 * A list that recomputes every row's start after each measurement (TanStack Virtual does) spent 5-40 ms per
 * measurement on a 200k-item transcript: the long main-thread tasks of a long rollout's open
 * (bench/hostile-browser.md).
 */
export class RowOffsets {
  private readonly sizes: Float64Array;
  private readonly measured: Uint8Array;
  /** 1-based Fenwick tree of size + gap per row. */
  private readonly tree: Float64Array;
  /** The highest power of two not above count (the descent's first step). */
  private readonly topStep: number;

  constructor(
    readonly count: number,
    estimate: number,
    readonly gap = 0,
  ) {
    this.sizes = new Float64Array(count).fill(estimate);
    this.measured = new Uint8Array(count);
    this.tree = new Float64Array(count + 1);
    const stride = estimate + gap;
    // Every row the same stride: node i covers (i & -i) rows.
    for (let i = 1; i <= count; i++) this.tree[i] = (i & -i) * stride;
    let step = 1;
    while (step * 2 <= count) step *= 2;
    this.topStep = count === 0 ? 0 : step;
  }

  size(index: number): number {
    return this.sizes[index] ?? 0;
  }

  /** Whether the row's size was measured (else it is the estimate). */
  isMeasured(index: number): boolean {
    return this.measured[index] === 1;
  }

  /** Sets a row's measured size; returns how much it changed. */
  set(index: number, size: number): number {
    if (index < 0 || index >= this.count) return 0;
    this.measured[index] = 1;
    const delta = size - (this.sizes[index] ?? 0);
    if (delta === 0) return 0;
    this.sizes[index] = size;
    for (let i = index + 1; i <= this.count; i += i & -i) this.tree[i] = (this.tree[i] ?? 0) + delta;
    return delta;
  }

  /** The offset of a row's top from the list's top (rows before it, each with its gap). */
  start(index: number): number {
    let sum = 0;
    for (let i = Math.max(0, Math.min(index, this.count)); i > 0; i -= i & -i) sum += this.tree[i] ?? 0;
    return sum;
  }

  /** The list's height: every row and the gaps between them. */
  total(): number {
    return this.count === 0 ? 0 : this.start(this.count) - this.gap;
  }

  /** The row at `offset` px from the list's top: the last one starting at or before it (0 above the list). */
  indexAt(offset: number): number {
    if (this.count === 0) return 0;
    let position = 0;
    let rest = offset;
    for (let step = this.topStep; step > 0; step >>= 1) {
      const next = position + step;
      const span = this.tree[next];
      if (next <= this.count && span !== undefined && span <= rest) {
        position = next;
        rest -= span;
      }
    }
    return Math.min(position, this.count - 1);
  }
}
