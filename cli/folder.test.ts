/**
 * Issue 17's "done when", over every Gym example folder in fixtures/gym-examples opened as a folder, with
 * no per-folder case in the generic checks (so folders never seen hold too): every line of every rollouts
 * file has a reward, an unverified reason code or a per-line kind; no line is `no_server` where the folder's
 * configs route it; task-row files are offered as inputs whole. Then the six ported servers' folders.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { planFolder } from "../lib/folder";
import { decideFolder, GYM_EXAMPLE_FOLDERS, GYM_EXAMPLES } from "../lib/folder/test-helpers";
import { parseJsonLine } from "../lib/jsonl";
import { agentRefName, isInputRow } from "../lib/verify";
import { run as exportRun } from "./commands/export";
import { run as resolve } from "./commands/resolve";
import { run as verify } from "./commands/verify";
import { memoryIo } from "./io";

const EXAMPLES = GYM_EXAMPLES;
const FOLDERS = GYM_EXAMPLE_FOLDERS;

const Line = z.looseObject({
  file: z.string(),
  line: z.number().int().positive(),
  reward: z.number().nullable().optional(),
  recorded_reward: z.number().nullable().optional(),
  unverified: z.string().optional(),
  kind: z.string().optional(),
  error: z.string().nullable().optional(),
  server: z.string().nullable().optional(),
  server_source: z.string().optional(),
  paired_by: z.string().optional(),
});
type Line = z.infer<typeof Line>;

async function verifyFolder(dir: string): Promise<{ code: number; lines: Line[]; err: string }> {
  const io = memoryIo();
  const code = await verify([dir], io);
  const lines = io
    .out()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => Line.parse(JSON.parse(l)));
  return { code, lines, err: io.err() };
}

function nonBlank(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
}

const results = new Map<string, { code: number; lines: Line[]; err: string }>();

beforeAll(async () => {
  for (const dir of FOLDERS) results.set(dir, await verifyFolder(dir));
}, 120_000);

describe("every Gym example folder opened as a folder (cli verify DIR)", () => {
  it("answers every line of every rollouts file, and offers every task-row file whole as inputs", () => {
    let answered = 0;
    for (const dir of FOLDERS) {
      const { code, lines, err } = results.get(dir) ?? { code: -1, lines: [], err: "" };
      expect(code, dir).toBe(0);
      const decisions = decideFolder(dir);
      for (const d of decisions) expect(err, dir).toContain(`${d.path}: `);
      for (const d of decisions) {
        const text = nonBlank(join(dir, d.path));
        if (d.role === "rollouts") {
          const mine = lines.filter((l) => l.file === d.path);
          expect(mine.map((l) => l.line).length, `${dir} ${d.path}`).toBe(text.length);
          for (const l of mine) {
            const answer = typeof l.reward === "number" || l.unverified !== undefined || l.kind !== undefined;
            expect(answer, `${dir} ${d.path}:${l.line}`).toBe(true);
            if (l.reward === null) expect(l.unverified ?? l.kind, `${dir}:${l.line}`).toBeDefined();
          }
          answered += mine.length;
        } else if (d.role === "inputs") {
          for (const row of text) {
            const parsed = parseJsonLine(row);
            expect(parsed.ok && isInputRow(parsed.value), `${dir} ${d.path}`).toBe(true);
          }
        }
      }
    }
    expect(answered).toBeGreaterThan(450);
  });

  it("never says no_server for a line the folder's configs route", () => {
    let routed = 0;
    for (const dir of FOLDERS) {
      const decisions = decideFolder(dir);
      const plan = planFolder(decisions);
      const { lines } = results.get(dir) ?? { lines: [] };
      for (const run of plan.runs) {
        const values = nonBlank(join(dir, run.rollouts)).map((t) => parseJsonLine(t));
        for (const l of lines.filter((x) => x.file === run.rollouts)) {
          const parsed = values[l.line - 1];
          const agent = parsed?.ok ? agentRefName(parsed.value) : null;
          const route = run.routes.route(agent);
          if (route.server === null || l.kind !== undefined) continue;
          routed++;
          expect(l.unverified, `${dir}:${l.line}`).not.toBe("no_server");
          expect(l.server_source).toBe("config");
          expect(l.server).toBe(route.server);
        }
      }
    }
    expect(routed).toBeGreaterThan(350);
  });

  it("never advises opening the inputs file when a folder's inputs are open", () => {
    for (const dir of FOLDERS) {
      const { lines, err } = results.get(dir) ?? { lines: [], err: "" };
      if (!/task rows \(inputs\)/.test(err)) continue;
      for (const l of lines)
        expect(l.error ?? "", `${dir}:${l.line}`).not.toMatch(/open the materialized inputs/);
    }
  });
});

describe("the six ported servers' example folders", () => {
  const folder = (name: string) => results.get(join(EXAMPLES, "resources_servers", name))?.lines ?? [];

  it("example_multi_step and example_tool_call_multireward reproduce their recorded rewards, nothing chosen", () => {
    const lines = [...folder("example_multi_step"), ...folder("example_tool_call_multireward")];
    expect(lines).toHaveLength(10);
    for (const l of lines) {
      expect(l.server_source).toBe("config");
      expect(l.paired_by).toBe("input");
      expect(l.reward).toBe(l.recorded_reward);
    }
  });

  it("example_mcp_weather scores 5 of 5 at 1.0", () => {
    expect(folder("example_mcp_weather").map((l) => l.reward)).toEqual([1, 1, 1, 1, 1]);
  });

  it("workplace_assistant, math_advanced_calculations and indirect_prompt_injection say missing_field and why they did not pair", () => {
    for (const name of ["workplace_assistant", "math_advanced_calculations", "indirect_prompt_injection"]) {
      const lines = folder(name);
      expect(lines).toHaveLength(5);
      for (const l of lines) {
        expect(l.unverified).toBe("missing_field");
        expect(l.server).toBe(name);
        expect(l.error).toMatch(
          /did not pair with the open inputs\. Not paired: .* The closest is data\/example\.jsonl line \d+: /,
        );
      }
    }
  });
});

describe("a Gym folder the tests have never seen", () => {
  let dir: string;
  beforeAll(() => {
    // Names chosen so no convention could route them: only the config's blocks can.
    dir = mkdtempSync(join(tmpdir(), "unseen-gym-"));
    mkdirSync(join(dir, "conf"));
    mkdirSync(join(dir, "out"));
    writeFileSync(
      join(dir, "conf", "run.yaml"),
      [
        "zeta_instance:",
        "  resources_servers:",
        "    example_multi_step: {entrypoint: app.py}",
        "alpha_runner:",
        "  responses_api_agents:",
        "    simple_agent:",
        "      resources_server: {type: resources_servers, name: zeta_instance}",
      ].join("\n"),
    );
    const examples = join(EXAMPLES, "resources_servers", "example_multi_step", "data");
    const rollouts = nonBlank(join(examples, "example_rollouts.jsonl")).map((l) =>
      JSON.stringify({ ...JSON.parse(l), agent_ref: { name: "alpha_runner" } }),
    );
    writeFileSync(join(dir, "out", "run_a.jsonl"), `${rollouts.join("\n")}\n<PLACEHOLDER ROW>\n`);
    writeFileSync(join(dir, "out", "tasks.jsonl"), readFileSync(join(examples, "example.jsonl")));
    writeFileSync(join(dir, "notes.txt"), "hello\n");
  });

  it("routes by its config, pairs its task rows, names every line, and takes a role override", async () => {
    const { code, lines, err } = await verifyFolder(dir);
    expect(code).toBe(0);
    expect(err).toMatch(/^conf\/run\.yaml: Gym config: 1 agent, 1 resources server\.$/m);
    expect(err).toMatch(/^notes\.txt: not recognised: /m);
    expect(
      lines.slice(0, 5).every((l) => l.server_source === "config" && l.reward === l.recorded_reward),
    ).toBe(true);
    expect(lines[5]).toMatchObject({ file: "out/run_a.jsonl", line: 6, kind: "placeholder" });
    const io = memoryIo();
    expect(await verify([dir, "--role", "out/tasks.jsonl=ignore"], io)).toBe(0);
    expect(io.err()).toContain("out/tasks.jsonl: not recognised (chosen): Chosen by you.");
    expect(io.out()).toContain('"unverified":"missing_field"');
    const resolved = memoryIo();
    expect(await resolve([dir], resolved)).toBe(0);
    expect(resolved.out()).toContain('"file":"out/run_a.jsonl"');
  });

  it("refuses a --role for a file that is not in the folder, or a role that does not exist", async () => {
    const io = memoryIo();
    expect(await verify([dir, "--role", "nope.jsonl=inputs"], io)).toBe(2);
    expect(io.err()).toContain("--role names nope.jsonl, which is not a file in");
    expect(await verify([dir, "--role", "notes.txt=weird"], memoryIo())).toBe(2);
  });
});

describe("task rows inside a folder's rollouts file", () => {
  let dir: string;
  beforeAll(() => {
    // Gym's example_multi_step with its task rows appended to the rollouts file and no task-row file.
    dir = mkdtempSync(join(tmpdir(), "own-task-rows-"));
    mkdirSync(join(dir, "configs"));
    mkdirSync(join(dir, "data"));
    const example = join(EXAMPLES, "resources_servers", "example_multi_step");
    writeFileSync(
      join(dir, "configs", "example_multi_step.yaml"),
      readFileSync(join(example, "configs", "example_multi_step.yaml")),
    );
    const rollouts = nonBlank(join(example, "data", "example_rollouts.jsonl"));
    const tasks = nonBlank(join(example, "data", "example.jsonl"));
    writeFileSync(join(dir, "data", "run.jsonl"), `${[...rollouts, ...tasks].join("\n")}\n`);
  });

  it("are offered for pairing: every rollout pairs with its row there and reproduces its recorded reward", async () => {
    const { code, lines } = await verifyFolder(dir);
    expect(code).toBe(0);
    expect(lines.slice(0, 5).map((l) => [l.paired_by, l.reward === l.recorded_reward])).toEqual(
      Array(5).fill(["input", true]),
    );
    expect(lines.slice(5).map((l) => l.kind)).toEqual(Array(5).fill("task_row"));
  });

  it("are named by the rollouts file and line when nothing pairs (export reads them alike)", async () => {
    const io = memoryIo();
    // Drop the first rollout's input: it pairs no row, and the closest is one of the file's own task rows.
    const first = JSON.parse(nonBlank(join(dir, "data", "run.jsonl"))[0] ?? "{}");
    first.responses_create_params.input = [
      ...first.responses_create_params.input,
      { role: "user", content: "x" },
    ];
    const other = mkdtempSync(join(tmpdir(), "own-task-rows-unpaired-"));
    mkdirSync(join(other, "data"));
    const lines = nonBlank(join(dir, "data", "run.jsonl"));
    writeFileSync(
      join(other, "data", "run.jsonl"),
      `${[JSON.stringify(first), ...lines.slice(1)].join("\n")}\n`,
    );
    expect(await verify([other], io)).toBe(0);
    expect(io.out()).toMatch(/The closest is data\/run\.jsonl line (6|7|8|9|10): /);
    const exported = memoryIo();
    expect(await exportRun([dir, "--what", "report"], exported)).toBe(0);
    const rewards = exported
      .out()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l).contract?.reward ?? null);
    expect(rewards.slice(0, 5)).toEqual(Array(5).fill(1));
  });
});

describe("a folder's hidden entries", () => {
  it("are never read, and named once each on stderr (a hidden folder with a slash)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hidden-"));
    const rollouts = readFileSync(
      join(GYM_EXAMPLES, "resources_servers/example_multi_step/data/example_rollouts.jsonl"),
    );
    mkdirSync(join(dir, ".hydra"));
    writeFileSync(join(dir, ".hydra", "rollouts.jsonl"), rollouts);
    writeFileSync(join(dir, ".hidden_file"), "x");
    writeFileSync(join(dir, "run.jsonl"), rollouts);
    const io = memoryIo();
    expect(await verify([dir], io)).toBe(0);
    expect(io.err()).toContain(`${dir}: left out as hidden: .hidden_file, .hydra/\n`);
    // Only run.jsonl's rollouts are verified.
    const files = new Set(
      io
        .out()
        .trim()
        .split("\n")
        .map((line) => z.object({ file: z.string() }).loose().parse(JSON.parse(line)).file),
    );
    expect([...files]).toEqual(["run.jsonl"]);
  });
});
