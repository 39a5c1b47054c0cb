import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { rowsCsv, rowsJsonl } from "../../lib/export/csv";
import { matchesFilter, parseFilter, runRow, withTaskWide } from "../../lib/run";
import { asRollout } from "../../lib/schemas/test-helpers";
import { ZERO_CAUSES } from "../../lib/triage";
import { buildTriageRun, TRIAGE_RUN_PATH } from "../../scripts/gen-triage-run";
import { memoryIo } from "../io";
import { damagedFolder, recordPlaces } from "../test-helpers";
import { parseTriageArgs, run } from "./triage";

const FILE = join(import.meta.dirname, "..", "..", TRIAGE_RUN_PATH);
const SERVERS = join(import.meta.dirname, "../../fixtures/gym-examples/resources_servers");
const generated = buildTriageRun();

describe("cli triage", () => {
  it("summary: count and share per cause equal the generator's mix", async () => {
    const io = memoryIo();
    expect(await run([FILE], io)).toBe(0);
    const out = io.out();
    const total = generated.intents.length;
    // The run view's headline (lib/run zeroShareText): the run's own zeros, the recorded reward's; the line
    // that is not a rollout is named, not counted.
    const recordedZero = generated.intents.filter((i) => i.recorded === 0);
    const zero = recordedZero.length;
    expect(out).toContain(
      `${zero} of ${total} rollouts recorded 0 (${((100 * zero) / total).toFixed(1)}%) · 1 unreadable line, not counted`,
    );
    expect(generated.unreadable).toHaveLength(1);
    expect(io.err()).toContain(`line ${generated.unreadable[0]?.line}: not a rollout: response.output:`);
    for (const cause of ZERO_CAUSES) {
      // Drift is counted over every rollout: a recorded 1 recomputed 0 has no recorded zero, and drifts.
      const n = (cause === "drift" ? generated.intents : recordedZero).filter(
        (i) => i.cause === cause,
      ).length;
      expect(out).toMatch(new RegExp(`^  ${cause} +${n}  +${((100 * n) / total).toFixed(1)}%`, "m"));
    }
    expect(generated.intents.filter((i) => i.cause === "drift" && i.recorded !== 0).length).toBeGreaterThan(
      0,
    );
    // Drift is counted apart, under its own heading, after the other causes.
    expect(out.indexOf("counted apart")).toBeGreaterThan(out.indexOf("  wrong_end_state"));
    expect(out.indexOf("  drift")).toBeGreaterThan(out.indexOf("counted apart"));
    // Which policy reproduces the recorded reward is a finding of its own.
    const legacyOnly = generated.intents.filter((i) => i.scenario === "identity_contract").length;
    expect(out).toMatch(new RegExp(`legacy only ${legacyOnly}, neither \\d+`));
  });

  it("says how many zeros a provenance map rescues: the MCP run without a map, where the HTTP run scored", async () => {
    const samples = join(import.meta.dirname, "../../public/samples");
    const read = async (name: string) =>
      (await readFile(join(samples, name), "utf8"))
        .trim()
        .split("\n")
        .map((line) => z.object({ reward: z.number() }).loose().parse(JSON.parse(line)).reward);
    // The same tasks and actions over HTTP: what the HTTP run won, the MCP run lost to its aliases only.
    const won = (await read("compare-http.jsonl")).filter((reward) => reward > 0).length;
    const zeros = (await read("compare-mcp-hermes-noprov.jsonl")).filter((reward) => reward <= 0).length;
    expect(won).toBeGreaterThan(0);
    const io = memoryIo();
    expect(await run([join(samples, "compare-mcp-hermes-noprov.jsonl")], io)).toBe(0);
    expect(io.out()).toContain(
      `\n${won} of the ${zeros} zeros (counted as "Call rejected or no such tool") score above 0 with a provenance map for their calls (harness what-if, hermes-legacy): `,
    );
    expect(io.out()).toContain("(filter is:fixed_by_map)\n");
    const kept = memoryIo();
    const file = join(samples, "compare-mcp-hermes-noprov.jsonl");
    expect(await run([file, "--filter", "is:fixed_by_map", "--format", "jsonl"], kept)).toBe(0);
    const rows = kept.out().trim().split("\n");
    expect(rows).toHaveLength(won);
    // Like a cause, the clause chooses among the zeros: the breakdown under it still counts every zero.
    const summary = memoryIo();
    expect(await run([file, "--filter", "is:fixed_by_map"], summary)).toBe(0);
    expect(summary.out()).toContain(`\n${zeros} of ${zeros} rollouts recorded 0 `);
    expect(summary.out()).toContain(
      `\n${won} of the ${zeros} zeros (counted as "Call rejected or no such tool") score above 0 `,
    );
  });

  it("--reward (alias --view) counts a policy's recomputed zeros and reads pass@k in it: one setting", async () => {
    const io = memoryIo();
    expect(await run([FILE, "--reward", "contract"], io)).toBe(0);
    const alias = memoryIo();
    expect(await run([FILE, "--view", "contract"], alias)).toBe(0);
    expect(alias.out()).toBe(io.out());
    expect(io.out()).toContain("pass@k (contract, over tasks)");
    const values: unknown[] = generated.text
      .trim()
      .split("\n")
      .map((t) => JSON.parse(t));
    const rows = generated.intents.map((i) => runRow(i.line, asRollout(values[i.line - 1])));
    const zero = rows.filter((r) => r.contract === 0).length;
    expect(io.out()).toMatch(new RegExp(`^${zero} of ${rows.length} rollouts recompute to 0 under contract`));
    const bad = memoryIo();
    expect(await run([FILE, "--view", "both"], bad)).toBe(2);
    expect(bad.err()).toMatch(/--view: the reward is one of recorded, contract, legacy/);
    const both = memoryIo();
    expect(await run([FILE, "--view", "legacy", "--reward", "contract"], both)).toBe(2);
    expect(both.err()).toMatch(/another name for --reward/);
  });

  it("--format jsonl adds the decisive calls (function_call indexes) and the drift explanation", async () => {
    const io = memoryIo();
    expect(await run([FILE, "--format", "jsonl"], io)).toBe(0);
    const records = io
      .out()
      .trim()
      .split("\n")
      .map((t) => JSON.parse(t));
    const values: unknown[] = generated.text
      .trim()
      .split("\n")
      .map((t) => JSON.parse(t));
    for (const record of records) {
      expect(Array.isArray(record.decisive_calls)).toBe(true);
      expect(record).toHaveProperty("drift");
      const intent = generated.intents.find((i) => i.line === record.line);
      // Every decisive index is a function_call of the line, in response.output order.
      const line = JSON.stringify(values[record.line - 1]);
      const calls = line.split('"type":"function_call"').length - 1;
      for (const index of record.decisive_calls) expect(index).toBeLessThan(calls);
      if (intent?.scenario === "tool_failed_error") expect(record.decisive_calls).toEqual([0]);
      if (intent?.scenario === "drift_recorded_zero") {
        expect(record.cause).toBe("drift");
        expect(record.drift).toMatch(/^Recorded 0; recomputed contract 1, legacy 1\. Trust the recomputed/);
      }
      if (intent?.scenario === "pass") expect(record.drift).toBeNull();
    }
  });

  it("--format csv|jsonl with --filter writes exactly lib's rows for the matching lines", async () => {
    const filter = "recorded:0 field:agent_ref.name=http_agent";
    const values: unknown[] = generated.text
      .trim()
      .split("\n")
      .map((t) => JSON.parse(t));
    const parsed = parseFilter(filter);
    if (!parsed.ok) throw new Error(parsed.error);
    const rows = withTaskWide(generated.intents.map((i) => runRow(i.line, asRollout(values[i.line - 1]))));
    const expected = rows
      .filter((row) => matchesFilter(parsed.clauses, row, values[row.line - 1]))
      .map((row) => row);
    expect(expected.length).toBe(
      generated.intents.filter((i) => i.recorded === 0 && i.agent === "http_agent").length,
    );
    const csv = memoryIo();
    expect(await run([FILE, "--format", "csv", "--filter", filter], csv)).toBe(0);
    expect(csv.out()).toBe(rowsCsv(expected));
    const jsonl = memoryIo();
    expect(await run([FILE, "--format=jsonl", `--filter=${filter}`], jsonl)).toBe(0);
    expect(jsonl.out()).toBe(rowsJsonl(expected));
  });

  it("reads the page's clauses: agent, is and text (on the raw line), as the browser's export does", async () => {
    const lines = generated.text.split("\n");
    const filter = "agent:http_agent text:MODEL-A";
    const csv = memoryIo();
    expect(await run([FILE, "--format", "csv", "--filter", filter], csv)).toBe(0);
    const expected = generated.intents.filter(
      (i) => i.agent === "http_agent" && (lines[i.line - 1] ?? "").toLowerCase().includes("model-a"),
    );
    expect(expected.length).toBeGreaterThan(0);
    const got = csv
      .out()
      .trim()
      .split("\r\n")
      .slice(1)
      .map((row) => Number(row.split(",")[0]));
    expect(got).toEqual(expected.map((i) => i.line));
  });

  it("the summary's breakdown leaves out the cause clause, and pass@k names its reward", async () => {
    const plain = memoryIo();
    expect(await run([FILE, "--filter", "agent:http_agent", "--reward", "legacy"], plain)).toBe(0);
    const recorded = memoryIo();
    expect(await run([FILE, "--filter", "agent:http_agent"], recorded)).toBe(0);
    const io = memoryIo();
    expect(await run([FILE, "--filter", "agent:http_agent cause:identity", "--reward", "legacy"], io)).toBe(
      0,
    );
    const http = generated.intents.filter((i) => i.agent === "http_agent").length;
    const breakdown = (text: string) =>
      text.split("\n").filter((line) => !/^(mean|pass@k|policies|tokens|Breakdown of)/.test(line));
    // The same breakdown with and without the cause clause, over the http agent's rollouts only.
    expect(breakdown(io.out())).toEqual(breakdown(plain.out()));
    // Each says first what it covers, in the page's words.
    const total = generated.intents.length;
    expect(plain.out().split("\n")[0]).toBe(
      `Breakdown of ${http} of ${total} rollouts (filter: agent:http_agent)`,
    );
    expect(io.out().split("\n")[0]).toBe(
      `Breakdown of ${http} of ${total} rollouts (filter: agent:http_agent cause:identity); its cause clause is left out here, so every cause stays visible`,
    );
    expect(io.out()).toMatch(new RegExp(` of ${http} rollouts`));
    expect(io.out()).toContain("pass@k (legacy, over tasks)");
    expect(recorded.out()).toContain("pass@k (recorded, over tasks)");
    const bad = memoryIo();
    expect(await run([FILE, "--reward", "best"], bad)).toBe(2);
  });

  it("--harness AGENT=H reads that agent's rollouts only under H; other agents' rows stay as they were", async () => {
    const golden = "fixtures/golden/workplace-rollouts/wa_rollouts.jsonl";
    const rowsOf = async (args: string[]) => {
      const io = memoryIo();
      expect(await run([golden, "--format", "jsonl", ...args], io)).toBe(0);
      return io
        .out()
        .trim()
        .split("\n")
        .map((line) =>
          z
            .object({ line: z.number(), agent: z.string().nullable(), flags: z.array(z.string()) })
            .parse(JSON.parse(line)),
        );
    };
    const none = await rowsOf([]);
    const whole = await rowsOf(["--harness", "claude-code"]);
    const claude = await rowsOf(["--harness", "claude_prov_agent=claude-code"]);
    const changed = (a: typeof none, b: typeof none) =>
      a.filter((row, i) => JSON.stringify(row.flags) !== JSON.stringify(b[i]?.flags)).map((row) => row.agent);
    // The whole-file choice re-labels Hermes rows; the choice for Claude Code's agent changes its rows only.
    expect(changed(none, whole)).toContain("hermes_prov_agent");
    expect(changed(none, claude).every((agent) => agent === "claude_prov_agent")).toBe(true);
    for (const [i, row] of claude.entries())
      if (row.agent === "claude_prov_agent") expect(row.flags).toEqual(whole[i]?.flags);
    const bad = memoryIo();
    expect(await run([FILE, "--harness", "x=vim"], bad)).toBe(2);
  });

  it("where no port verifies the zeros, says what Gym's verifier recorded on them (Gym's image_tools)", async () => {
    const io = memoryIo();
    expect(await run([join(SERVERS, "image_tools")], io)).toBe(0);
    const out = io.out().split("\n");
    const at = out.indexOf(
      "What Gym's verifier wrote on the 3 zeros not verified here, beside the 2 rollouts above 0:",
    );
    expect(at).toBeGreaterThan(out.findIndex((line) => line.startsWith("  no_verifier_port ")));
    expect(out).toContain(
      '  failure_reason: "argument_below_threshold" ×2 · "tool_name_mismatch" ×1 (above 0: "none" ×2)',
    );
    expect(out).toContain("  tool_name_match: true ×2 · false ×1 (above 0: true ×2)");
    // A value chosen narrows the rows, not the counts it was chosen from (as the page's panel).
    const chosen = memoryIo();
    expect(
      await run(
        [join(SERVERS, "image_tools"), "--filter", "recorded:..0 verifier:failure_reason=tool_name_mismatch"],
        chosen,
      ),
    ).toBe(0);
    expect(chosen.out()).toContain(out[at]);
    expect(chosen.out()).toContain(
      '  failure_reason: "argument_below_threshold" ×2 · "tool_name_mismatch" ×1 (above 0: "none" ×2)',
    );
    // It lists exactly the rollouts counted with that value.
    const listed = memoryIo();
    expect(
      await run(
        [
          join(SERVERS, "image_tools"),
          "--filter",
          "recorded:..0 verifier:failure_reason=tool_name_mismatch",
          "--format",
          "jsonl",
        ],
        listed,
      ),
    ).toBe(0);
    expect(
      listed
        .out()
        .trim()
        .split("\n")
        .map((line) => z.object({ line: z.number() }).parse(JSON.parse(line)).line),
    ).toEqual([5]);
    // Another clause does narrow them: the agent's rollouts only (here, all of them); an agent with none, nothing.
    const none = memoryIo();
    expect(await run([join(SERVERS, "image_tools"), "--filter", "agent:nobody"], none)).toBe(0);
    expect(none.out()).not.toContain("What Gym's verifier wrote");
    // A policy's view has no such zeros (neither policy scored them): no such section.
    const contract = memoryIo();
    expect(await run([join(SERVERS, "image_tools"), "--reward", "contract"], contract)).toBe(0);
    expect(contract.out()).not.toContain("What Gym's verifier wrote");
    // The JSONL rows carry each line's fields; a row verified here carries none.
    const rows = memoryIo();
    expect(await run([join(SERVERS, "image_tools"), "--format", "jsonl"], rows)).toBe(0);
    const first = z
      .object({ recorded_fields: z.array(z.object({ key: z.string(), value: z.string() })) })
      .parse(JSON.parse(rows.out().split("\n")[0] ?? ""));
    expect(first.recorded_fields).toContainEqual({
      key: "failure_reason",
      value: '"argument_below_threshold"',
    });
    const verified = memoryIo();
    expect(await run([FILE, "--format", "jsonl"], verified)).toBe(0);
    const verifiedRows = verified
      .out()
      .trim()
      .split("\n")
      .map((line) =>
        z
          .object({ contract: z.number().nullable(), recorded_fields: z.array(z.unknown()) })
          .parse(JSON.parse(line)),
      );
    const verifiedOnes = verifiedRows.filter((r) => r.contract !== null);
    expect(verifiedOnes.length).toBeGreaterThan(0);
    for (const row of verifiedOnes) expect(row.recorded_fields).toEqual([]);
  });

  it("never counts a task row's field as the verifier's, paired or not (Gym's openair_congestion: none pairs)", async () => {
    const io = memoryIo();
    expect(await run([join(SERVERS, "openair_congestion")], io)).toBe(0);
    const section = io.out().slice(io.out().indexOf("What Gym's verifier wrote"));
    expect(section).toContain("  terminated: true ×5");
    // difficulty, max_steps and tier are keys of data/example.jsonl, which no line pairs with.
    for (const key of ["difficulty", "max_steps", "tier"]) expect(section).not.toContain(`  ${key}:`);
  });

  it("a folder's unverified rows name how to start their server, as cli verify and the page's rows do", async () => {
    // Gym's openenv: no port here; its configs start the server Gym's own /verify runs on.
    const io = memoryIo();
    expect(await run([join(SERVERS, "openenv"), "--format", "jsonl"], io)).toBe(0);
    const rows = io
      .out()
      .trim()
      .split("\n")
      .map((line) => z.object({ error: z.string() }).parse(JSON.parse(line)));
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row.error).toContain('ng_run "+config_paths=[');
      expect(row.error).toContain("configs/openenv_echo.yaml");
    }
  });

  it("a folder of several runs says which file holds the zeros, as the page's whole folder table", async () => {
    const dir = await mkdtemp(join(tmpdir(), "triage-by-file-"));
    await cp(join(SERVERS, "example_multi_step"), join(dir, "example_multi_step"), { recursive: true });
    await cp(join(SERVERS, "xlam_fc"), join(dir, "xlam_fc"), { recursive: true });
    const io = memoryIo();
    expect(await run([dir], io)).toBe(0);
    const out = io.out().split("\n");
    const at = out.indexOf("zeros by file (recorded ≤ 0):");
    expect(at).toBeGreaterThan(0);
    const [zeros, rollouts] =
      /(\d+) of (\d+) rollouts recorded 0/
        .exec(out[0] ?? "")
        ?.slice(1)
        .map(Number) ?? [];
    const files = out.slice(at + 1, at + 3);
    expect(files.map((line) => line.trim().split(/\s+/)[0])).toEqual([
      "example_multi_step/data/example_rollouts.jsonl",
      "xlam_fc/data/example_rollouts.jsonl",
    ]);
    // The files' zeros and rollouts add up to the headline's.
    const counts = files.map(
      (line) => /\s(\d+) of (\d+) rollouts, mean /.exec(line)?.slice(1).map(Number) ?? [],
    );
    expect(counts.reduce((n, [z = 0]) => n + z, 0)).toBe(zeros);
    expect(counts.reduce((n, [, r = 0]) => n + r, 0)).toBe(rollouts);
    // One file alone: no table (the headline is the file's).
    const one = memoryIo();
    expect(await run([join(dir, "xlam_fc")], one)).toBe(0);
    expect(one.out()).not.toContain("zeros by file");
  });

  it("leaves out a line that is not JSON and says so", async () => {
    const dir = await mkdtemp(join(tmpdir(), "triage-"));
    const path = join(dir, "bad.jsonl");
    await writeFile(path, `${generated.text.split("\n")[0]}\n{nope\n`);
    const io = memoryIo();
    expect(await run([path, "--format", "jsonl"], io)).toBe(0);
    expect(io.out().trim().split("\n")).toHaveLength(1);
    expect(io.err()).toMatch(/^line 2: .+ \(left out\)$/m);
  });

  it("says consecutive lines left out for one reason once, and says them before a read fails", async () => {
    const dir = await mkdtemp(join(tmpdir(), "triage-"));
    const record = `${JSON.stringify({ reward: 0, expected: "x" })}\n`;
    const text = `${record.repeat(3)}${generated.text.split("\n")[0]}\n${record}`;
    const plain = join(dir, "records.jsonl");
    await writeFile(plain, text);
    const io = memoryIo();
    expect(await run([plain, "--format", "jsonl"], io)).toBe(0);
    expect(
      io
        .err()
        .match(/^lines? .*\(left out\)$/gm)
        ?.map((l) => l.split(":")[0]),
    ).toEqual(["lines 1-3", "line 5"]);
    // A damaged gzip inside a run of records: the lines read before the damage are named, then the damage.
    const whole = gzipSync(Buffer.from(`${generated.text.split("\n")[0]}\n${record.repeat(50_000)}`));
    const cut = join(dir, "cut.jsonl.gz");
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length * 0.8)));
    const broken = memoryIo();
    expect(await run([cut, "--format", "jsonl"], broken)).toBe(1);
    const err = broken.err();
    expect(err).toMatch(/^lines 2-\d+: .+ \(left out\)$/m);
    expect(err.indexOf("lines 2-")).toBeLessThan(err.indexOf("gzip"));
  });

  it("says what a folder's file without a rollout is instead, as the page does (an empty one, UTF-16 text)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "triage-no-rollouts-"));
    await writeFile(join(dir, "a.jsonl"), "");
    await writeFile(join(dir, "b.jsonl"), Buffer.from(`\ufeff${generated.text.split("\n")[0]}\n`, "utf16le"));
    await writeFile(join(dir, "c.jsonl"), `${generated.text.split("\n")[0]}\n`);
    const io = memoryIo();
    expect(await run([dir], io)).toBe(0);
    expect(io.err()).toContain(`${join(dir, "a.jsonl")}: This file is empty`);
    expect(io.err()).toContain(`${join(dir, "b.jsonl")}: This file is UTF-16 text, not UTF-8`);
    expect(io.err()).not.toContain(`${join(dir, "c.jsonl")}: This file`);
  });

  it("a damaged gzip keeps the rows before the damage and the folder's other files, then exits 1", async () => {
    const lines = generated.text.trim().split("\n");
    const dir = damagedFolder(lines, 3);
    const io = memoryIo();
    expect(await run([dir, "--format", "jsonl"], io)).toBe(1);
    const rows = recordPlaces(io.out());
    const fromA = rows.filter((row) => row.file === "a.jsonl.gz");
    expect(fromA.length).toBeGreaterThan(0);
    expect(fromA.length).toBeLessThan(lines.length);
    expect(fromA.map((row) => row.line)).toEqual(fromA.map((_, i) => i + 1));
    // The file after the damaged one is read whole.
    expect(rows.filter((row) => row.file === "b.jsonl").map((row) => row.line)).toEqual([1, 2, 3]);
    expect(io.err()).toMatch(/^error: reading \S+a\.jsonl\.gz stopped: damaged gzip data at byte \d+/m);
    // The summary covers the same rows, and counts the damage as one unreadable line, as the page lists it.
    const summary = memoryIo();
    expect(await run([dir], summary)).toBe(1);
    expect(summary.out()).toMatch(
      new RegExp(`^\\d+ of ${rows.length} rollouts recorded 0 .*· 1 unreadable line`),
    );
  });

  it("a folder's recorded fields are counted per file with no server, filtered or not (Gym's environments/)", async () => {
    const dir = join(import.meta.dirname, "../../fixtures/gym-examples/environments");
    const headings = async (...args: string[]) => {
      const io = memoryIo();
      expect(await run([dir, ...args], io)).toBe(0);
      return io
        .out()
        .split("\n")
        .filter((line) => line.includes("What Gym's verifier wrote"));
    };
    const all = await headings();
    expect(all.length).toBeGreaterThan(3);
    for (const line of all) expect(line).toMatch(/^no server \([^)]+\/data\/example_rollouts\.jsonl\): /);
    // The counts' scope leaves out the cause and zero clauses: the same groups, each beside its passes.
    expect(await headings("--filter", "cause:no_server")).toEqual(all);
    expect(await headings("--filter", "recorded:..0")).toEqual(all);
  });

  it("--out writes the same bytes as stdout, and never over the input", async () => {
    const dir = await mkdtemp(join(tmpdir(), "triage-out-"));
    const out = join(dir, "rows.csv");
    const stdout = memoryIo();
    expect(await run([FILE, "--format", "csv"], stdout)).toBe(0);
    expect(await run([FILE, "--format", "csv", "--out", out], memoryIo())).toBe(0);
    expect(await readFile(out, "utf8")).toBe(stdout.out());
    const refused = memoryIo();
    expect(await run([FILE, "--format", "csv", "--out", FILE], refused)).toBe(2);
    expect(await readFile(FILE, "utf8")).toBe(generated.text);
  });

  it("refuses a bad filter or format with exit 2", async () => {
    expect(parseTriageArgs([FILE, "--filter", "cause:nope"])).toMatchObject({ ok: false });
    const io = memoryIo();
    expect(await run([FILE, "--format", "xml"], io)).toBe(2);
    expect(io.err()).toMatch(/--format must be one of summary, csv, jsonl/);
  });

  it("a folder with two rollouts files beside one metrics file says its figures once", async () => {
    const io = memoryIo();
    expect(await run([join(SERVERS, "structeval")], io)).toBe(0);
    const said = io
      .err()
      .split("\n")
      .filter((line) => line.startsWith("data/example_metrics.json: Gym's dataset metrics of"));
    expect(said).toHaveLength(1);
  });

  it("pass@k groups each run's rollouts by task as Gym does: code_gen's by its paired rows, structeval's per file", async () => {
    const passLine = async (folder: string) => {
      const io = memoryIo();
      expect(await run([join(SERVERS, folder)], io)).toBe(0);
      return io
        .out()
        .split("\n")
        .find((line) => line.startsWith("pass@k"));
    };
    // code_gen's lines carry no index: each pairs with its row of example.jsonl by equal input.
    expect(await passLine("code_gen")).toBe(
      "pass@k (recorded, over tasks): pass@1 0.2000 (5 tasks), pass@2 n/a (0 tasks), pass@4 n/a (0 tasks) (a pass is a reward above 0)",
    );
    // structeval's two files are two runs of one rollout per task: never one run of two. Two of its
    // rewards are partial scores (0.95, 0.63), which pass as surely as a 1: the line says so.
    expect(await passLine("structeval")).toBe(
      "pass@k (recorded, over tasks): pass@1 0.9000 (10 tasks), pass@2 n/a (0 tasks), pass@4 n/a (0 tasks) (a pass is a reward above 0; 2 rollouts scored between 0 and 1 and each counts as a pass: these rewards are scores, not pass/fail, so read the means)",
    );
    // newton_bench's 3 rollouts that pair with no task row are named as left out, not dropped silently.
    expect(await passLine("newton_bench")).toBe(
      "pass@k (recorded, over tasks): pass@1 0.5000 (2 tasks), pass@2 n/a (0 tasks), pass@4 n/a (0 tasks) (a pass is a reward above 0; left out: 3 rollouts without a task)",
    );
  });
});
