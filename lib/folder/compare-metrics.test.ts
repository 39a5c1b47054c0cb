import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareAggregate, compareDataset, DatasetTally } from "./compare-metrics";
import { readGymMetrics } from "./metrics";

const DATA = join(import.meta.dirname, "../../fixtures/gym-examples/resources_servers");

function dataset(name: string) {
  const read = readGymMetrics(readFileSync(join(DATA, name, "data/example_metrics.json"), "utf8"));
  if (!read.ok || read.metrics.kind !== "dataset") throw new Error("not dataset metrics");
  const tally = new DatasetTally();
  for (const line of readFileSync(join(DATA, name, "data/example.jsonl"), "utf8").split("\n"))
    if (line.trim() !== "") tally.row(JSON.parse(line));
  return compareDataset(read.metrics, tally, "data/example.jsonl");
}

describe("Gym's metrics beside the recomputed figures", () => {
  it("recomputes a dataset's example count, tool and turn counts and numeric fields, all agreeing", () => {
    const report = dataset("example_multi_step");
    const byName = new Map(report.comparisons.map((c) => [c.metric, c]));
    expect(byName.get("Number of examples")).toMatchObject({ gym: 5, ours: 5, same: true });
    expect(byName.get("Number of tools Average")).toMatchObject({ gym: 2, ours: 2, same: true });
    expect(byName.get("id Max")).toMatchObject({ gym: 4, ours: 4, same: true });
    expect(report.comparisons.every((c) => c.same)).toBe(true);
    expect(report.summary).toMatch(/^Gym's dataset metrics of .*: (\d+) of \1 recomputed figures agree\.$/);
  });

  it("counts tools and turns as Gym does: only the rows that declare tools, that have a user message", () => {
    // iheval: one of its five rows declares tools (one); Gym's file says 1 value, average 1.
    const report = dataset("iheval");
    const byName = new Map(report.comparisons.map((c) => [c.metric, c]));
    expect(byName.get("Number of tools rows")).toMatchObject({ gym: 1, ours: 1, same: true });
    expect(byName.get("Number of tools Average")).toMatchObject({ gym: 1, ours: 1, same: true });
    expect(byName.get("Number of tools Min")).toMatchObject({ gym: 1, ours: 1, same: true });
  });

  it("names each difference (iheval's turns: its last row has two user messages, Gym's file says one)", () => {
    const report = dataset("iheval");
    const differ = report.comparisons.filter((c) => !c.same);
    expect(differ.map((c) => c.metric)).toEqual(["Number of turns Average", "Number of turns Max"]);
    expect(report.summary).toContain(
      "Number of turns Max (resources_servers/iheval/data/example.jsonl): Gym 1, recomputed 2 from data/example.jsonl: differs by 1.",
    );
  });

  it("sets an agent's mean reward beside the mean of its lines, and lists what it does not recompute", () => {
    const read = readGymMetrics(
      JSON.stringify([
        {
          agent_ref: { name: "a" },
          agent_metrics: { avg_reward: 0.5, "resistance_rate/x": 1 },
          key_metrics: {},
        },
      ]),
    );
    if (!read.ok || read.metrics.kind !== "aggregate") throw new Error("not aggregate");
    const report = compareAggregate(read.metrics, [
      { agent: "a", recorded: 1, recomputed: 0 },
      { agent: "a", recorded: 0, recomputed: 0 },
      { agent: "b", recorded: 1, recomputed: 1 },
    ]);
    expect(report.comparisons.map((c) => [c.metric, c.ours, c.same])).toEqual([
      ["avg_reward (recorded)", 0.5, true],
      ["avg_reward (recomputed)", 0, false],
    ]);
    expect(report.not_recomputed).toEqual(["a/resistance_rate/x"]);
  });
});
