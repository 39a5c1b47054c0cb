import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { memoryIo } from "../io";
import { damagedFolder, recordPlaces } from "../test-helpers";
import { parseArgs, run } from "./resolve";

const ROOT = join(import.meta.dirname, "../..");
const GOLDEN = join(ROOT, "fixtures/golden");
const GYM = join(ROOT, "fixtures/nemo-gym/resources_servers");
/** The only flags the golden files compute (their README). */
const GOLDEN_FLAGS = new Set(["server_near_miss", "unknown_tool"]);

const TMP = mkdtempSync(join(tmpdir(), "resolve-test-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function jsonLines(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** Tool names offered to the model in a Gym example file (responses_create_params.tools[].name). */
const ExampleRow = z.object({
  responses_create_params: z.object({ tools: z.array(z.object({ name: z.string() })) }),
});

function exampleTools(server: string): string {
  const names = new Set<string>();
  for (const row of jsonLines(join(GYM, server, "data/example.jsonl"))) {
    for (const tool of ExampleRow.parse(row).responses_create_params.tools) names.add(tool.name);
  }
  return [...names].join(",");
}

const ExpectedCall = z.object({
  status: z.string(),
  verifier_name: z.string(),
  flags: z.array(z.string()).optional(),
});
const ExpectedPolicy = z.object({ calls: z.array(ExpectedCall) });
const ExpectedRow = z.object({ contract: ExpectedPolicy, legacy: ExpectedPolicy });

const OutputRecord = z.strictObject({
  file: z.string().optional(),
  line: z.number(),
  kind: z.string().optional(),
  index: z.number().optional(),
  call_id: z.string().nullable().optional(),
  emitted: z.string().optional(),
  status: z.string().optional(),
  verifier_name: z.string().optional(),
  flags: z.array(z.string()).optional(),
  highlight: z.string().optional(),
  error: z.string().optional(),
});
type OutputRecord = z.infer<typeof OutputRecord>;

async function resolveFile(args: string[]): Promise<{ code: number; records: OutputRecord[]; err: string }> {
  const io = memoryIo();
  const code = await run(args, io);
  const records = io
    .out()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => OutputRecord.parse(JSON.parse(l)));
  return { code, records, err: io.err() };
}

const CASES = [
  {
    label: "workplace rollouts (environment_name echoed)",
    rollouts: "workplace-rollouts/wa_rollouts.jsonl",
    expected: "workplace-rollouts/wa_expected.jsonl",
    server: [],
    tools: () => exampleTools("workplace_assistant"),
    checkFlags: true,
  },
  {
    label: "workplace rollouts without task fields",
    rollouts: "workplace-rollouts/wa_noecho.jsonl",
    expected: "workplace-rollouts/wa_noecho_expected.jsonl",
    server: ["--server", "workplace_assistant"],
    tools: () => exampleTools("workplace_assistant"),
    checkFlags: true,
  },
  {
    label: "indirect_prompt_injection rollouts",
    rollouts: "ipi-rollouts/ipi_rollouts.jsonl",
    expected: "ipi-rollouts/ipi_expected.jsonl",
    server: ["--server", "indirect_prompt_injection"],
    tools: () => exampleTools("indirect_prompt_injection"),
    checkFlags: false,
  },
];

describe("resolve reproduces the golden expectations", () => {
  for (const c of CASES) {
    for (const policy of ["contract", "legacy"] as const) {
      it(`${c.label}, policy ${policy}`, async () => {
        const expected = jsonLines(join(GOLDEN, c.expected)).map((row) => ExpectedRow.parse(row));
        const { code, records, err } = await resolveFile([
          join(GOLDEN, c.rollouts),
          ...c.server,
          "--policy",
          policy,
          "--tools",
          c.tools(),
        ]);
        expect(err).toBe("");
        expect(code).toBe(0);
        expect(records.filter((r) => r.error !== undefined)).toEqual([]);
        let compared = 0;
        expected.forEach((row, i) => {
          const line = i + 1;
          const got = records.filter((r) => r.line === line);
          const want = row[policy].calls;
          expect(
            got.map((r) => [r.index, r.status, r.verifier_name]),
            `line ${line}`,
          ).toEqual(want.map((w, index) => [index, w.status, w.verifier_name]));
          if (c.checkFlags) {
            expect(
              got.map((r) => (r.flags ?? []).filter((f) => GOLDEN_FLAGS.has(f))),
              `line ${line} flags`,
            ).toEqual(want.map((w) => w.flags));
          }
          compared += want.length;
        });
        expect(records).toHaveLength(compared);
        expect(compared).toBeGreaterThan(20);
      });
    }
  }

  it("the flag comparison is live: golden near misses occur, and a short tool list raises unknown_tool", async () => {
    const expected = jsonLines(join(GOLDEN, "workplace-rollouts/wa_expected.jsonl")).map((row) =>
      ExpectedRow.parse(row),
    );
    const flags = new Set(expected.flatMap((row) => row.contract.calls.flatMap((call) => call.flags ?? [])));
    expect(flags.has("server_near_miss")).toBe(true);
    const { records } = await resolveFile([
      join(GOLDEN, "workplace-rollouts/wa_rollouts.jsonl"),
      "--tools",
      "email_reply_email",
    ]);
    const unknown = records.filter((r) => r.flags?.includes("unknown_tool"));
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.every((r) => r.status === "canonical" || r.status === "legacy")).toBe(true);
  });
});

describe("resolve without --tools", () => {
  it("takes the verifying server's tools from the verifier registry", async () => {
    const { records } = await resolveFile([
      join(GOLDEN, "workplace-rollouts/wa_rollouts.jsonl"),
      "--policy",
      "legacy",
    ]);
    const withTools = await resolveFile([
      join(GOLDEN, "workplace-rollouts/wa_rollouts.jsonl"),
      "--policy",
      "legacy",
      "--tools",
      exampleTools("workplace_assistant"),
    ]);
    expect(records).toEqual(withTools.records);
    // Hermes-legacy names are bare under policy legacy; with known tools they are alias guesses.
    expect(records.some((r) => r.flags?.includes("alias_guess"))).toBe(true);
  });

  it("computes no tool-dependent flags for a server without a verifier", async () => {
    const file = join(TMP, "unknown-server.jsonl");
    const call = { type: "function_call", name: "mcp__no_such_server__x", call_id: "c", arguments: "{}" };
    writeFileSync(
      file,
      `${JSON.stringify({ environment_name: "no_such_server", response: { output: [call] } })}\n`,
    );
    const without = await resolveFile([file]);
    expect(without.records.map((r) => [r.status, r.flags])).toEqual([["legacy", []]]);
    const withTools = await resolveFile([file, "--tools", "y"]);
    expect(withTools.records.map((r) => [r.status, r.flags])).toEqual([["legacy", ["unknown_tool"]]]);
  });
});

describe("resolve output", () => {
  it("prints every call in file order with line, index, call_id and emitted name", async () => {
    const { records } = await resolveFile([join(GOLDEN, "workplace-rollouts/wa_rollouts.jsonl")]);
    const lines = records.map((r) => r.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    const first = records[0];
    expect(Object.keys(first ?? {})).toEqual([
      "line",
      "index",
      "call_id",
      "emitted",
      "status",
      "verifier_name",
      "flags",
      "highlight",
    ]);
  });

  it("reports unreadable lines with their line number and keeps going", async () => {
    const file = join(TMP, "mixed.jsonl");
    const good = {
      environment_name: "s",
      response: { output: [{ type: "function_call", name: "mcp__s__t", call_id: "c", arguments: "{}" }] },
    };
    const lines = [
      JSON.stringify(good),
      "{not json",
      JSON.stringify({ response: {} }),
      "",
      JSON.stringify({ response: { output: [{ type: "function_call", name: "x", call_id: "c" }] } }),
      JSON.stringify({ ...good, environment_name: "other" }),
    ];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { code, records } = await resolveFile([file]);
    expect(code).toBe(0);
    expect(records.map((r) => [r.line, r.error === undefined ? r.status : "error"])).toEqual([
      [1, "legacy"],
      [2, "error"],
      [3, "error"],
      [5, "error"],
      [6, "bare"],
    ]);
    expect(records[1]?.error).toMatch(/invalid JSON/);
    expect(records[2]?.error).toMatch(/^not a rollout: response\.output: /);
    expect(records[3]?.error).toMatch(/environment_name.*--server/);
    const withServer = await resolveFile([file, "--server", "s", "--tools", "u"]);
    expect(
      withServer.records.filter((r) => r.error === undefined).map((r) => [r.line, r.status, r.flags]),
    ).toEqual([
      [1, "legacy", ["unknown_tool"]],
      [5, "bare", []],
      [6, "legacy", ["unknown_tool"]],
    ]);
  });

  it("a missing file exits 2 with one line", async () => {
    const { code, err, records } = await resolveFile(["/nonexistent/file.jsonl"]);
    expect(code).toBe(2);
    expect(records).toEqual([]);
    expect(err).toBe("error: cannot read /nonexistent/file.jsonl: no such file\n");
  });

  it("--help documents the command and exits 0", async () => {
    const io = memoryIo();
    expect(await run(["--help"], io)).toBe(0);
    for (const word of ["--server", "--policy", "--harness", "--tools", "environment_name", "exit status"]) {
      expect(io.out()).toContain(word);
    }
  });
});

describe("resolve arguments", () => {
  it.each([
    [[], "missing FILE"],
    [["a", "b"], "expected one FILE"],
    [["a", "--policy", "strict"], "--policy must be contract or legacy"],
    [["a", "--harness", "cursor"], "--harness must be one of"],
    [["a", "--tools", ","], "--tools needs at least one tool name"],
    [["a", "--server"], "--server needs a value"],
    [["a", "--server", ""], "--server must not be empty"],
    [["a", "--verbose"], "unknown option --verbose"],
    [["a", "--server", "x", "--server=y"], "--server given twice"],
  ])("%j is unusable: %s", async (argv, message) => {
    expect(parseArgs(argv)).toEqual({ ok: false, error: expect.stringContaining(message) });
    const io = memoryIo();
    expect(await run(argv, io)).toBe(2);
    expect(io.err()).toMatch(/^error: resolve: .+\n$/);
    expect(io.out()).toBe("");
  });

  it("accepts --name=value and --name value", () => {
    expect(
      parseArgs(["f", "--server=s", "--policy", "legacy", "--harness=openclaw", "--tools", " a, b ,"]),
    ).toEqual({
      ok: true,
      args: { file: "f", roles: [], server: "s", policy: "legacy", harness: "openclaw", tools: ["a", "b"] },
    });
  });
});

describe("resolve on a folder with a damaged gzip", () => {
  it("prints its calls before the damage, reads the folder's other files, and exits 1", async () => {
    const lines = readFileSync(join(GOLDEN, "workplace-rollouts/wa_rollouts.jsonl"), "utf8")
      .trim()
      .split("\n");
    const dir = damagedFolder(lines, 2);
    const io = memoryIo();
    expect(await run([dir, "--server", "workplace_assistant"], io)).toBe(1);
    const files = recordPlaces(io.out()).map((place) => place.file);
    expect(files).toContain("a.jsonl.gz");
    expect(files).toContain("b.jsonl");
    expect(io.err()).toMatch(/^error: reading \S+a\.jsonl\.gz stopped: damaged gzip data at byte \d+/m);
  });
});
