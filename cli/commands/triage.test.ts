import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rowsCsv, rowsJsonl } from "../../lib/export/csv";
import { matchesFilter, parseFilter, runRow } from "../../lib/run";
import { asRollout } from "../../lib/schemas/test-helpers";
import { ZERO_CAUSES } from "../../lib/triage";
import { buildTriageRun, TRIAGE_RUN_PATH } from "../../scripts/gen-triage-run";
import { memoryIo } from "../io";
import { parseTriageArgs, run } from "./triage";

const FILE = join(import.meta.dirname, "..", "..", TRIAGE_RUN_PATH);
const generated = buildTriageRun();

describe("cli triage", () => {
  it("summary: count and share per cause equal the generator's mix", async () => {
    const io = memoryIo();
    expect(await run([FILE], io)).toBe(0);
    const out = io.out();
    const total = generated.intents.length;
    // The run view's headline (lib/run zeroShareText): the line that is not a rollout is named, not counted.
    const zero = generated.intents.filter((i) => i.cause !== null).length;
    expect(out).toContain(
      `${zero} of ${total} rollouts scored 0 (${((100 * zero) / total).toFixed(1)}%) · 1 unreadable line, not counted`,
    );
    expect(generated.unreadable).toHaveLength(1);
    expect(io.err()).toContain(`line ${generated.unreadable[0]?.line}: not a rollout: response.output:`);
    for (const cause of ZERO_CAUSES) {
      const n = generated.intents.filter((i) => i.cause === cause).length;
      expect(out).toMatch(new RegExp(`^  ${cause} +${n}  +${((100 * n) / total).toFixed(1)}%`, "m"));
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
    const expected = generated.intents
      .map((i) => ({ v: values[i.line - 1], row: runRow(i.line, asRollout(values[i.line - 1])) }))
      .filter(({ v, row }) => matchesFilter(parsed.clauses, row, v))
      .map(({ row }) => row);
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
    const io = memoryIo();
    expect(await run([FILE, "--filter", "agent:http_agent cause:identity", "--reward", "legacy"], io)).toBe(
      0,
    );
    const http = generated.intents.filter((i) => i.agent === "http_agent");
    const zero = http.filter((i) => i.cause !== null).length;
    expect(io.out()).toContain(`${zero} of ${http.length} rollouts scored 0`);
    expect(io.out()).toContain("pass@k (legacy, over tasks)");
    const bad = memoryIo();
    expect(await run([FILE, "--reward", "best"], bad)).toBe(2);
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
});
