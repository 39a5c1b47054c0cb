import { describe, expect, it } from "vitest";
import { groupStats, type MetricsRow } from "@/lib/metrics";
import { filterClauses, taskFilter } from "./list";

const row = (line: number, agent: string, task: string): MetricsRow => ({
  line,
  agent,
  task,
  server: "s",
  recorded: 1,
  contract: 1,
  legacy: 1,
  model: null,
  usage: null,
});

describe("taskFilter", () => {
  it("lists a task's rollouts by its index, within its agent when several agents' tasks are shown", () => {
    const [one] = groupStats([row(1, "a", "3"), row(2, "a", "3")], "task");
    expect(one && taskFilter(one)).toBe("field:_ng_task_index=3");
    const groups = groupStats([row(1, "hermes agent", "3"), row(2, "b", "3")], "task");
    expect(groups.map(taskFilter)).toEqual([
      "agent:b field:_ng_task_index=3",
      'agent:"hermes agent" field:_ng_task_index=3',
    ]);
    // The filter reads back as two clauses.
    expect(filterClauses(taskFilter(groups[0]!))).toHaveLength(2);
  });
});
