import { describe, expect, it } from "vitest";
import { buildTriageRun } from "../../scripts/gen-triage-run";
import { metricsOf, runRow as runRowTyped } from "../run";
import { asRollout } from "../schemas/test-helpers";
import {
  groupStats,
  type MetricsRow,
  passAtK,
  passScopeText,
  policyChange,
  readModelUsage,
  rewardDistribution,
  runMetrics,
  runPassAtK,
  shownTasks,
  usageByModel,
  usageText,
  usageTotals,
} from "./index";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const runRow = (line: number, value: unknown) => runRowTyped(line, asRollout(value));

function usage(
  input: number,
  output: number,
  extra: { total?: number; cached?: number; reasoning?: number } = {},
) {
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: extra.total ?? input + output,
    cached_tokens: extra.cached ?? 0,
    reasoning_tokens: extra.reasoning ?? 0,
  };
}

// Hand-built: every expected value below was worked out on paper from these five rows.
const ROWS: MetricsRow[] = [
  {
    line: 1,
    agent: "a",
    task: "0",
    server: "s",
    recorded: 0,
    contract: 1,
    legacy: 0,
    model: "m1",
    usage: usage(100, 10),
  },
  {
    line: 2,
    agent: "a",
    task: "0",
    server: "s",
    recorded: 1,
    contract: 1,
    legacy: 1,
    model: "m1",
    usage: usage(200, 20),
  },
  {
    line: 3,
    agent: "b",
    task: "1",
    server: "s",
    recorded: 0,
    contract: 0,
    legacy: 0,
    model: "m2",
    usage: null,
  },
  {
    line: 4,
    agent: "b",
    task: "1",
    server: "s",
    recorded: null,
    contract: null,
    legacy: null,
    model: null,
    usage: null,
  },
  {
    line: 5,
    agent: "a",
    task: "1",
    server: "t",
    recorded: 0.5,
    contract: 0.5,
    legacy: 0.5,
    model: "m2",
    usage: usage(50, 5, { total: 60, cached: 10, reasoning: 3 }),
  },
];

describe("passAtK", () => {
  it("equals 1 - C(n-c,k)/C(n,k) on hand-computed cases", () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    expect(passAtK(5, 2, 2)).toBeCloseTo(1 - 3 / 10, 12);
    expect(passAtK(10, 3, 4)).toBeCloseTo(1 - 35 / 210, 12);
    expect(passAtK(4, 0, 2)).toBe(0);
    expect(passAtK(4, 3, 2)).toBe(1);
    expect(passAtK(1, 1, 1)).toBe(1);
  });

  it("stays finite for large n", () => {
    expect(passAtK(10_000, 1, 1)).toBeCloseTo(1e-4, 12);
    expect(passAtK(10_000, 5_000, 100)).toBeCloseTo(1, 12);
  });

  it("rejects impossible arguments", () => {
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
    expect(() => passAtK(3, 1.5, 1)).toThrow(RangeError);
  });
});

describe("group and run metrics on hand-built rows", () => {
  it("means per agent skip null rewards and count recorded vs recomputed", () => {
    const [a, b] = groupStats(ROWS, "agent");
    expect(a?.key).toBe("a");
    expect(a?.n).toBe(3);
    expect(a?.mean.recorded).toBeCloseTo(0.5, 12);
    expect(a?.mean.contract).toBeCloseTo(2.5 / 3, 12);
    expect(a?.mean.legacy).toBeCloseTo(0.5, 12);
    expect(a?.recorded_vs_recomputed).toEqual({ equal: 2, differ: 1, incomparable: 0 });
    expect(a?.passed).toBe(3);
    expect(b).toMatchObject({
      key: "b",
      n: 2,
      mean: { recorded: 0, contract: 0, legacy: 0 },
      scored: { recorded: 1, contract: 1, legacy: 1 },
      recorded_vs_recomputed: { equal: 1, differ: 0, incomparable: 1 },
      passed: 0,
    });
  });

  it("groups by server and task in key order", () => {
    expect(groupStats(ROWS, "server").map((g) => [g.key, g.n])).toEqual([
      ["s", 4],
      ["t", 1],
    ]);
    // Two agents' tasks: task 1 of agent a is not task 1 of agent b (Gym numbers each agent's tasks).
    const byTask = groupStats(ROWS, "task");
    expect(byTask.map((g) => [g.key, g.n])).toEqual([
      ["a / 0", 2],
      ["a / 1", 1],
      ["b / 1", 2],
    ]);
    expect(byTask[1]?.mean.contract).toBeCloseTo(0.5, 12);
    // One agent's rows keep their task's own name.
    const one = ROWS.filter((row) => row.agent === "a");
    expect(groupStats(one, "task").map((g) => [g.key, g.n])).toEqual([
      ["0", 2],
      ["1", 1],
    ]);
  });

  it("names a by-task row's task and, among several agents' tasks, its agent", () => {
    expect(groupStats(ROWS, "task").map((g) => g.task)).toEqual([
      { task: "0", agent: "a", scoped: true },
      { task: "1", agent: "a", scoped: true },
      { task: "1", agent: "b", scoped: true },
    ]);
    expect(
      groupStats(
        ROWS.filter((row) => row.agent === "a"),
        "task",
      )[0]?.task,
    ).toEqual({
      task: "0",
      agent: "a",
      scoped: false,
    });
  });

  it("keeps apart tasks of agents whose names read alike (no agent, an agent named so, a slash in a name)", () => {
    const base = ROWS[0]!;
    const rows = [
      { ...base, line: 1, agent: null, task: "1" },
      { ...base, line: 2, agent: "no agent", task: "1" },
      { ...base, line: 3, agent: "a / 1", task: "2" },
      { ...base, line: 4, agent: "a", task: "1 / 2" },
    ];
    expect(groupStats(rows, "task").map((g) => g.n)).toEqual([1, 1, 1, 1]);
    expect(runPassAtK(rows, 1)).toMatchObject({ tasks: 4 });
  });

  it("shows every task of a run with few, else the ones that pass least first", () => {
    const groups = groupStats(ROWS, "task");
    expect(shownTasks(groups)).toEqual({ tasks: groups, total: 3, order: "task" });
    // b/1 passes 0 of 2, a/1 1 of 1 and a/0 2 of 2 under contract: the least passing first, ties in task order.
    expect(shownTasks(groups, 2)).toEqual({
      tasks: [groups[2], groups[0]],
      total: 3,
      order: "fewest_passing",
    });
  });

  it("pass@k averages over each agent's tasks with enough scored rollouts", () => {
    // a/0 passes 2 of 2, a/1 1 of 1, b/1 0 of 1 (line 4 has no reward).
    expect(runPassAtK(ROWS, 1).value).toBeCloseTo(2 / 3, 12);
    expect(runPassAtK(ROWS, 1)).toMatchObject({ tasks: 3, skipped: 0 });
    expect(runPassAtK(ROWS, 2)).toEqual({ k: 2, value: 1, tasks: 1, skipped: 2 });
    expect(runPassAtK(ROWS, 3)).toEqual({ k: 3, value: null, tasks: 0, skipped: 3 });
    // Recorded rewards: a/0 1 of 2, a/1 1 of 1, b/1 0 of 1.
    expect(runPassAtK(ROWS, 1, "recorded").value).toBeCloseTo(0.5, 12);
    // A higher pass threshold: only reward 1 passes.
    expect(runPassAtK(ROWS, 1, "contract", { above: 0.5 }).value).toBeCloseTo(1 / 3, 12);
  });

  it("says what pass@k leaves out whatever k: rollouts without a task, and without a reward in its source", () => {
    const row = { agent: "a", server: "s", model: null, usage: null, recorded: 1, contract: 1, legacy: 1 };
    const rows = [
      { ...row, line: 1, task: "0" },
      { ...row, line: 2, task: null },
      { ...row, line: 3, task: null },
      { ...row, line: 4, task: "1", recorded: null },
    ];
    const m = runMetrics(rows);
    expect(m.pass_left_out).toEqual({ no_task: 2, no_reward: 1 });
    expect(passScopeText(m)).toBe(
      "a pass is a reward above 0; left out: 2 rollouts without a task, 1 rollout without a recorded reward",
    );
    expect(passScopeText(runMetrics(rows.slice(0, 1), { above: 0.5 }))).toBe("a pass is a reward above 0.5");
  });

  it("says when rewards are scores, not pass/fail: every partial score above the bar counts as a pass", () => {
    const row = { agent: "a", server: "s", model: null, usage: null, contract: null, legacy: null };
    // flores200's BLEU-like rewards: pass@1 is 1 while the mean is 0.5.
    const rows = [0.39, 0.47, 0.6, 1, 0].map((recorded, i) => ({
      ...row,
      line: i + 1,
      task: String(i),
      recorded,
    }));
    const m = runMetrics(rows);
    expect(m.pass_at_k[0]?.value).toBe(0.8);
    expect(passScopeText(m)).toBe(
      "a pass is a reward above 0; 3 rollouts scored between 0 and 1 and each counts as a pass: these rewards are scores, not pass/fail, so read the means",
    );
    // Above a bar of 0.5 only the 0.6 is such a score.
    expect(passScopeText(runMetrics(rows, { above: 0.5 }))).toMatch(
      /^a pass is a reward above 0\.5; 1 rollout scored between 0\.5 and 1/,
    );
  });

  it("the distribution lists each distinct reward and the rows without one", () => {
    expect(rewardDistribution(ROWS, "contract")).toEqual({
      bins: [
        { reward: 0, count: 1 },
        { reward: 0.5, count: 1 },
        { reward: 1, count: 2 },
      ],
      missing: 1,
    });
  });

  it("the change between policies lists the lines that gained", () => {
    expect(policyChange(ROWS)).toEqual({ gained: [1], lost: [], same: 3, incomparable: 1, mean_delta: 0.25 });
  });

  it("usage sums tokens over rows that report it, per run and per model", () => {
    expect(usageTotals(ROWS)).toEqual({
      rollouts: 3,
      input_tokens: 350,
      output_tokens: 35,
      total_tokens: 390,
      cached_tokens: 10,
      reasoning_tokens: 3,
      mean_total_tokens: 130,
    });
    expect(
      usageByModel(ROWS).map((m) => [m.model, m.n, m.rollouts, m.total_tokens, m.mean_total_tokens]),
    ).toEqual([
      ["m1", 2, 2, 330, 165],
      ["m2", 2, 1, 60, 60],
      [null, 1, 0, 0, null],
    ]);
  });

  it("runMetrics bundles the overall means", () => {
    const m = runMetrics(ROWS);
    expect(m.rollouts).toBe(5);
    expect(m.mean.recorded).toBeCloseTo(0.375, 12);
    expect(m.mean.contract).toBeCloseTo(0.625, 12);
    expect(m.mean.legacy).toBeCloseTo(0.375, 12);
    expect(m.pass_at_k.map((p) => p.k)).toEqual([1, 2, 4]);
  });

  it("pass@k and passed read the recorded reward unless another is chosen, and say which", () => {
    const recorded = runMetrics(ROWS);
    expect(recorded.reward).toBe("recorded");
    for (const source of ["recorded", "contract", "legacy"] as const) {
      const m = runMetrics(ROWS, { reward: source });
      expect(m.reward).toBe(source);
      expect(m.pass_at_k[0]).toEqual(runPassAtK(ROWS, 1, source));
      const passed = ROWS.filter((r) => (r[source] ?? 0) > 0).length;
      expect(m.by_agent.reduce((s, g) => s + g.passed, 0)).toBe(passed);
    }
    expect(runMetrics(ROWS, { reward: "contract" }).pass_at_k[0]?.value).not.toBe(
      recorded.pass_at_k[0]?.value,
    );
  });
});

describe("reading rows from rollouts", () => {
  it('reads an empty model name as none (Gym\'s tau2 example records "")', () => {
    expect(readModelUsage({ response: { model: "" } })).toEqual({ model: null, usage: null });
  });

  it("reads response.model and response.usage, with the detail counts", () => {
    expect(
      readModelUsage({
        response: {
          model: "gpt-x",
          usage: {
            input_tokens: 7,
            output_tokens: 3,
            total_tokens: 10,
            input_tokens_details: { cached_tokens: 2 },
            output_tokens_details: { reasoning_tokens: 1 },
          },
        },
      }),
    ).toEqual({ model: "gpt-x", usage: usage(7, 3, { cached: 2, reasoning: 1 }) });
  });

  it("leaves out what is missing or not a count", () => {
    expect(readModelUsage({ response: { output: [] } })).toEqual({ model: null, usage: null });
    expect(readModelUsage({ response: { model: 3, usage: { input_tokens: "x" } } })).toEqual({
      model: null,
      usage: null,
    });
    expect(readModelUsage({ response: { usage: { output_tokens: 4 } } })).toEqual({
      model: null,
      usage: usage(0, 4),
    });
    expect(readModelUsage(null)).toEqual({ model: null, usage: null });
  });

  it("takes the task from _ng_task_index, else the id (a run row's metrics view, lib/run), within its run", () => {
    expect(
      metricsOf(runRow(1, { _ng_task_index: 3, id: 9, reward: 1, response: { output: [] } })),
    ).toMatchObject({
      task: "3",
      recorded: 1,
    });
    expect(
      metricsOf(runRow(1, { id: "t-9", agent_ref: { name: "x" }, response: { output: [] } })),
    ).toMatchObject({
      task: "t-9",
      agent: "x",
      recorded: null,
    });
    // Rows of several runs summed (a folder): one file's task 0 is not another's.
    const zero = runRow(1, { _ng_task_index: 0, reward: 1, response: { output: [] } });
    expect(metricsOf(zero, "a.jsonl").task).toBe("a.jsonl: 0");
    expect(runPassAtK([metricsOf(zero, "a.jsonl"), metricsOf(zero, "b.jsonl")], 2, "recorded").tasks).toBe(0);
    expect(runPassAtK([metricsOf(zero), metricsOf(zero)], 2, "recorded").tasks).toBe(1);
  });

  it("on the generated run, per-model token totals equal the generator's", () => {
    const run = buildTriageRun();
    const lines = run.text.trim().split("\n");
    // The run's intents are its readable rollouts; its deliberately malformed lines never reach lib.
    const rows = run.intents.map((intent) =>
      metricsOf(runRow(intent.line, JSON.parse(lines[intent.line - 1] ?? ""))),
    );
    const expected = new Map<string, number>();
    for (const intent of run.intents)
      expected.set(
        intent.model,
        (expected.get(intent.model) ?? 0) + intent.input_tokens + intent.output_tokens,
      );
    expect(new Map(usageByModel(rows).map((m) => [m.model ?? "", m.total_tokens]))).toEqual(expected);
    const byAgent = groupStats(rows, "agent");
    expect(byAgent.map((g) => [g.key, g.n])).toEqual(
      [...new Set(run.intents.map((i) => i.agent))]
        .sort()
        .map((agent) => [agent, run.intents.filter((i) => i.agent === agent).length]),
    );
  });
});

describe("usageText", () => {
  it("says no rollout reported usage rather than 0 tokens, and the totals when some did", () => {
    const none = {
      rollouts: 0,
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      cached_tokens: 0,
      reasoning_tokens: 0,
      mean_total_tokens: null,
    };
    expect(usageText(none)).toBe("no rollout reports its token usage (response.usage)");
    expect(
      usageText({
        ...none,
        rollouts: 2,
        input_tokens: 10,
        output_tokens: 5,
        total_tokens: 15,
        mean_total_tokens: 7.5,
      }),
    ).toBe("15 total (10 in · 5 out) over 2 rollouts with usage");
  });
});
