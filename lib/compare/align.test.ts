import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Action } from "./actions";
import { type AlignedStep, alignSequences, MAX_ALIGNMENT_EDITS } from "./align";
import { compareRuns } from "./compare";

function act(tool: string, index: number, args = "{}"): Action {
  return {
    index,
    server: "s",
    tool,
    emitted: tool,
    call_id: `c${index}`,
    status: "bare",
    verifier_name: tool,
    named_by: "tool_name",
    arguments: {},
    arguments_valid: true,
    key: JSON.stringify(["s", tool, args]),
  };
}

const seq = (tools: readonly string[]) => tools.map((t, i) => act(t, i));

/** Length of a longest common subsequence of the keys (plain dynamic programming). */
function lcs(a: readonly Action[], b: readonly Action[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = a[i - 1]!.key === b[j - 1]!.key ? diag + 1 : Math.max(row[j]!, row[j - 1]!);
      diag = up;
    }
  }
  return row[b.length]!;
}

function sides(steps: readonly AlignedStep[]) {
  return {
    a: steps.flatMap((s) => (s.a === null ? [] : [s.a])),
    b: steps.flatMap((s) => (s.b === null ? [] : [s.b])),
  };
}

describe("alignSequences", () => {
  it("property: a valid alignment with as many same steps as a longest common subsequence", () => {
    const tools = fc.array(fc.constantFrom("t1", "t2", "t3", "t4"), { maxLength: 40 });
    fc.assert(
      fc.property(tools, tools, (x, y) => {
        const a = seq(x);
        const b = seq(y);
        const { steps, capped } = alignSequences(a, b);
        expect(capped).toBeNull();
        expect(sides(steps)).toEqual({ a, b });
        for (const s of steps) if (s.kind === "same") expect(s.a?.key).toBe(s.b?.key);
        expect(steps.filter((s) => s.kind === "same")).toHaveLength(lcs(a, b));
      }),
      { numRuns: 300 },
    );
  });

  it("sequences of up to MAX_ALIGNMENT_EDITS / 2 calls each always align", () => {
    const n = MAX_ALIGNMENT_EDITS / 2;
    const a = seq(Array.from({ length: n }, () => "x"));
    const b = seq(Array.from({ length: n }, () => "y"));
    const { steps, capped } = alignSequences(a, b);
    expect(capped).toBeNull();
    expect(steps).toHaveLength(n);
    expect(steps.every((s) => s.kind === "changed")).toBe(true);
  });

  it("beyond the cap: prefix and suffix aligned, the middle paired by position and compared by counts", () => {
    const a = seq(["p", "x", "y", "x", "y", "x", "s"]);
    const b = seq(["p", "y", "x", "x", "z", "s"]);
    const { steps, capped } = alignSequences(a, b, 2);
    expect(sides(steps)).toEqual({ a, b });
    expect(steps.map((s) => [s.kind, s.a?.tool ?? null, s.b?.tool ?? null])).toEqual([
      ["same", "p", "p"],
      ["changed", "x", "y"],
      ["changed", "y", "x"],
      ["same", "x", "x"],
      ["changed", "y", "z"],
      ["only_a", "x", null],
      ["same", "s", "s"],
    ]);
    expect(capped).toEqual({
      message:
        "too long to align: steps 1-5 (5 calls in a, 4 in b) differ by more than 2 insertions and deletions, so they are shown position by position and compared by counts (3 tools with different numbers of calls).",
      from_step: 1,
      to_step: 6,
      a_calls: 5,
      b_calls: 4,
      counts: [
        { server: "s", tool: "x", a: 3, b: 2 },
        { server: "s", tool: "y", a: 2, b: 1 },
        { server: "s", tool: "z", a: 0, b: 1 },
      ],
    });
  });

  it("two 16k-call rollouts that differ throughout are capped, not aligned quadratically", () => {
    const n = 16_000;
    const a = seq(Array.from({ length: n }, (_, i) => `t${(i * 7) % 13}`));
    const b = seq(Array.from({ length: n }, (_, i) => `t${(i * 5) % 11}`));
    const { steps, capped } = alignSequences(a, b);
    expect(capped).not.toBeNull();
    expect(steps).toHaveLength(n);
    expect(sides(steps)).toEqual({ a, b });
  });

  it("identical 100k-call sequences align in one linear pass", () => {
    const a = seq(Array.from({ length: 100_000 }, (_, i) => `t${i % 17}`));
    const { steps, capped } = alignSequences(a, a.slice());
    expect(capped).toBeNull();
    expect(steps.every((s) => s.kind === "same")).toBe(true);
  });
});

describe("compareRuns with a capped alignment", () => {
  const rollout = (tools: readonly string[]) => ({
    _ng_task_index: 0,
    _ng_rollout_index: 0,
    environment_name: "s",
    reward: 0,
    responses_create_params: { input: [] },
    response: {
      output: tools.map((name, i) => ({ type: "function_call", name, call_id: `c${i}`, arguments: "{}" })),
    },
  });

  it("reports the cap, and the first divergence and verdict stay exact", () => {
    const n = 3000;
    const a = rollout(["same", ...Array.from({ length: n }, (_, i) => `t${i % 3}`)]);
    const b = rollout(["same", ...Array.from({ length: n }, (_, i) => `u${i % 5}`)]);
    const report = compareRuns([a], [b], { server: "s" });
    const pair = report.pairs[0]!;
    expect(pair.alignment_capped?.message).toMatch(/^too long to align: steps 1-3000 /);
    expect(pair.first_divergence).toMatchObject({ step: 1, kind: "changed" });
    expect(pair.verdict).toBe("different actions");
    expect(compareRuns([a], [a], { server: "s" }).pairs[0]?.alignment_capped).toBeNull();
  });
});
