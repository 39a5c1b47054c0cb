import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ZERO_CAUSE_LABELS, ZERO_CAUSES } from "../../lib/triage";
import { buildTriageRun, TRIAGE_RUN_PATH } from "../../scripts/gen-triage-run";
import { memoryIo } from "../io";
import { damagedFolder } from "../test-helpers";
import { parseReportArgs, run } from "./report";

const FILE = join(import.meta.dirname, "..", "..", TRIAGE_RUN_PATH);
const generated = buildTriageRun();

describe("cli report", () => {
  it("writes the same bytes for the same input, with the breakdown and the marked rollouts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "report-"));
    const a = join(dir, "a.html");
    const b = join(dir, "b.html");
    expect(await run([FILE, "--mark", "5,2", "--out", a], memoryIo())).toBe(0);
    expect(await run([FILE, "--mark", "2,5", "--out", b], memoryIo())).toBe(0);
    const html = await readFile(a, "utf8");
    expect(html).toBe(await readFile(b, "utf8"));
    expect(html).toContain('data-line="2"');
    expect(html).toContain('data-line="5"');
    expect(html.match(/data-testid="report-rollout"/g)).toHaveLength(2);
    // Every cause of the fixture's zeros is in the breakdown.
    const intents = buildTriageRun().intents.filter((i) => i.recorded === 0 && i.cause !== "drift");
    for (const cause of ZERO_CAUSES) {
      if (intents.some((i) => i.cause === cause)) expect(html).toContain(ZERO_CAUSE_LABELS[cause]);
    }
  });

  it("a marked line that is no rollout is named as such, never counted as marked", async () => {
    const dir = await mkdtemp(join(tmpdir(), "report-"));
    const out = join(dir, "m.html");
    const io = memoryIo();
    const unreadable = buildTriageRun().unreadable[0]?.line ?? 0;
    expect(await run([FILE, "--mark", `2,${unreadable}`, "--out", out], io)).toBe(0);
    const html = await readFile(out, "utf8");
    expect(html).toContain(
      `1 rollout marked. Marked but not a rollout of the run, so not shown: line ${unreadable}.`,
    );
    expect(html.match(/data-testid="report-rollout"/g)).toHaveLength(1);
  });

  it("without marks shows the rollouts the filter keeps", async () => {
    const dir = await mkdtemp(join(tmpdir(), "report-"));
    const out = join(dir, "r.html");
    expect(await run([FILE, "--filter", "recorded:1", "--out", out], memoryIo())).toBe(0);
    const html = await readFile(out, "utf8");
    const ones = buildTriageRun().intents.filter((i) => i.recorded === 1).length;
    expect(html).toContain(
      `No rollout the filter keeps scored 0 or below in the recorded reward: ${ones <= 20 ? "all" : "the first 20 of the"} ${ones} rollouts the filter keeps`,
    );
    expect(html.match(/data-testid="report-rollout"/g)?.length).toBe(Math.min(ones, 20));
  });

  it("without marks shows the first rollouts that scored 0 or below, and says how they were chosen", async () => {
    const dir = await mkdtemp(join(tmpdir(), "report-"));
    const out = join(dir, "r.html");
    expect(await run([FILE, "--out", out], memoryIo())).toBe(0);
    const html = await readFile(out, "utf8");
    const zeros = buildTriageRun()
      .intents.filter((i) => i.recorded !== null && i.recorded <= 0)
      .map((i) => i.line);
    expect(zeros.length).toBeGreaterThan(20);
    const shown = [...html.matchAll(/data-testid="report-rollout" data-line="(\d+)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(shown).toEqual(zeros.slice(0, 20));
    expect(html).toContain(
      `The first 20 of the ${zeros.length} rollouts in the run that scored 0 or below in the recorded reward`,
    );
  });

  it("says when a Gym folder's rollouts could not be verified here, and why", async () => {
    // Gym's own example rollouts carry no task fields and do not pair with its example task rows.
    const folder = join(
      import.meta.dirname,
      "..",
      "..",
      "fixtures/gym-examples/resources_servers/workplace_assistant",
    );
    const dir = await mkdtemp(join(tmpdir(), "report-"));
    const out = join(dir, "r.html");
    expect(await run([folder, "--out", out], memoryIo())).toBe(0);
    expect(await readFile(out, "utf8")).toContain(
      '<p data-testid="report-unverified">5 of 5 rollouts not verified under the contract policy (no task data 5).</p>',
    );
    // The fixture's unverified lines, by the cause each was built to show.
    const { intents } = buildTriageRun();
    const n = (cause: string) => intents.filter((i) => i.cause === cause).length;
    const [server, port, data, refused] = [
      "no_server",
      "no_verifier_port",
      "missing_task_data",
      "malformed",
    ].map(n);
    const verified = join(dir, "v.html");
    expect(await run([FILE, "--out", verified], memoryIo())).toBe(0);
    expect(await readFile(verified, "utf8")).toContain(
      `${server! + port! + data! + refused!} of ${intents.length} rollouts not verified under the contract policy (no server ${server}, no verifier ${port}, no task data ${data}, Gym refuses ${refused})`,
    );
  });

  it("a folder with a damaged gzip: the report holds its lines before the damage and the other files, exit 1", async () => {
    // Readable lines only: the one unreadable line of a is then the damage.
    const unreadable = new Set(generated.unreadable.map((u) => u.line));
    const lines = generated.text
      .trim()
      .split("\n")
      .filter((_, i) => !unreadable.has(i + 1));
    const dir = damagedFolder(lines, 3);
    const out = join(dir, "report.html");
    const io = memoryIo();
    expect(await run([dir, "--out", out], io)).toBe(1);
    expect(io.err()).toMatch(/^error: reading \S+a\.jsonl\.gz stopped: damaged gzip data/m);
    // Both files are in it: b whole, a up to the damage (a run of its own, with one unreadable line).
    const summary = io.err().match(/^report: \d+ rollouts? shown, (\d+) in the 2 rollouts files$/m);
    expect(Number(summary?.[1])).toBeGreaterThan(3);
    expect(Number(summary?.[1])).toBeLessThan(lines.length + 3);
    expect(await readFile(out, "utf8")).toContain("1 unreadable line");
  });

  it("refuses unusable arguments with exit 2", async () => {
    expect(parseReportArgs([FILE])).toEqual({
      ok: false,
      error: "--out is required (the HTML file to write)",
    });
    expect(parseReportArgs([FILE, "--out", "x", "--mark", "2,a"]).ok).toBe(false);
    expect(parseReportArgs([FILE, "--out", "x", "--filter", "nonsense:"]).ok).toBe(false);
    const io = memoryIo();
    expect(await run([FILE, "--mark", "0", "--out", "x"], io)).toBe(2);
  });
});
