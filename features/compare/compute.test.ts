// Tests features/compare/compute.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare";
import { configRoutes, readGymConfig } from "@/lib/folder";
import { asRollout, narrowing } from "@/lib/schemas/test-helpers";
import { indexInputs, pairingKey, verifyRollout as verifyRolloutTyped } from "@/lib/verify";
import {
  combineInputs,
  comparedName,
  compareFiles,
  compareView,
  pairDetail,
  pairedRows,
  readFile,
  repairedName,
  repairFile,
  serverTools,
  summarize,
  TASK_ROWS_SHOWN,
  whatIf,
} from "./compute";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const verifyRollout = narrowing(verifyRolloutTyped);

const SAMPLES = path.resolve(import.meta.dirname, "../../public/samples");

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function load(name: string) {
  return readFile(name, streamOf(new Uint8Array(readFileSync(path.join(SAMPLES, name)))));
}

/** A run of `perTask` recorded rewards per task (Gym's repeats), one rollout per line, no calls. */
async function repeats(name: string, perTask: readonly (readonly number[])[]) {
  const lines = perTask.flatMap((rewards, task) =>
    rewards.map((reward, k) =>
      JSON.stringify({ _ng_task_index: task, _ng_rollout_index: k, response: { output: [] }, reward }),
    ),
  );
  return readFile(name, streamOf(new TextEncoder().encode(`${lines.join("\n")}\n`)));
}

describe("the comparison by task", () => {
  it("lists the tasks whose mean differs, largest drop first, named by Gym's task index", async () => {
    const a = await repeats("a.jsonl", [
      [1, 1],
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    const b = await repeats("b.jsonl", [
      [1, 1],
      [1, 0],
      [0, 0],
      [0, 0],
    ]);
    const { tasks } = compareView(a, b, compareFiles(a, b, "contract"));
    expect(tasks.summary).toEqual({ tasks: 4, repeated: 4, lower_in_b: 2, higher_in_b: 1, same: 1 });
    expect(tasks.differing).toBe(3);
    expect(tasks.rows.map((r) => [r.label, r.pairs, r.a.passes, r.b.passes, r.delta])).toEqual([
      ["task 3", 2, 2, 0, -1],
      ["task 2", 2, 1, 0, -0.5],
      ["task 1", 2, 0, 1, 0.5],
    ]);
  });

  it("lists at most TASK_ROWS_SHOWN tasks, and counts every one that differs", async () => {
    const many = TASK_ROWS_SHOWN + 5;
    const a = await repeats(
      "a.jsonl",
      Array.from({ length: many }, () => [1, 1]),
    );
    // Every task lower in B, task 0 the most (both of its rollouts fail), the others by one rollout.
    const b = await repeats(
      "b.jsonl",
      Array.from({ length: many }, (_, i) => (i === 0 ? [0, 0] : [0, 1])),
    );
    const { tasks } = compareView(a, b, compareFiles(a, b, "contract"));
    expect(tasks.differing).toBe(many);
    expect(tasks.rows).toHaveLength(TASK_ROWS_SHOWN);
    expect(tasks.rows.slice(0, 3).map((r) => r.label)).toEqual(["task 0", "task 1", "task 2"]);
  });
});

describe("compare worker core", () => {
  it("lists bad lines with their reason and keeps every line", async () => {
    const text = '{"a":1}\nnot json\n\n';
    const file = await readFile("x.jsonl", streamOf(new TextEncoder().encode(text)));
    expect(file.lines).toHaveLength(3);
    expect(file.rollouts).toHaveLength(0);
    expect(file.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(file.errors[0]?.error).toMatch(/not a rollout/);
  });

  it("maps pair positions to line numbers and gives a pair's aligned actions", async () => {
    const a = await load("compare-http.jsonl");
    const b = await load("compare-mcp-hermes-noprov.jsonl");
    const report = compareFiles(a, b, "contract");
    const view = compareView(a, b, report);
    expect(view.pairs).toHaveLength(a.rollouts.length);
    for (const p of view.pairs) {
      const lineA = JSON.parse(
        readFileSync(path.join(SAMPLES, "compare-http.jsonl"), "utf8").split("\n")[p.a.line - 1] ?? "",
      );
      expect(`${lineA._ng_task_index}:${lineA._ng_rollout_index}`).toBe(p.key);
    }
    const detail = pairDetail(report, 0);
    expect(detail?.steps.every((s) => s.kind === "same")).toBe(true);
    expect(detail?.steps[0]?.b?.emitted).toMatch(/^mcp_workplace_assistant_/);
    expect(pairDetail(report, view.pairs.length)).toBeNull();
  });

  it("what-if: every variant with provenance equals HTTP", async () => {
    const file = await load("compare-http.jsonl");
    const first = file.rollouts[0];
    const view = first ? whatIf(file, first.line) : null;
    expect(view?.rows.length).toBeGreaterThan(0);
    for (const row of view?.rows ?? []) if (row.with_provenance) expect(row.reward).toBe(view?.http.reward);
    expect(whatIf(file, 10_000)).toBeNull();
  });

  it("repair: only repaired lines change, and they score like the verify of the repaired rollout", async () => {
    const file = await load("compare-mcp-hermes-noprov.jsonl");
    const server = serverTools().find((s) => s.name === "workplace_assistant");
    expect(server).toBeDefined();
    const { view, chunks } = await repairFile(file, "hermes-legacy", server ? [server] : []);
    expect(chunks).toHaveLength(file.lines.length);
    expect(view.repaired).toBe(file.rollouts.length);
    const decoder = new TextDecoder();
    chunks.forEach((chunk, i) => {
      const repaired = JSON.parse(decoder.decode(chunk));
      const row = view.rollouts[i];
      expect(verifyRollout(repaired, { policy: "contract" }).reward).toBe(row?.after);
      expect(Object.keys(repaired.mcp_tool_call_provenance)).toEqual(row?.derived.map((d) => d.call_id));
    });
    expect(view.suggested).toEqual([]);
  });

  it("repair under the wrong harness repairs nothing and names the harnesses whose aliases the names are", async () => {
    // Hermes' older `mcp_S_T` names, repaired as if Claude Code (`mcp__S__T`) had written them.
    const file = await load("compare-mcp-hermes-noprov.jsonl");
    const server = serverTools().find((s) => s.name === "workplace_assistant");
    const { view } = await repairFile(file, "claude-code", server ? [server] : []);
    expect(view.repaired).toBe(0);
    expect(view.suggested).toEqual(["hermes-legacy"]);
    // Bare names (an HTTP run) are no harness's aliases: nothing to suggest.
    const http = await repairFile(await load("compare-http.jsonl"), "claude-code", server ? [server] : []);
    expect(http.view.suggested).toEqual([]);
  });

  describe("materialized inputs", () => {
    const NOECHO = "workplace-noecho.jsonl";
    const INPUTS = "workplace_materialized_inputs.jsonl";
    const inputRows = () =>
      readFileSync(path.join(SAMPLES, INPUTS), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line): unknown => JSON.parse(line));
    const rowFor = (rollout: unknown) => inputRows().find((row) => pairingKey(row) === pairingKey(rollout));
    const text = (rows: readonly unknown[]) =>
      streamOf(new TextEncoder().encode(rows.map((r) => JSON.stringify(r)).join("\n")));

    it("an inputs file is recognised as inputs, indexed for pairing, with no line errors", async () => {
      const inputs = await load(INPUTS);
      expect(inputs.kind).toBe("inputs");
      expect(inputs.rollouts).toHaveLength(0);
      expect(inputs.errors).toEqual([]);
      expect(inputs.input_rows).toBe(inputRows().length);
      expect(inputs.inputs?.size).toBe(inputRows().length);
      for (const row of inputRows()) expect(inputs.inputs?.pair(row).ref).toEqual(row);
      expect(summarize(inputs)).toMatchObject({ kind: "inputs", input_rows: inputRows().length });
      const rollouts = await load(NOECHO);
      expect(rollouts.kind).toBe("rollouts");
      expect(rollouts.inputs).toBeNull();
    });

    it("a file with one input row among rollouts is a rollouts file and that row a line error", async () => {
      const [row] = inputRows();
      const rollout = (await load(NOECHO)).rollouts[0]?.value;
      const file = await readFile("mixed.jsonl", text([rollout, row]));
      expect(file.kind).toBe("rollouts");
      expect(file.errors.map((e) => e.line)).toEqual([2]);
    });

    it("compare recomputes each side's reward with its paired input row, as verifyRollout does", async () => {
      const a = await load(NOECHO);
      const inputs = await load(INPUTS);
      const without = compareView(a, a, compareFiles(a, a, "contract"));
      expect(without.pairs.every((p) => p.a.reward === null && p.a.error !== null)).toBe(true);

      const combined = combineInputs(inputs, inputs);
      expect(combined.conflicts).toEqual([]);
      // The same report as `cli compare A A --inputs M`, which indexes the file's rows as verify does.
      const rows = a.rollouts.map((r) => r.value);
      expect(compareFiles(a, a, "contract", combined)).toEqual(
        compareRuns(rows, rows, { policy: "contract", inputs: indexInputs(inputRows()) }),
      );
      const view = compareView(a, a, compareFiles(a, a, "contract", combined), {
        ai: inputs,
        bi: inputs,
        conflicts: combined.conflicts,
      });
      expect(view.pairs).toHaveLength(a.rollouts.length);
      expect(view.inputs_a).toEqual({
        name: INPUTS,
        rows: inputRows().length,
        paired: a.rollouts.length,
        shared_from: null,
      });
      expect(view.inputs_b).toEqual(view.inputs_a);
      for (const p of view.pairs) {
        const rollout = a.rollouts.find((r) => r.line === p.a.line)?.value;
        const expected = verifyRollout(rollout, { policy: "contract", input: rowFor(rollout) });
        expect(expected.reward).not.toBeNull();
        expect(p.a.error).toBeNull();
        expect(p.a.reward).toBe(expected.reward);
        expect(p.b.reward).toBe(expected.reward);
        expect(p.verdict).toBe("same actions, same reward");
      }
    });

    it("one side's inputs serve both; rows of one key that differ are reported as conflicts", async () => {
      const inputs = await load(INPUTS);
      expect(combineInputs(null, null).inputs).toBeUndefined();
      expect(combineInputs(null, inputs).inputs).toBe(inputs.inputs);
      const rows = inputRows();
      const changed = rows.map((row, i) =>
        i === 0 && typeof row === "object" && row !== null ? { ...row, ground_truth: [] } : row,
      );
      const other = await readFile("other.jsonl", text(changed));
      const combined = combineInputs(inputs, other);
      expect(combined.conflicts).toEqual([pairingKey(rows[0])]);
      // A's row wins.
      expect(combined.inputs?.pair(rows[0]).ref).toBe(inputs.inputs?.pair(rows[0]).ref);
      expect(combined.inputs?.pair(changed[0]).ref).toBe(inputs.inputs?.pair(rows[0]).ref);
    });

    it("task rows without indices: a row of B's with A's task input but other content is a conflict, A's is used", async () => {
      // As Gym's example.jsonl: no indices, one row per task (the golden rows differ only in their agent).
      const strip = (row: unknown) =>
        typeof row === "object" && row !== null
          ? Object.fromEntries(
              Object.entries(row).filter(
                ([k]) => !["_ng_task_index", "_ng_rollout_index", "agent_ref"].includes(k),
              ),
            )
          : row;
      const tasks = [...new Map(inputRows().map((r) => [JSON.stringify(strip(r)), strip(r)])).values()];
      const a = await readFile("a-rows.jsonl", text(tasks));
      const changed = tasks.map((row, i) =>
        i === 0 && typeof row === "object" && row !== null ? { ...row, ground_truth: [] } : row,
      );
      const b = await readFile("b-rows.jsonl", text(changed));
      const combined = combineInputs(a, b);
      expect(combined.conflicts).toEqual(["b-rows.jsonl line 1"]);
      // Not ambiguous: the rollouts of that task still pair, with A's row.
      expect(combined.inputs?.pair(changed[0]).ref).toEqual(tasks[0]);
      expect(combineInputs(a, a).conflicts).toEqual([]);
    });

    it("inputs of another run pair no rollout; the same tasks under other indices pair by their input", async () => {
      const a = await load(NOECHO);
      const reindexed = inputRows().map((row) =>
        typeof row === "object" && row !== null ? { ...row, _ng_task_index: 1_000 } : row,
      );
      // As the inspector and `cli verify` pair them: Gym's indices, else an equal task input.
      const same = await readFile("reindexed.jsonl", text(reindexed));
      expect(pairedRows(a, same.inputs)).toBe(a.rollouts.length);
      const shifted = reindexed.map((row) =>
        typeof row === "object" && row !== null
          ? { ...row, responses_create_params: { input: "another task" } }
          : row,
      );
      const other = await readFile("other.jsonl", text(shifted));
      expect(other.kind).toBe("inputs");
      const view = compareView(a, a, compareFiles(a, a, "contract", combineInputs(other, null)), {
        ai: other,
        bi: null,
        conflicts: [],
      });
      expect(view.inputs_a?.paired).toBe(0);
      // B chose none, but the one map compareRuns takes is A's: B is verified with it, and says so.
      expect(view.inputs_b).toMatchObject({ name: "other.jsonl", paired: 0, shared_from: "a" });
      const none = compareView(a, a, compareFiles(a, a, "contract"));
      expect(none.inputs_a).toBeNull();
      expect(none.inputs_b).toBeNull();
    });

    it("what-if and the repair's before/after verify with the paired input row", async () => {
      const file = await load(NOECHO);
      const inputs = await load(INPUTS);
      const first = file.rollouts[0];
      expect(first).toBeDefined();
      const expected = verifyRollout(first?.value, { policy: "contract", input: rowFor(first?.value) });
      // Without the inputs the server still comes from provenance, but the task data is missing.
      expect(whatIf(file, first?.line ?? 0)?.http.reward).toBeNull();
      const view = whatIf(file, first?.line ?? 0, inputs);
      expect(view?.error).toBeNull();
      expect(view?.input).toMatchObject({ file: INPUTS, paired: true, disagrees: false });
      // The row at its indices holds another task input: paired (as Gym pairs), and said to disagree.
      const key = pairingKey(first?.value);
      const other = inputRows().map((row) =>
        pairingKey(row) === key && typeof row === "object" && row !== null
          ? { ...row, responses_create_params: { input: "another task" } }
          : row,
      );
      const disagreeing = await readFile("other-inputs.jsonl", text(other));
      expect(whatIf(file, first?.line ?? 0, disagreeing)?.input).toMatchObject({
        paired: true,
        disagrees: true,
      });
      expect(whatIf(file, first?.line ?? 0)?.input).toBeNull();
      expect(view?.http.reward).toBe(expected.reward);

      const server = serverTools().find((s) => s.name === "workplace_assistant");
      const { view: repaired } = await repairFile(file, "claude-code", server ? [server] : [], inputs);
      for (const row of repaired.rollouts) {
        const rollout = file.rollouts.find((r) => r.line === row.line)?.value;
        const want = verifyRollout(rollout, { policy: "contract", input: rowFor(rollout) });
        expect(row.before).toBe(want.reward);
        expect(row.before_error).toBe(want.error ?? null);
      }
    });
  });
});

describe("a folder's run: its configs choose the server, as the inspector's", () => {
  // Gym's own example_mcp_weather rollouts name no environment_name: only the folder's config routes them.
  const dir = path.resolve(
    import.meta.dirname,
    "../../fixtures/gym-examples/resources_servers/example_mcp_weather",
  );
  const config = () => {
    const read = readGymConfig(
      "configs/example_mcp_weather.yaml",
      readFileSync(path.join(dir, "configs/example_mcp_weather.yaml"), "utf8"),
    );
    if (!read.ok) throw new Error(read.message);
    return configRoutes([read.config]);
  };
  const run = () =>
    readFile(
      "data/example_rollouts.jsonl",
      streamOf(new Uint8Array(readFileSync(path.join(dir, "data/example_rollouts.jsonl")))),
    );

  it("compare, what-if and the repair's before/after verify with the routed server", async () => {
    const file = await run();
    const routed = { config: config() };
    const unrouted = compareFiles(file, file, "contract");
    expect(unrouted.pairs.every((p) => p.a.reward === null)).toBe(true);
    const report = compareFiles(file, file, "contract", combineInputs(null, null), { a: routed, b: routed });
    expect(report.pairs.length).toBe(file.rollouts.length);
    for (const pair of report.pairs) {
      expect(pair.server).toBe("example_mcp_weather");
      expect(pair.a.reward).toBe(file.rollouts[pair.a.position]?.value.reward);
    }
    const line = file.rollouts[0]?.line ?? 0;
    expect(whatIf(file, line)?.error).toMatch(/^no verifying server/);
    expect(whatIf(file, line, null, routed)?.server).toBe("example_mcp_weather");

    const { view } = await repairFile(file, "claude-code", [], null, routed);
    expect(view.rollouts.every((r) => r.before !== null && r.before === r.recorded)).toBe(true);
    const { view: without } = await repairFile(file, "claude-code", [], null);
    expect(without.rollouts.every((r) => r.before === null)).toBe(true);
  });
});

describe("comparedName", () => {
  it("names the CSV after both files, their nearest distinct folders when the names are the same", () => {
    expect(comparedName("http.jsonl", "mcp.jsonl", "contract")).toBe("http-vs-mcp.contract.compare.csv");
    expect(comparedName("wat/runs/http/rollouts.jsonl", "wat/runs/mcp/rollouts.jsonl", "legacy")).toBe(
      "http-rollouts-vs-mcp-rollouts.legacy.compare.csv",
    );
    // One file as both sides: nothing tells them apart.
    expect(comparedName("a/r.jsonl", "a/r.jsonl", "contract")).toBe("r-vs-r.contract.compare.csv");
    expect(comparedName("r.jsonl", "x/r.jsonl", "contract")).toBe("r-vs-x-r.contract.compare.csv");
  });
});

describe("repairedName", () => {
  it("names the download after the file itself, never its folder path", () => {
    expect(repairedName("math/data/example_rollouts.jsonl", "claude-code")).toBe(
      "example_rollouts.repaired-claude-code.jsonl",
    );
    expect(repairedName("run.jsonl.gz", "hermes-legacy")).toBe("run.repaired-hermes-legacy.jsonl");
  });
});

describe("pairDetail: the alignment's cost bound (issue 10)", () => {
  it("carries lib/compare's 'too long to align' note for a capped pair, and null otherwise", async () => {
    const { manyCalls, rollout } = await import("@/scripts/gen-hostile");
    const a = asRollout(rollout(manyCalls(1500, 1, "a")));
    const b = asRollout(rollout(manyCalls(1500, 2, "b")));
    const capped = pairDetail(compareRuns([a], [b], { server: "workplace_assistant" }), 0);
    expect(capped?.alignment_note).toMatch(/^too long to align: /);
    expect(capped?.steps).toHaveLength(1500);
    expect(
      pairDetail(compareRuns([a], [a], { server: "workplace_assistant" }), 0)?.alignment_note,
    ).toBeNull();
  });
});
