/**
 * Alignment of two canonical action sequences, with a bound on its cost (a file controls the length).
 *
 * 1. The common prefix and suffix are matched in linear time. Identical runs (the usual case, and the
 *    question "did both do the same thing?") never reach step 2, and the first divergence is always
 *    the first step after the prefix, whatever happens next.
 * 2. The differing middle is aligned by jsdiff's Myers diff with `maxEditLength: MAX_ALIGNMENT_EDITS`.
 *    Myers costs about O((N+M)·D) for D insertions+deletions; unbounded, two 16k-call rollouts that
 *    differ throughout took 88 s and two 100k-call ones never finished.
 * 3. A middle that needs more edits than the cap is "too long to align": it is shown position by
 *    position (call k of a beside call k of b) and compared by counts (how many calls of each tool each
 *    side made there), and the result says so.
 */
import { diffArrays } from "diff";
import type { Action } from "./actions";

/**
 * Edit-distance cap of the Myers alignment. Two sequences of up to 500 calls each always align (their
 * distance is at most 1000); at the cap one pair costs ~0.1-0.2 s (`npm run bench`: "compare align").
 */
export const MAX_ALIGNMENT_EDITS = 1000;

export type StepKind = "same" | "changed" | "only_a" | "only_b";

export interface AlignedStep {
  readonly kind: StepKind;
  readonly a: Action | null;
  readonly b: Action | null;
}

/** Calls of one tool in the unaligned middle whose numbers differ between the two sides. */
export interface ToolCount {
  readonly server: string | null;
  readonly tool: string;
  readonly a: number;
  readonly b: number;
}

export interface CappedAlignment {
  /** One sentence for people: what was not aligned and how it was compared instead. */
  readonly message: string;
  /** Steps [from_step, to_step) of the alignment are paired by position, not aligned. */
  readonly from_step: number;
  readonly to_step: number;
  readonly a_calls: number;
  readonly b_calls: number;
  /** Tools whose call counts differ in that middle part, most different first. */
  readonly counts: readonly ToolCount[];
}

export interface Alignment {
  readonly steps: AlignedStep[];
  /** null when the whole sequences were aligned. */
  readonly capped: CappedAlignment | null;
}

export function alignSequences(
  a: readonly Action[],
  b: readonly Action[],
  maxEdits: number = MAX_ALIGNMENT_EDITS,
): Alignment {
  const steps: AlignedStep[] = [];
  let start = 0;
  while (start < a.length && start < b.length && a[start]!.key === b[start]!.key) {
    steps.push({ kind: "same", a: a[start]!, b: b[start]! });
    start++;
  }
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1]!.key === b[endB - 1]!.key) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  let capped: CappedAlignment | null = null;
  if (midA.length > 0 || midB.length > 0) {
    const aligned = alignMiddle(midA, midB, maxEdits);
    if (aligned !== null) steps.push(...aligned);
    else {
      const from = steps.length;
      pairByPosition(midA, midB, steps);
      capped = cappedReport(midA, midB, from, steps.length, maxEdits);
    }
  }
  for (let k = 0; k < a.length - endA; k++) steps.push({ kind: "same", a: a[endA + k]!, b: b[endB + k]! });
  return { steps, capped };
}

/** Myers alignment of the middle, or null when it needs more than `maxEdits` edits. */
function alignMiddle(a: readonly Action[], b: readonly Action[], maxEdits: number): AlignedStep[] | null {
  // Small integers compare faster than canonical-JSON keys, which can be long.
  const ids = new Map<string, number>();
  const idOf = (x: Action) => {
    let id = ids.get(x.key);
    if (id === undefined) {
      id = ids.size;
      ids.set(x.key, id);
    }
    return id;
  };
  const changes = diffArrays(a.map(idOf), b.map(idOf), { maxEditLength: maxEdits });
  if (changes === undefined) return null;
  const steps: AlignedStep[] = [];
  let i = 0;
  let j = 0;
  let removed: Action[] = [];
  const flush = (added: readonly Action[]) => {
    const n = Math.max(removed.length, added.length);
    for (let k = 0; k < n; k++) {
      const x = removed[k] ?? null;
      const y = added[k] ?? null;
      steps.push({
        kind: x !== null && y !== null ? "changed" : x !== null ? "only_a" : "only_b",
        a: x,
        b: y,
      });
    }
    removed = [];
  };
  for (const change of changes) {
    if (change.removed) {
      for (let k = 0; k < change.count; k++) removed.push(a[i + k]!);
      i += change.count;
    } else if (change.added) {
      flush(b.slice(j, j + change.count));
      j += change.count;
    } else {
      flush([]);
      for (let k = 0; k < change.count; k++) steps.push({ kind: "same", a: a[i + k]!, b: b[j + k]! });
      i += change.count;
      j += change.count;
    }
  }
  flush([]);
  return steps;
}

function pairByPosition(a: readonly Action[], b: readonly Action[], steps: AlignedStep[]): void {
  const n = Math.max(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const x = a[k] ?? null;
    const y = b[k] ?? null;
    const kind: StepKind =
      x !== null && y !== null ? (x.key === y.key ? "same" : "changed") : x !== null ? "only_a" : "only_b";
    steps.push({ kind, a: x, b: y });
  }
}

function cappedReport(
  a: readonly Action[],
  b: readonly Action[],
  from: number,
  to: number,
  maxEdits: number,
): CappedAlignment {
  const counts = new Map<string, { server: string | null; tool: string; a: number; b: number }>();
  const count = (x: Action, side: "a" | "b") => {
    const id = JSON.stringify([x.server, x.tool]);
    let c = counts.get(id);
    if (c === undefined) {
      c = { server: x.server, tool: x.tool, a: 0, b: 0 };
      counts.set(id, c);
    }
    c[side]++;
  };
  for (const x of a) count(x, "a");
  for (const y of b) count(y, "b");
  const differing = [...counts.values()]
    .filter((c) => c.a !== c.b)
    .sort((p, q) => Math.abs(q.a - q.b) - Math.abs(p.a - p.b) || (p.tool < q.tool ? -1 : 1));
  return {
    message:
      `too long to align: steps ${from}-${to - 1} (${a.length} calls in a, ${b.length} in b) differ by more ` +
      `than ${maxEdits} insertions and deletions, so they are shown position by position and compared by ` +
      `counts (${differing.length === 0 ? "every tool has the same number of calls on both sides" : `${differing.length} tools with different numbers of calls`}).`,
    from_step: from,
    to_step: to,
    a_calls: a.length,
    b_calls: b.length,
    counts: differing,
  };
}
