import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { asHarness, golden } from "../../lib/compare/test-helpers";
import { memoryIo } from "../io";
import { run as runExport } from "./export";
import { parseRepairArgs, run } from "./repair";

const GOLDEN = "fixtures/golden/workplace-rollouts";
const S = "workplace_assistant";

async function goldenLines(): Promise<{ scheme: string; text: string }[]> {
  const rollouts = (await readFile(join(GOLDEN, "wa_rollouts.jsonl"), "utf8"))
    .split("\n")
    .filter((l) => l !== "");
  const expected = (await readFile(join(GOLDEN, "wa_expected.jsonl"), "utf8"))
    .split("\n")
    .filter((l) => l !== "");
  return rollouts.map((text, i) => {
    const scheme: unknown = JSON.parse(expected[i] ?? "{}").scheme;
    return { scheme: typeof scheme === "string" ? scheme : "", text };
  });
}

const ToolsLine = z.object({
  responses_create_params: z.object({ tools: z.array(z.object({ name: z.string() })) }),
});

function toolsOf(line: string): string[] {
  return ToolsLine.parse(JSON.parse(line)).responses_create_params.tools.map((t) => t.name);
}

function keysOf(value: unknown): string[] {
  return typeof value === "object" && value !== null ? Object.keys(value) : [];
}

describe("cli repair", () => {
  it("writes repaired JSONL losslessly and a summary on stderr", async () => {
    const golden = await goldenLines();
    const hermes = golden.filter((g) => g.scheme === "hermes_noprov");
    const claudeProv = golden.find((g) => g.scheme === "claude_prov");
    expect(hermes.length).toBeGreaterThan(0);
    expect(claudeProv).toBeDefined();
    const tools = toolsOf(hermes[0]!.text);
    // CRLF endings, a bad line and no final newline must come back as they were.
    const file = [
      hermes[0]!.text,
      "not json at all",
      claudeProv!.text,
      ...hermes.slice(1).map((h) => h.text),
    ].join("\r\n");
    const dir = await mkdtemp(join(tmpdir(), "repair-"));
    const path = join(dir, "in.jsonl");
    await writeFile(path, file);

    const io = memoryIo();
    const code = await run(
      [path, "--harness", "hermes-legacy", "--server", S, "--tools", tools.join(",")],
      io,
    );
    expect(io.err()).not.toMatch(/^error/);
    expect(code).toBe(0);
    const out = io.out();
    const inLines = file.split("\r\n");
    const outLines = out.split("\r\n");
    expect(outLines).toHaveLength(inLines.length);
    expect(outLines[1]).toBe("not json at all");
    expect(outLines[2]).toBe(claudeProv!.text);
    inLines.forEach((line, i) => {
      if (i === 1 || i === 2) return;
      const before: unknown = JSON.parse(line);
      const after: unknown = JSON.parse(outLines[i]!);
      const hasCalls = JSON.stringify(before).includes('"function_call"');
      if (!hasCalls) {
        expect(outLines[i]).toBe(line);
        return;
      }
      // Only the two owned keys are added, after the original text.
      expect(outLines[i]!.startsWith(line.slice(0, -1))).toBe(true);
      expect(keysOf(after)).toEqual([
        ...keysOf(before),
        "mcp_tool_call_provenance",
        "mcp_tool_call_provenance_derived",
      ]);
    });
    const withCalls = hermes.filter((h) => h.text.includes('"function_call"')).length;
    expect(io.err()).toMatch(
      new RegExp(`^repair \\(hermes-legacy\\): ${withCalls} of ${hermes.length + 1} rollouts repaired`),
    );
    expect(io.err()).toContain("1 skipped: they already have a provenance map.");
    expect(io.err()).toContain("line 2: invalid JSON");
  });

  it("writes to --out as raw bytes and refuses to overwrite the input", async () => {
    const dir = await mkdtemp(join(tmpdir(), "repair-"));
    const path = join(dir, "in.jsonl");
    const bytes = Buffer.concat([
      Buffer.from('{"x": "'),
      Buffer.from([0xff]),
      Buffer.from(
        '"}\n{"response": {"output": [{"type": "function_call", "name": "mcp_s_t", "call_id": "c", "arguments": "{}"}]}, "reward": 1.0}\n',
      ),
    ]);
    await writeFile(path, bytes);
    const out = join(dir, "out.jsonl");
    const io = memoryIo();
    expect(
      await run([path, "--harness", "hermes-legacy", "--server", "s", "--tools", "t", "--out", out], io),
    ).toBe(0);
    const written = await readFile(out);
    expect(written.subarray(0, 10)).toEqual(bytes.subarray(0, 10));
    expect(written.toString("utf8").split("\n")[1]).toBe(
      '{"response": {"output": [{"type": "function_call", "name": "mcp_s_t", "call_id": "c", "arguments": "{}"}]}, "reward": 1.0, "mcp_tool_call_provenance": {"c": {"server_name": "s", "tool_name": "t"}}, "mcp_tool_call_provenance_derived": {"derived_by": "rollout-inspector repair (exact alias map)", "harness": "hermes-legacy", "servers": [{"name": "s", "tools": ["t"]}], "derived_call_ids": ["c"], "unresolved": []}}',
    );
    const again = memoryIo();
    expect(
      await run([path, "--harness", "hermes-legacy", "--server", "s", "--tools", "t", "--out", path], again),
    ).toBe(2);
    expect(again.err()).toContain("is the input file");
  });

  it("repairs a re-emitted Hermes run with the registry's tools; the export then scores it like HTTP", async () => {
    const bare = golden().filter((g) => g.expected.scheme === "bare");
    const dir = await mkdtemp(join(tmpdir(), "repair-"));
    const path = join(dir, "hermes.jsonl");
    const repaired = join(dir, "repaired.jsonl");
    await writeFile(
      path,
      `${bare.map((g) => JSON.stringify(asHarness(g.rollout, "hermes-legacy", false))).join("\n")}\n`,
    );
    const io = memoryIo();
    expect(await run([path, "--harness", "hermes-legacy", "--server", S, "--out", repaired], io)).toBe(0);
    expect(io.err()).not.toContain("calls left out");
    expect(io.err()).not.toContain("try --harness");
    // Under Claude Code's aliases nothing matches, and the summary names the harness the names are of.
    const wrong = memoryIo();
    expect(
      await run([path, "--harness", "claude-code", "--server", S, "--out", join(dir, "w.jsonl")], wrong),
    ).toBe(0);
    expect(wrong.err()).toContain(
      "the names left out look like hermes-legacy aliases of these tools (inferred from the names): try --harness hermes-legacy.",
    );
    const verified = memoryIo();
    expect(await runExport([repaired, "--what", "verify"], verified)).toBe(0);
    const rewards = verified
      .out()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) =>
        z.object({ rollout_inspector_verify: z.looseObject({ reward: z.number() }) }).parse(JSON.parse(l)),
      );
    expect(rewards.map((r) => r.rollout_inspector_verify.reward)).toEqual(
      bare.map((g) => g.expected.contract.reward),
    );
  });

  it("parses repeated servers with their own tools and rejects bad flags", () => {
    expect(
      parseRepairArgs([
        "f",
        "--harness",
        "claude-code",
        "--server",
        "a",
        "--tools",
        "x,y",
        "--server",
        "b",
        "--tools",
        "z",
      ]),
    ).toEqual({
      ok: true,
      help: false,
      file: "f",
      harness: "claude-code",
      servers: [
        { name: "a", tools: ["x", "y"] },
        { name: "b", tools: ["z"] },
      ],
    });
    expect(parseRepairArgs(["f", "--harness", "nope", "--server", "a"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/unknown harness 'nope'/),
    });
    expect(parseRepairArgs(["f", "--harness", "claude-code"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/missing --server/),
    });
    expect(parseRepairArgs(["f", "--harness", "claude-code", "--tools", "x"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/--tools must follow/),
    });
    expect(parseRepairArgs(["f", "--harness", "claude-code", "--server", "no_such_server"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no known tools for server 'no_such_server'/),
    });
    expect(parseRepairArgs(["--help"])).toEqual({ ok: true, help: true });
  });

  it("prints help and a usage error", async () => {
    const io = memoryIo();
    expect(await run(["--help"], io)).toBe(0);
    expect(io.out()).toContain("--harness H");
    const bad = memoryIo();
    expect(await run([], bad)).toBe(2);
    expect(bad.err()).toMatch(/^error: missing FILE/);
    const missing = memoryIo();
    expect(
      await run(
        ["/no/such/file.jsonl", "--harness", "claude-code", "--server", "s", "--tools", "t"],
        missing,
      ),
    ).toBe(2);
    expect(missing.err()).toMatch(/cannot read \/no\/such\/file.jsonl/);
  });
});
