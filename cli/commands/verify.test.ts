import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { memoryIo } from "../io";
import { damagedFolder, recordPlaces } from "../test-helpers";
import { run as runExport } from "./export";
import { run as runResolve } from "./resolve";
import { run as runTriage } from "./triage";
import { run } from "./verify";

const GOLDEN = fileURLToPath(new URL("../../fixtures/golden/", import.meta.url));
const IPI_ROLLOUTS = join(GOLDEN, "ipi-rollouts/ipi_rollouts.jsonl");
const IPI_EXPECTED = join(GOLDEN, "ipi-rollouts/ipi_expected.jsonl");

const tmp = mkdtempSync(join(tmpdir(), "verify-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function lines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const OutputRecord = z.object({
  line: z.number(),
  reward: z.number().nullable(),
  recorded_reward: z.number().nullable(),
  error: z.string().nullable(),
  server: z.string().nullable(),
  server_source: z.string(),
  paired_by: z.enum(["index", "input", "none"]),
  unverified: z.string().optional(),
  components: z.record(z.string(), z.number()).optional(),
  gym_would_reject: z.array(z.string()).optional(),
});

async function verify(...args: string[]) {
  const io = memoryIo();
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe("verify CLI on the golden ipi rollouts", () => {
  const Expected = z.object({
    contract: z.object({ reward: z.number(), reward_safety: z.number(), reward_utility: z.number() }),
    legacy: z.object({ reward: z.number(), reward_safety: z.number(), reward_utility: z.number() }),
  });
  const expected = lines(readFileSync(IPI_EXPECTED, "utf8")).map((e) => Expected.parse(e));

  it.each(["contract", "legacy"] as const)(
    "policy %s: one record per line, in order, with every reward",
    async (policy) => {
      const { code, out, err } = await verify(
        IPI_ROLLOUTS,
        "--server",
        "indirect_prompt_injection",
        "--policy",
        policy,
      );
      expect(code).toBe(0);
      const records = lines(out).map((r) => OutputRecord.strict().parse(r));
      expect(records.map((r) => r.line)).toEqual(expected.map((_, i) => i + 1));
      records.forEach((record, i) => {
        const want = expected[i]![policy];
        expect(record.reward).toBe(want.reward);
        expect(record.error).toBeNull();
        expect(record.components).toMatchObject({
          reward_safety: want.reward_safety,
          reward_utility: want.reward_utility,
        });
      });
      const changed = records.filter((r) => r.reward !== r.recorded_reward).length;
      expect(err).toBe(
        `verify (${policy}): ${records.length} rollouts; mean recorded reward ` +
          `${mean(records.map((r) => r.recorded_reward ?? 0))} (of ${records.length}), mean recomputed reward ` +
          `${mean(records.map((r) => r.reward ?? 0))} (of ${records.length}); ${changed} changed, 0 unverified\n`,
      );
    },
  );
});

describe("verify CLI on the golden workplace_assistant rollouts", () => {
  const WA = join(GOLDEN, "workplace-rollouts");
  const Expected = z.object({
    contract: z.object({ reward: z.number().nullable() }),
    legacy: z.object({ reward: z.number().nullable() }),
  });
  const cases = (["contract", "legacy"] as const).flatMap((policy) => [
    { policy, file: "wa_rollouts.jsonl", expected: "wa_expected.jsonl", extra: [] as string[] },
    {
      policy,
      file: "wa_noecho.jsonl",
      expected: "wa_noecho_expected.jsonl",
      extra: ["--inputs", join(WA, "wa_inputs.jsonl")],
    },
  ]);

  it.each(cases)("$file, policy $policy: every reward", async ({ policy, file, expected, extra }) => {
    const want = lines(readFileSync(join(WA, expected), "utf8")).map((e) => Expected.parse(e)[policy].reward);
    const { code, out } = await verify(join(WA, file), "--policy", policy, ...extra);
    expect(code).toBe(0);
    const records = lines(out).map((r) => OutputRecord.strict().parse(r));
    expect(records.map((r) => r.reward)).toEqual(want);
    // Every line has a reward or an unverified reason (Gym refuses the request), never both or neither.
    for (const r of records) {
      expect(r.error === null).toBe(r.reward !== null);
      expect(r.unverified === undefined ? null : r.unverified).toBe(r.reward === null ? "gym_refuses" : null);
      expect(r.server).toBe("workplace_assistant");
      expect(r.server_source).toBe(extra.length > 0 ? "input" : "environment_name");
      expect(r.paired_by).toBe(extra.length > 0 ? "index" : "none");
    }
    // The recorded rewards are what Gym recorded before provenance: the legacy policy reproduces every one
    // Gym's server scores.
    if (policy === "legacy") {
      records.forEach((r, i) => {
        if (want[i] !== null) expect(r.recorded_reward).toBe(want[i]);
      });
    }
  });

  it("without --inputs, the no-echo rollouts cannot be scored", async () => {
    const { code, out } = await verify(join(WA, "wa_noecho.jsonl"));
    expect(code).toBe(0);
    const records = lines(out).map((r) => OutputRecord.parse(r));
    expect(records.every((r) => r.reward === null && r.error !== null)).toBe(true);
  });
});

describe("verify CLI on Gym's example_tool_call_multireward rollouts", () => {
  it("reproduces every recorded reward and reward_components through materialized inputs", async () => {
    const data = fileURLToPath(
      new URL(
        "../../fixtures/nemo-gym/resources_servers/example_tool_call_multireward/data/",
        import.meta.url,
      ),
    );
    // Materialize example.jsonl as collection does with num_repeats 1: task index = row order, rollout index 0.
    const tasks = lines(readFileSync(join(data, "example.jsonl"), "utf8")).map((row, i) => ({
      ...z.looseObject({}).parse(row),
      _ng_task_index: i,
      _ng_rollout_index: 0,
    }));
    const inputs = join(tmp, "multireward_materialized_inputs.jsonl");
    writeFileSync(inputs, tasks.map((t) => JSON.stringify(t)).join("\n"));
    const rollouts = join(data, "example_rollouts.jsonl");
    const Recorded = z.looseObject({
      reward: z.number(),
      reward_components: z.record(z.string(), z.number()),
    });
    const recorded = lines(readFileSync(rollouts, "utf8")).map((r) => Recorded.parse(r));
    const { code, out } = await verify(
      rollouts,
      "--server",
      "example_tool_call_multireward",
      "--inputs",
      inputs,
    );
    expect(code).toBe(0);
    const records = lines(out).map((r) => OutputRecord.parse(r));
    expect(records.map((r) => r.reward)).toEqual(recorded.map((r) => r.reward));
    expect(records.map((r) => r.components)).toEqual(recorded.map((r) => r.reward_components));
    expect(records.map((r) => r.recorded_reward)).toEqual(recorded.map((r) => r.reward));
  });
});

function mean(values: number[]): string {
  return (values.reduce((a, b) => a + b, 0) / values.length).toFixed(4);
}

describe("verify CLI lines and errors", () => {
  const rollout = readFileSync(IPI_ROLLOUTS, "utf8").split("\n")[0] ?? "";

  it("reports bad lines as {line, error} and verifies the rest", async () => {
    const file = join(tmp, "mixed.jsonl");
    writeFileSync(file, `${rollout}\n{not json\n\n[1, 2]\n${rollout}\n`);
    const { code, out, err } = await verify(file, "--server", "indirect_prompt_injection");
    expect(code).toBe(0);
    const records = lines(out);
    expect(records).toHaveLength(4);
    expect(Object.keys(z.looseObject({}).parse(records[1]))).toEqual(["line", "kind", "error"]);
    expect(records[1]).toMatchObject({ line: 2 });
    // A JSON value that is not an object is an unreadable line, as in resolve and the browser (issue 10).
    expect(records[2]).toEqual({
      line: 4,
      kind: "not_a_rollout",
      error: "not a rollout: the line is not a JSON object",
    });
    expect(OutputRecord.parse(records[0]).reward).toBe(OutputRecord.parse(records[3]).reward);
    expect(OutputRecord.parse(records[3]).line).toBe(5);
    expect(err).toContain("2 rollouts, 2 unreadable lines");
  });

  it("an object that is not a rollout is an unreadable line with the schema's reason, as in resolve", async () => {
    const file = join(tmp, "schema.jsonl");
    writeFileSync(
      file,
      `{"response":{"output":"x"},"reward":1,"environment_name":"workplace_assistant"}\n${rollout}\n`,
    );
    const { code, out, err } = await verify(file, "--server", "indirect_prompt_injection");
    expect(code).toBe(0);
    const records = lines(out);
    expect(records[0]).toEqual({
      line: 1,
      kind: "not_a_rollout",
      error:
        "not a rollout: response.output: expected an array of output items (a rollout without response.output cannot be resolved)",
    });
    expect(OutputRecord.parse(records[1]).line).toBe(2);
    expect(err).toContain("1 rollouts, 1 unreadable lines");
  });

  it("gives reward null and the reason for a server without a verifier", async () => {
    const { code, out } = await verify(IPI_ROLLOUTS, "--server", "no_such_server");
    expect(code).toBe(0);
    for (const record of lines(out).map((r) => OutputRecord.parse(r))) {
      expect(record.reward).toBeNull();
      expect(record.unverified).toBe("no_verifier");
      expect(record.server_source).toBe("override");
      expect(record.error).toContain("no port of no_such_server's verifier");
    }
  });

  it("a request Gym's request model refuses is unverified (gym_refuses) with the reasons", async () => {
    const Obj = z.looseObject({});
    const bad = { ...Obj.parse(JSON.parse(rollout)), mcp_tool_call_provenance: "oops" };
    const file = join(tmp, "reject.jsonl");
    writeFileSync(file, `${JSON.stringify(bad)}\n`);
    const { out } = await verify(file, "--server", "indirect_prompt_injection");
    const record = OutputRecord.parse(lines(out)[0]);
    expect(record.reward).toBeNull();
    expect(record.unverified).toBe("gym_refuses");
    expect(record.gym_would_reject?.length).toBeGreaterThan(0);
    // Gym before provenance never reads the map: under legacy the same line is scored.
    const legacy = await verify(file, "--server", "indirect_prompt_injection", "--policy", "legacy");
    expect(OutputRecord.parse(lines(legacy.out)[0]).reward).not.toBeNull();
  });

  it("pairs with --inputs and reports rollouts that have no input row", async () => {
    const Obj = z.looseObject({});
    const full = Obj.parse(JSON.parse(rollout));
    const { injection, required_tools, ...bare } = full;
    const inputs = join(tmp, "inputs.jsonl");
    const { responses_create_params } = full;
    writeFileSync(
      inputs,
      `${JSON.stringify({ _ng_task_index: full._ng_task_index, _ng_rollout_index: full._ng_rollout_index, responses_create_params, injection, required_tools })}\n{"x": 1}\n`,
    );
    const file = join(tmp, "bare.jsonl");
    const other = { ...bare, _ng_rollout_index: 999, responses_create_params: { input: "another task" } };
    writeFileSync(file, `${JSON.stringify(bare)}\n${JSON.stringify(other)}\n`);
    const paired = await verify(file, "--server", "indirect_prompt_injection", "--inputs", inputs);
    const withEcho = await verify(IPI_ROLLOUTS, "--server", "indirect_prompt_injection");
    expect(paired.code).toBe(0);
    const [first, second] = lines(paired.out).map((r) => OutputRecord.parse(r));
    expect(first?.reward).toBe(OutputRecord.parse(lines(withEcho.out)[0]).reward);
    expect(first?.paired_by).toBe("index");
    // Not paired: verified with its own fields, which lack the injection Gym's request model requires.
    expect(second).toMatchObject({ reward: null, paired_by: "none", unverified: "missing_field" });
    expect(second?.error).toContain("injection");
    expect(paired.err).toContain("line 2: neither (_ng_task_index, _ng_rollout_index)");
    expect(paired.err).toContain("1 unverified (missing_field 1)");
  });

  it("says in one line what a file without one rollout is (a CSV here)", async () => {
    const csv = fileURLToPath(
      new URL(
        "../../fixtures/nemo-gym/resources_servers/workplace_assistant/csv_data/processed/emails.csv",
        import.meta.url,
      ),
    );
    const { code, err } = await verify(csv);
    expect(code).toBe(0);
    expect(err).toContain(`${csv}: This looks like a CSV file, not a rollouts JSONL file.`);
    const ok = await verify(IPI_ROLLOUTS, "--server", "indirect_prompt_injection");
    expect(ok.err).not.toContain("JSON Lines");
  });

  it("calls Gym's task rows task rows, and JSONL whose lines are no rollouts JSONL (every command alike)", async () => {
    // Gym's example.jsonl: task rows, which a newcomer may give instead of example_rollouts.jsonl.
    const rows = fileURLToPath(
      new URL("../../fixtures/gym-examples/resources_servers/xlam_fc/data/example.jsonl", import.meta.url),
    );
    const records = join(tmp, "records.jsonl");
    writeFileSync(records, '{"a": 1}\n{"b": 2}\n');
    const exportVerify = (args: string[], io: ReturnType<typeof memoryIo>) =>
      runExport(["--what", "verify", ...args], io);
    for (const command of [run, runTriage, runResolve, exportVerify]) {
      const taskRows = memoryIo();
      expect(await command([rows], taskRows)).toBe(0);
      expect(taskRows.err()).toContain(`${rows}: This file holds task rows`);
      expect(taskRows.err()).not.toContain("one JSON document");
      // Each line is named with its kind; nothing is said of the file as a whole.
      const other = memoryIo();
      expect(await command([records], other)).toBe(0);
      expect(other.err()).not.toContain(`${records}:`);
    }
  });

  it("a folder with a damaged gzip: its lines before the damage, then the folder's other files, exit 1", async () => {
    const lines = readFileSync(IPI_ROLLOUTS, "utf8").trim().split("\n");
    const dir = damagedFolder(lines, 3);
    const io = memoryIo();
    expect(await run([dir, "--server", "indirect_prompt_injection"], io)).toBe(1);
    const records = recordPlaces(io.out());
    const fromA = records.filter((r) => r.file === "a.jsonl.gz").length;
    expect(fromA).toBeGreaterThan(0);
    expect(fromA).toBeLessThan(lines.length);
    expect(records.filter((r) => r.file === "b.jsonl").map((r) => r.line)).toEqual([1, 2, 3]);
    expect(io.err()).toMatch(/^error: reading \S+a\.jsonl\.gz stopped: damaged gzip data at byte \d+/m);
    expect(io.err()).toMatch(new RegExp(`^verify \\(contract\\): ${fromA + 3} rollouts`, "m"));
  });

  it("says a Gym config or metrics file given as FILE is one, as a folder reads it (every command alike)", async () => {
    const folder = fileURLToPath(
      new URL("../../fixtures/gym-examples/resources_servers/workplace_assistant/", import.meta.url),
    );
    const config = join(folder, "configs/workplace_assistant.yaml");
    const metrics = join(folder, "data/example_metrics.json");
    const exportVerify = (args: string[], io: ReturnType<typeof memoryIo>) =>
      runExport(["--what", "verify", ...args], io);
    for (const command of [run, runTriage, runResolve, exportVerify]) {
      const io = memoryIo();
      await command([config], io);
      expect(io.err()).toContain(
        `${config}: This is a Gym config (1 agent, 1 resources server), not rollouts:`,
      );
      const json = memoryIo();
      await command([metrics], json);
      expect(json.err()).toContain(
        `${metrics}: This is Gym's metrics file (Gym's dataset metrics: 5 examples`,
      );
      expect(json.err()).not.toContain("one JSON document");
    }
  });

  it("names an ng_run that starts the server: the server's own config of many alike, none for a server the configs lack", async () => {
    const servers = fileURLToPath(new URL("../../fixtures/gym-examples/resources_servers/", import.meta.url));
    const startWith = async (...args: string[]) => {
      const { out } = await verify(...args);
      const first = z.object({ error: z.string().nullable() }).parse(JSON.parse(out.split("\n")[0] ?? ""));
      return /ng_run "\+config_paths=\[([^\]]*)\]"/.exec(first.error ?? "")?.[1] ?? null;
    };
    // Nine configs declare math_with_judge's instance and agent alike; dapo17k.yaml, the first, leaves its
    // judge "???". Its own config starts it.
    expect(await startWith(join(servers, "math_with_judge"))).toBe(
      join(servers, "math_with_judge/configs/math_with_judge.yaml"),
    );
    // openenv's three configs declare three instances (echo, coding, maze): a line without agent_ref may be any.
    expect((await startWith(join(servers, "openenv")))?.split(",")).toHaveLength(3);
    // A server the user names that the folder's configs do not route to: no config of the folder starts it.
    expect(await startWith(join(servers, "xlam_fc"), "--server", "nonexistent_srv")).toBeNull();
    expect(await startWith(join(servers, "xlam_fc"), "--server", "xlam_fc")).toBe(
      join(servers, "xlam_fc/configs/xlam_fc.yaml"),
    );
  });

  it("exits 2 with one line for a missing file or inputs file", async () => {
    const missing = await verify(join(tmp, "absent.jsonl"));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^error: cannot read .*absent\.jsonl: no such file\n$/);
    expect(missing.out).toBe("");
    const missingInputs = await verify(IPI_ROLLOUTS, "--inputs", join(tmp, "absent-inputs.jsonl"));
    expect(missingInputs.code).toBe(2);
    expect(missingInputs.err.split("\n").filter((l) => l !== "")).toHaveLength(1);
  });

  it.each([
    [[], "missing FILE"],
    [["a", "b"], "expected one FILE"],
    [["a", "--policy", "strict"], "--policy must be contract or legacy"],
    [["a", "--frobnicate"], "unknown option --frobnicate"],
    [["a", "--server"], "--server needs a value"],
    [["a", "--server", ""], "--server must not be empty"],
    [["a", "--harness", "vim"], "--harness must be one of"],
  ])("exits 2 for unusable arguments %j", async (args, message) => {
    const { code, out, err } = await verify(...args);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain(message);
    expect(err.trimEnd().split("\n")).toHaveLength(1);
  });

  it("documents itself with --help", async () => {
    const { code, out } = await verify("--help");
    expect(code).toBe(0);
    for (const word of ["--server", "--inputs", "--policy", "recorded_reward", "components", "exit status"]) {
      expect(out).toContain(word);
    }
  });
});
