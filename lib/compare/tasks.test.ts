import { describe, expect, it } from "vitest";
import { asRollout } from "../schemas/test-helpers";
import { compareRuns } from "./compare";
import { compareTasks } from "./tasks";

/** A rollout without calls: its recorded reward is what the comparison reads (nothing to recompute). */
const line = (task: number, rollout: number, reward: number) =>
  asRollout({ _ng_task_index: task, _ng_rollout_index: rollout, response: { output: [] }, reward });

/** Each task's recorded rewards, k per task, as a run of repeats. */
const run = (rewards: readonly (readonly number[])[]) =>
  rewards.flatMap((perTask, task) => perTask.map((reward, k) => line(task, k, reward)));

describe("compareTasks", () => {
  it("counts each task's passes on both sides and lists the largest drop first", () => {
    const a = run([
      [1, 1, 1, 1],
      [1, 0, 0, 0],
      [0, 0, 1, 1],
      [1, 1, 0, 0],
    ]);
    const b = run([
      [1, 0, 0, 0],
      [1, 1, 0, 0],
      [0, 0, 1, 1],
      [1, 1, 1, 0],
    ]);
    const { tasks, summary } = compareTasks(compareRuns(a, b));
    expect(summary).toEqual({ tasks: 4, repeated: 4, lower_in_b: 1, higher_in_b: 2, same: 1 });
    expect(tasks.map((t) => [t.task_index, t.a.passes, t.b.passes, t.delta])).toEqual([
      [0, 4, 1, -0.75],
      [1, 1, 2, 0.25],
      [3, 2, 3, 0.25],
      [2, 2, 2, 0],
    ]);
    expect(tasks[0]?.pairs).toEqual([0, 1, 2, 3]);
    expect(tasks[0]?.a).toEqual({ passes: 4, scored: 4, mean: 1 });
  });

  it("groups rollouts joined by their task input (no Gym indices) by that input", () => {
    const task = (text: string, reward: number) =>
      asRollout({ responses_create_params: { input: text }, response: { output: [] }, reward });
    const a = [task("x", 1), task("x", 1), task("y", 0)];
    const b = [task("x", 0), task("x", 1), task("y", 0)];
    const { tasks, summary } = compareTasks(compareRuns(a, b));
    expect(summary).toMatchObject({ tasks: 2, repeated: 1, lower_in_b: 1, same: 1 });
    expect(tasks.map((t) => [t.task_index, t.pairs.length, t.delta])).toEqual([
      [null, 2, -0.5],
      [null, 1, 0],
    ]);
  });

  it("keeps tasks apart whose inputs share a long start (one system prompt): the whole input is the task", () => {
    const prompt = "You are a helpful workplace assistant. Today is Thursday, 2023-11-30. ".repeat(3);
    const task = (question: string, reward: number) =>
      asRollout({
        responses_create_params: {
          input: [
            { role: "system", content: prompt },
            { role: "user", content: question },
          ],
        },
        response: { output: [] },
        reward,
      });
    const a = [task("q1", 1), task("q1", 1), task("q2", 0), task("q2", 0)];
    const b = [task("q1", 0), task("q1", 0), task("q2", 1), task("q2", 1)];
    const { tasks, summary } = compareTasks(compareRuns(a, b));
    expect(summary).toEqual({ tasks: 2, repeated: 2, lower_in_b: 1, higher_in_b: 1, same: 0 });
    expect(tasks.map((t) => t.delta)).toEqual([-1, 1]);
    // Without repeats: no task has several pairs, whatever the inputs share.
    expect(
      compareTasks(compareRuns([task("q1", 1), task("q2", 1)], [task("q1", 1), task("q2", 0)])).summary
        .repeated,
    ).toBe(0);
  });

  it("calls means equal in floating point the same (no −0.0000 drop)", () => {
    const { tasks, summary } = compareTasks(compareRuns(run([[0.1, 0.2, 0.3]]), run([[0.3, 0.2, 0.1]])));
    expect(tasks[0]?.delta).toBe(0);
    expect(summary).toMatchObject({ lower_in_b: 0, higher_in_b: 0, same: 1 });
  });

  it("leaves a side without any reward out of the means (no delta), counted apart", () => {
    const unscored = asRollout({ _ng_task_index: 0, _ng_rollout_index: 0, response: { output: [] } });
    const { tasks, summary } = compareTasks(compareRuns([unscored], [line(0, 0, 1)]));
    expect(tasks[0]).toMatchObject({ delta: null, a: { scored: 0, mean: null }, b: { passes: 1 } });
    expect(summary).toMatchObject({ lower_in_b: 0, higher_in_b: 0, same: 0 });
  });
});
