/**
 * Pairing (./pairing.ts): a task-rows file is recognised and pairs with the rollouts in either order of
 * loading, every row verified with its task row.
 */
import { describe, expect, it } from "vitest";
import { inputsJob, Pairing } from "./pairing";
import { inProcessPool } from "./pool";
import { DataService } from "./service";
import { entries, expectedNoecho, indexedDataset, inputsFile, noecho, open } from "./test-files";

describe("pairing", () => {
  it("recognises a materialized-inputs file and pairs it with its rollouts", async () => {
    const service = new DataService(inProcessPool());
    const summary = await open(service, inputsFile, noecho);
    const [inputs, rollouts] = summary.datasets;
    expect(inputs?.kind).toBe("inputs");
    expect(rollouts?.kind).toBe("rollouts");
    const expected = expectedNoecho();
    expect(rollouts?.rows).toBe(expected.length);
    expect(rollouts?.paired_rows).toBe(expected.length);
    expect(rollouts?.paired_inputs).toBe(inputs?.id);
    const index = entries(service, rollouts!.id);
    expect(index.map((entry) => [entry.contract, entry.legacy])).toEqual(
      expected.map((row) => [row.contract.reward, row.legacy.reward]),
    );
    expect(index.every((entry) => entry.paired && entry.server === "workplace_assistant")).toBe(true);
    expect(index.every((entry) => entry.rewards === "done")).toBe(true);
  });

  it("inputs added after the rollouts re-verify every row with them", async () => {
    const service = new DataService(inProcessPool());
    const first = await open(service, noecho);
    const id = first.datasets[0]!.id;
    expect(entries(service, id).every((entry) => entry.contract === null)).toBe(true);
    const revision = service.session().datasets[0]!.revision;
    const summary = await open(service, inputsFile);
    expect(summary.datasets.map((dataset) => dataset.kind)).toEqual(["rollouts", "inputs"]);
    expect(service.session().datasets[0]!.revision).toBeGreaterThan(revision);
    const expected = expectedNoecho();
    expect(entries(service, id).map((entry) => entry.contract)).toEqual(
      expected.map((row) => row.contract.reward),
    );
    // Only what changed since the caller's revision comes back, and here that is every row.
    expect(service.changes(id, revision).entries).toHaveLength(expected.length);
  });

  it("rollouts added after an inputs file keep it", async () => {
    const service = new DataService(inProcessPool());
    await open(service, inputsFile);
    expect(service.session().datasets.map((dataset) => dataset.kind)).toEqual(["inputs"]);
    const summary = await open(service, noecho);
    expect(summary.datasets.map((dataset) => dataset.kind)).toEqual(["inputs", "rollouts"]);
    const rollouts = service.session().datasets[1]!;
    expect(rollouts.paired_rows).toBe(rollouts.rows);
    expect(entries(service, rollouts.id).map((entry) => entry.contract)).toEqual(
      expectedNoecho().map((row) => row.contract.reward),
    );
  });
});

describe("Pairing", () => {
  it("indexes each task-rows file once, pairs by Gym's indices, and resets rewards only when the pairing changes", async () => {
    const inputs = await indexedDataset("d-inputs", inputsFile);
    const rollouts = await indexedDataset("d-rollouts", noecho);
    expect(inputs.kind).toBe("inputs");
    // Every task row is indexed (none is unreadable).
    const job = inputsJob(inputs);
    expect(job.files.map((f) => [f.name, f.lines.length])).toEqual([[inputs.name, inputs.lineCount]]);
    const prepared: string[] = [];
    const pairing = new Pairing(
      {
        prepareInputs: async (job) => {
          prepared.push(job.id);
          return job.files.reduce((n, f) => n + f.lines.length, 0);
        },
      },
      (id) => [inputs, rollouts].find((dataset) => dataset.id === id),
    );
    const generation = rollouts.analysisGeneration;
    await pairing.pairAll(() => [rollouts, inputs]);
    expect(rollouts.pairedInputs).toBe("d-inputs");
    expect(rollouts.pairedRows).toBe(rollouts.entries.size);
    expect(rollouts.analysisGeneration).toBe(generation + 1);
    await pairing.pairAll(() => [rollouts, inputs]);
    expect(prepared).toEqual(["d-inputs"]);
    expect(rollouts.analysisGeneration).toBe(generation + 1);
    // Without task rows open, the pairing goes (and the rewards are computed again).
    await pairing.pairAll(() => [rollouts]);
    expect(rollouts.pairedInputs).toBeNull();
    expect(rollouts.analysisGeneration).toBe(generation + 2);
  });
});
