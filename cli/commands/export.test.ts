import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GOLDEN_DIR, golden } from "../../lib/compare/test-helpers";
import { memoryIo } from "../io";
import { parseExportArgs, run } from "./export";
import { run as runVerify } from "./verify";

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
    expect(code).toBe(0);
    const expected = golden("noecho");
    // The same tally as `cli verify` prints: a rollout without a recomputed reward is never "verified".
    const unverified = expected.filter((g) => g.expected.contract.reward === null).length;
    expect(unverified).toBeGreaterThan(0);
    const verifyIo = memoryIo();
    await runVerify(
      [join(GOLDEN_DIR, "wa_noecho.jsonl"), "--inputs", join(GOLDEN_DIR, "wa_inputs.jsonl")],
      verifyIo,
    );
    const tally = io.err().trimEnd().split("\n").at(-1);
    expect(tally).toBe(verifyIo.err().trimEnd().split("\n").at(-1));
    expect(tally).toMatch(
      new RegExp(`^verify \\(contract\\): ${expected.length} rollouts; .*, ${unverified} unverified`),
    );
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

const EXAMPLES = join(import.meta.dirname, "../../fixtures/gym-examples/resources_servers");

/** What `verify DIR` says of each line: its kind, or its server and outcome. */
async function verifyAnswers(dir: string): Promise<string[]> {
  const io = memoryIo();
  expect(await runVerify([dir], io)).toBe(0);
  return jsonLines(io.out()).map((value) => {
    const r = VerifyAnswer.parse(value);
    return r.kind !== undefined
      ? `${r.file}:${r.line} ${r.kind} ${r.error}`
      : `${r.file}:${r.line} ${r.server} ${r.server_source} ${r.paired_by} ${r.reward} ${r.unverified ?? "-"} ${r.error}`;
  });
}

const VerifyAnswer = z.looseObject({
  file: z.string(),
  line: z.number(),
  kind: z.string().optional(),
  error: z.string().nullable().optional(),
  server: z.string().nullable().optional(),
  server_source: z.string().optional(),
  paired_by: z.string().optional(),
  reward: z.number().nullable().optional(),
  unverified: z.string().optional(),
});

const FolderReportRow = z.looseObject({
  file: z.string(),
  line: z.number(),
  kind: z.string().optional(),
  error: z.string().optional(),
  read_as: z.string().optional(),
  server: z.string().nullable().optional(),
  server_source: z.string().optional(),
  contract: z
    .looseObject({
      reward: z.number().nullable(),
      unverified: z.string().optional(),
      error: z.string().optional(),
    })
    .optional(),
});

/** `export DIR --what report`, one row per line in verify's shape (report rows carry no paired_by). */
async function reportAnswers(
  dir: string,
): Promise<{ rows: z.infer<typeof FolderReportRow>[]; said: string[] }> {
  const io = memoryIo();
  expect(await run([dir, "--what", "report"], io)).toBe(0);
  const rows = jsonLines(io.out()).map((value) => FolderReportRow.parse(value));
  return {
    rows,
    said: rows.map((r) =>
      r.kind !== undefined
        ? `${r.file}:${r.line} ${r.kind} ${r.error}`
        : `${r.file}:${r.line} ${r.server} ${r.server_source} ${r.contract?.reward ?? null} ${r.contract?.unverified ?? "-"} ${r.contract?.error ?? null}`,
    ),
  };
}

/** verify's answers without paired_by (a report row does not carry it). */
const withoutPairedBy = (lines: string[]) =>
  lines.map((l) => l.replace(/^(\S+ \S+ \S+) (?:index|input|none) /, "$1 "));

describe("cli export DIR reads each line as verify DIR does", () => {
  it.each(["aviary", "tavily_search", "example_multi_step", "workplace_assistant"])(
    "%s: aviary's transitions read, per-line kinds named, the same answers",
    async (name) => {
      const dir = join(EXAMPLES, name);
      const { rows, said } = await reportAnswers(dir);
      expect(said).toEqual(withoutPairedBy(await verifyAnswers(dir)));
      if (name === "aviary") {
        // Every aviary line is read through its last transition and routed to aviary by the folder's config.
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) {
          expect(row.read_as).toMatch(/^Read as Gym's aviary agent writes it/);
          expect(row).toMatchObject({ server: "aviary", server_source: "config" });
        }
      }
      if (name === "tavily_search") expect(rows.map((r) => r.kind)).toContain("placeholder");
    },
  );

  it("--what verify of a folder is one valid JSONL: a file that ends without a line break is not glued to the next", async () => {
    // Gym's gpqa_diamond rollouts end without a line break; xlam_fc's come after them in the output.
    const dir = await mkdtemp(join(tmpdir(), "export-join-"));
    for (const name of ["gpqa_diamond", "xlam_fc"]) {
      await mkdir(join(dir, name), { recursive: true });
      await cp(join(EXAMPLES, name), join(dir, name), { recursive: true });
    }
    const gpqa = await readFile(join(dir, "gpqa_diamond/data/example_rollouts.jsonl"), "utf8");
    expect(gpqa.endsWith("\n")).toBe(false);
    const io = memoryIo();
    expect(await run([dir, "--what", "verify"], io)).toBe(0);
    const lines = io
      .out()
      .split("\n")
      .filter((line) => line !== "");
    const inputs = await Promise.all(
      ["gpqa_diamond", "xlam_fc"].map((name) =>
        readFile(join(dir, name, "data/example_rollouts.jsonl"), "utf8"),
      ),
    );
    const count = inputs.reduce((n, text) => n + text.split("\n").filter((line) => line !== "").length, 0);
    expect(lines).toHaveLength(count);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    // Lines without a reward are named by their file, as `verify DIR` names them.
    expect(io.err()).toMatch(/^xlam_fc\/data\/example_rollouts\.jsonl line 1: /m);
  });

  it("--what verify records aviary's reading and names each line that is not a rollout by its kind", async () => {
    const aviary = memoryIo();
    expect(await run([join(EXAMPLES, "aviary"), "--what", "verify"], aviary)).toBe(0);
    const records = jsonLines(aviary.out()).map((value) =>
      z.looseObject({ rollout_inspector_verify: z.looseObject({ read_as: z.string() }) }).parse(value),
    );
    expect(records.length).toBeGreaterThan(0);
    const tavily = memoryIo();
    expect(await run([join(EXAMPLES, "tavily_search"), "--what", "verify"], tavily)).toBe(0);
    expect(tavily.err()).toMatch(/line \d+: A placeholder row \(<[^>]+>\)/);
    expect(tavily.err()).not.toContain("invalid JSON");
  });
});
