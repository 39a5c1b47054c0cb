import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GOLDEN_DIR, golden } from "../../lib/compare/test-helpers";
import { memoryIo } from "../io";
import { parseExportArgs, run } from "./export";

const Verified = z.looseObject({
  rollout_inspector_verify: z.looseObject({ reward: z.number().nullable(), policy: z.string() }),
});
const ReportRow = z.looseObject({
  line: z.number(),
  contract: z.looseObject({ reward: z.number().nullable() }),
  legacy: z.looseObject({ reward: z.number().nullable() }),
});

function jsonLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l): unknown => JSON.parse(l));
}

describe("cli export", () => {
  it("--what verify pairs no-echo rollouts with --inputs and recomputes the golden rewards", async () => {
    const io = memoryIo();
    const code = await run(
      [
        join(GOLDEN_DIR, "wa_noecho.jsonl"),
        "--what",
        "verify",
        "--inputs",
        join(GOLDEN_DIR, "wa_inputs.jsonl"),
      ],
      io,
    );
    expect(io.err()).toMatch(/^verify \(contract\): \d+ rollouts verified/);
    expect(code).toBe(0);
    const expected = golden("noecho");
    const out = jsonLines(io.out()).map((v) => Verified.parse(v));
    expect(out.map((o) => o.rollout_inspector_verify.reward)).toEqual(
      expected.map((g) => g.expected.contract.reward),
    );
    // Lossless: each input line is the start of its output line.
    const input = (await readFile(join(GOLDEN_DIR, "wa_noecho.jsonl"), "utf8")).split("\n");
    io.out()
      .split("\n")
      .forEach((line, i) => {
        if (line !== "") expect(line.startsWith(input[i]!.slice(0, -1))).toBe(true);
      });
  });

  it("--what verify --policy legacy --set-reward writes to --out", async () => {
    const dir = await mkdtemp(join(tmpdir(), "export-"));
    const out = join(dir, "verified.jsonl");
    const io = memoryIo();
    const file = join(GOLDEN_DIR, "wa_rollouts.jsonl");
    expect(
      await run([file, "--what", "verify", "--policy", "legacy", "--set-reward", "--out", out], io),
    ).toBe(0);
    expect(io.out()).toBe("");
    const rows = jsonLines(await readFile(out, "utf8")).map((v) =>
      z
        .looseObject({
          reward: z.number(),
          rollout_inspector_verify: z.looseObject({ policy: z.literal("legacy") }),
        })
        .parse(v),
    );
    // Unverified lines (Gym refuses the request) keep their recorded reward.
    expect(rows.map((r) => r.reward)).toEqual(
      golden().map((g) => g.expected.legacy.reward ?? g.rollout.reward),
    );
  });

  it("--what report gives both policies per line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "export-"));
    const path = join(dir, "in.jsonl");
    const lines = (await readFile(join(GOLDEN_DIR, "wa_rollouts.jsonl"), "utf8")).split("\n").slice(0, 3);
    await writeFile(path, `${lines.join("\n")}\nbad line`);
    const io = memoryIo();
    expect(await run([path, "--what", "report"], io)).toBe(0);
    const rows = jsonLines(io.out());
    expect(rows).toHaveLength(4);
    const g = golden().slice(0, 3);
    rows.slice(0, 3).forEach((r, i) => {
      const row = ReportRow.parse(r);
      expect([row.contract.reward, row.legacy.reward]).toEqual([
        g[i]?.expected.contract.reward,
        g[i]?.expected.legacy.reward,
      ]);
    });
    expect(rows[3]).toMatchObject({ line: 4, error: expect.stringMatching(/^invalid JSON/) });
  });

  it("validates its flags", async () => {
    expect(parseExportArgs(["f"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/missing --what/),
    });
    expect(parseExportArgs(["f", "--what", "x"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/unknown --what 'x'/),
    });
    expect(parseExportArgs(["f", "--what", "verify", "--policy", "p"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/--policy must be contract or legacy, not "p"/),
    });
    expect(parseExportArgs(["f", "--what", "report", "--set-reward"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/--set-reward only applies/),
    });
    expect(parseExportArgs(["f", "--what", "verify", "--server", "s", "--inputs", "m"])).toEqual({
      ok: true,
      help: false,
      file: "f",
      roles: [],
      what: "verify",
      policy: "contract",
      setReward: false,
      server: "s",
      inputs: "m",
    });
    const io = memoryIo();
    expect(await run(["--help"], io)).toBe(0);
    expect(io.out()).toContain("--what verify");
    const bad = memoryIo();
    expect(await run(["f", "--bogus"], bad)).toBe(2);
    expect(bad.err()).toMatch(/^error: Unknown option '--bogus'/);
    const missing = memoryIo();
    expect(await run(["/no/such.jsonl", "--what", "report"], missing)).toBe(2);
    expect(missing.err()).toMatch(/cannot read \/no\/such.jsonl/);
  });
});
