import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { COMPARE_CSV_COLUMNS } from "../../lib/compare";
import { asHarness, golden, goldenInputs } from "../../lib/compare/test-helpers";
import { memoryIo } from "../io";
import { parseCompareArgs, run } from "./compare";

describe("cli compare", () => {
  it("given a folder, names its rollouts files to choose from, exit 2", async () => {
    const dir = join(import.meta.dirname, "../../fixtures/gym-examples/resources_servers/structeval");
    const io = memoryIo();
    expect(await run([dir, dir], io)).toBe(2);
    expect(io.err()).toBe(
      `error: ${dir} is a folder: compare takes two rollouts files; its rollouts files are ${join(dir, "data/example_rollouts.jsonl")}, ${join(dir, "data/structeval_nonrenderable_example_rollouts.jsonl")}\n`,
    );
  });

  const bare = golden().filter((g) => g.expected.scheme === "bare");

  async function files(): Promise<{ http: string; mcp: string }> {
    const dir = await mkdtemp(join(tmpdir(), "compare-"));
    const http = join(dir, "http.jsonl");
    const mcp = join(dir, "mcp.jsonl");
    await writeFile(http, `${bare.map((g) => g.text).join("\n")}\n`);
    await writeFile(
      mcp,
      `${bare.map((g) => JSON.stringify(asHarness(g.rollout, "openclaw", false))).join("\n")}\nnope\n`,
    );
    return { http, mcp };
  }

  it("prints the summary and one line per pair", async () => {
    const { http, mcp } = await files();
    const io = memoryIo();
    expect(await run([http, mcp], io)).toBe(0);
    const wins = bare.filter((g) => g.expected.contract.reward === 1).length;
    expect(io.out()).toContain(`${bare.length} pairs; unpaired: 0 in a, 0 in b`);
    expect(io.out()).toContain(`; rewards recomputed in ${bare.length} of ${bare.length} pairs\n`);
    expect(io.out()).toContain(
      `same actions, different reward: ${wins} (only because of names, with calls on both sides and recomputed rewards: ${wins})`,
    );
    expect(
      io
        .out()
        .split("\n")
        .filter((l) => l.includes("same actions, different reward") && !l.includes("(")),
    ).toHaveLength(wins);
    expect(io.err()).toMatch(/line 8: invalid JSON/);
    // Each pair is named by its lines: a's line 1 with b's line 1 (Gym's indices), and so on.
    expect(io.out()).toMatch(/^a 1 · b 1 {2}/m);
    expect(io.out()).not.toContain("one of several");
    expect(io.out()).not.toContain("recorded different rewards");
  });

  it("says how many pairs score the same but recorded different rewards (an MCP run recorded before provenance)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "compare-recorded-"));
    const http = join(dir, "http.jsonl");
    const mcp = join(dir, "mcp.jsonl");
    await writeFile(http, `${bare.map((g) => g.text).join("\n")}\n`);
    // With its provenance map now (it scores as HTTP), the reward it recorded without: 0 on every task.
    const recorded = bare.map((g) => {
      const rollout = asHarness(g.rollout, "openclaw", true);
      return JSON.stringify(
        typeof rollout === "object" && rollout !== null ? { ...rollout, reward: 0 } : rollout,
      );
    });
    await writeFile(mcp, `${recorded.join("\n")}\n`);
    const io = memoryIo();
    expect(await run([http, mcp], io)).toBe(0);
    const wins = bare.filter((g) => g.expected.contract.reward === 1).length;
    expect(io.out()).toContain(
      `note: ${wins} pairs score the same here but recorded different rewards in the files: a recorded reward is not what its verifier gives here`,
    );
  });

  it("says which pairs join one of several rollouts of a task, by their lines (the golden runs' repeats)", async () => {
    const dir = join(import.meta.dirname, "../../fixtures/golden/workplace-rollouts");
    const io = memoryIo();
    expect(
      await run(
        [
          join(dir, "wa_rollouts.jsonl"),
          join(dir, "wa_noecho.jsonl"),
          "--inputs",
          join(dir, "wa_inputs.jsonl"),
        ],
        io,
      ),
    ).toBe(0);
    expect(io.out()).toMatch(/^note: 56 of 56 pairs join one of several rollouts of a task/m);
    const pairs = io
      .out()
      .split("\n")
      .filter((line) => /^a \d+ · b \d+ /.test(line));
    expect(pairs).toHaveLength(56);
    for (const line of pairs) expect(line).toMatch(/ one of several \(a \d+, b \d+\)/);
    // Lines, not positions among the rollouts: every pair names two distinct lines.
    expect(new Set(pairs.map((line) => line.split("  ")[0])).size).toBe(56);
    // One file as a and b: each rollout is joined with itself, no note of samples.
    const same = memoryIo();
    expect(await run([join(dir, "wa_noecho.jsonl"), join(dir, "wa_noecho.jsonl")], same)).toBe(0);
    expect(same.out()).toContain("a and b are the same file");
    expect(same.out()).not.toContain("note: ");
  });

  it("--inputs pairs as verify does: task rows without Gym's indices pair by their task input", async () => {
    // Gym's own dataset rows (example.jsonl) carry no (_ng_task_index, _ng_rollout_index).
    const strip = (row: unknown) => {
      const { _ng_task_index, _ng_rollout_index, ...rest } = z.record(z.string(), z.unknown()).parse(row);
      return rest;
    };
    const noecho = golden("noecho");
    // One row per task, as example.jsonl has it (the golden rows differ only in the agent that ran them).
    const inputs = goldenInputs().map((row) => {
      const { agent_ref, ...task } = strip(row);
      return task;
    });
    const tasks = [...new Map(inputs.map((row) => [JSON.stringify(row), row])).values()];
    expect(tasks.length).toBeLessThan(inputs.length);
    const dir = await mkdtemp(join(tmpdir(), "compare-inputs-"));
    const run1 = join(dir, "run.jsonl");
    const rows = join(dir, "example.jsonl");
    await writeFile(run1, `${noecho.map((g) => JSON.stringify(strip(g.rollout))).join("\n")}\n`);
    await writeFile(rows, `${tasks.map((row) => JSON.stringify(row)).join("\n")}\n`);
    // Without the task rows nothing can be recomputed, and the summary says the rewards are the recorded ones.
    const without = memoryIo();
    expect(await run([run1, run1, "--server", "workplace_assistant"], without)).toBe(0);
    expect(without.out()).toContain(
      `rewards recomputed in 0 of ${noecho.length} pairs (the others compare the rewards the files recorded)`,
    );
    // Each pair's line shows the recorded rewards its verdict compared, and says so.
    const pairLines = without
      .out()
      .split("\n")
      .filter((l) => / same actions, | different actions/.test(l));
    expect(pairLines.length).toBe(noecho.length);
    for (const line of pairLines)
      expect(line).toMatch(/^\S.* {2}(same actions, (same|different) reward|different actions) \(recorded\)/);
    // Paired by task input, each pair says so beside its lines (its key, the input's JSON, begins alike).
    for (const line of pairLines) expect(line).toMatch(/^a \d+ · b \d+ {2}\(by input\) /);
    expect(pairLines.some((l) => / {2}- {2}/.test(l))).toBe(false);
    const io = memoryIo();
    expect(await run([run1, run1, "--inputs", rows, "--server", "workplace_assistant", "--json"], io)).toBe(
      0,
    );
    const report = z
      .object({ pairs: z.array(z.object({ a: z.object({ reward: z.number().nullable() }) })) })
      .parse(JSON.parse(io.out()));
    const want = noecho.map((g) => g.expected.contract.reward);
    expect(want.some((r) => r !== null)).toBe(true);
    expect(report.pairs.map((p) => p.a.reward)).toEqual(want);
  });

  it("compares runs with Gym's repeats by task: a sentence, then the tasks b scores lower", async () => {
    const dir = await mkdtemp(join(tmpdir(), "compare-tasks-"));
    const runOf = (perTask: number[][]) =>
      `${perTask
        .flatMap((rewards, task) =>
          rewards.map((reward, k) =>
            JSON.stringify({ _ng_task_index: task, _ng_rollout_index: k, response: { output: [] }, reward }),
          ),
        )
        .join("\n")}\n`;
    const [a, b] = [join(dir, "a.jsonl"), join(dir, "b.jsonl")];
    await writeFile(
      a,
      runOf([
        [1, 1, 1, 1],
        [1, 0, 0, 0],
        [0, 0, 1, 1],
        [1, 1, 0, 0],
      ]),
    );
    await writeFile(
      b,
      runOf([
        [1, 0, 0, 0],
        [1, 1, 0, 0],
        [0, 0, 1, 1],
        [1, 1, 1, 0],
      ]),
    );
    const io = memoryIo();
    expect(await run([a, b], io)).toBe(0);
    expect(io.out()).toContain(
      "by task: 4 tasks, 4 with several rollouts paired: over the paired rollouts, b's mean reward is lower on 1, higher on 2, the same on 1.\n  task 0: passes a 4/4, b 1/4; mean 1.0000 -> 0.2500\n\n",
    );
    // One rollout per task: no line by task (the pairs are the tasks).
    const once = memoryIo();
    await writeFile(join(dir, "c.jsonl"), runOf([[1], [0]]));
    expect(await run([join(dir, "c.jsonl"), join(dir, "c.jsonl")], once)).toBe(0);
    expect(once.out()).not.toContain("by task:");
  });

  it("--json prints the report", async () => {
    const { http, mcp } = await files();
    const io = memoryIo();
    expect(await run([http, mcp, "--json", "--policy", "legacy"], io)).toBe(0);
    const report = z
      .object({ policy: z.string(), summary: z.looseObject({ pairs: z.number() }) })
      .parse(JSON.parse(io.out()));
    expect(report).toMatchObject({ policy: "legacy", summary: { pairs: bare.length } });
  });

  it("validates its arguments", () => {
    expect(parseCompareArgs(["a"])).toMatchObject({ ok: false, error: "need two files, A and B" });
    expect(parseCompareArgs(["a", "b", "--policy", "x"])).toMatchObject({ ok: false });
    expect(parseCompareArgs(["a", "b", "--inputs", "m"])).toEqual({
      ok: true,
      help: false,
      a: "a",
      b: "b",
      policy: "contract",
      format: "table",
      inputs: "m",
    });
    expect(parseCompareArgs(["a", "b", "--json"])).toMatchObject({ ok: true, format: "json" });
    expect(parseCompareArgs(["a", "b", "--format", "csv"])).toMatchObject({ ok: true, format: "csv" });
    expect(parseCompareArgs(["a", "b", "--format", "xml"])).toEqual({
      ok: false,
      error: "--format must be table, json or csv, not 'xml'",
    });
    expect(parseCompareArgs(["a", "b", "--json", "--format", "csv"])).toMatchObject({ ok: false });
  });

  it("--format csv writes a row per pair with each side's line", async () => {
    const { http, mcp } = await files();
    const io = memoryIo();
    expect(await run([http, mcp, "--format", "csv"], io)).toBe(0);
    const parsed = Papa.parse<Record<string, string>>(io.out(), { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([...COMPARE_CSV_COLUMNS]);
    // Gym's indices pair line k with line k; the MCP run's aliases lose every reward the HTTP run won.
    expect(parsed.data.map((row) => [row.a_line, row.b_line])).toEqual(
      bare.map((_, i) => [String(i + 1), String(i + 1)]),
    );
    const wins = bare.filter((g) => g.expected.contract.reward === 1).length;
    expect(parsed.data.filter((row) => row.verdict === "same actions, different reward")).toHaveLength(wins);
  });
});
