import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { asRollout } from "../schemas/test-helpers";
import { pairingIndices } from "../verify";
import { compareRuns } from "./compare";
import { COMPARE_CSV_COLUMNS, compareCsv } from "./csv";
import { asHarness, editCalls, golden } from "./test-helpers";

const http = golden()
  .filter((g) => g.expected.scheme === "bare")
  .map((g) => g.rollout);

/** The CSV read back as records, one per line after the header. */
function records(csv: string): Record<string, string>[] {
  const parsed = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields).toEqual([...COMPARE_CSV_COLUMNS]);
  return parsed.data;
}

describe("compareCsv", () => {
  it("writes a row per pair with both lines, rewards, verdict and first divergence", () => {
    const mcp = http.map((r) => asHarness(r, "hermes-legacy", false));
    const target = mcp.findIndex((r) => JSON.stringify(r).split('"function_call"').length > 2);
    mcp[target] = editCalls(mcp[target]!, (call, i) => {
      if (i === 0) call.arguments = JSON.stringify({ different: true });
    });
    const report = compareRuns(http.map(asRollout), mcp.map(asRollout));
    // Lines as a file would number them: the a side starts at line 3, b at 10.
    const lines = {
      a: http.map((value, i) => ({ line: i + 3, value })),
      b: mcp.map((value, i) => ({ line: i + 10, value })),
    };
    const rows = records(compareCsv(report, lines));
    expect(rows).toHaveLength(report.pairs.length);
    report.pairs.forEach((pair, i) => {
      const row = rows[i]!;
      expect(row.a_line).toBe(String(pair.a.position + 3));
      expect(row.b_line).toBe(String(pair.b.position + 10));
      expect(row.verdict).toBe(pair.verdict);
      expect(row.a_reward).toBe(pair.a.reward === null ? "" : String(pair.a.reward));
      expect(row.b_reward).toBe(pair.b.reward === null ? "" : String(pair.b.reward));
      expect(row.names_decided).toBe(pair.names_decided ? "yes" : "no");
      expect(row.a_calls).toBe(String(pair.a.actions.length));
      expect(row.policy).toBe("contract");
      // Gym's indices, read from the rollout itself (every golden line carries them).
      const indices = pairingIndices(http[pair.a.position]);
      expect(indices).not.toBeNull();
      expect([row.task_index, row.rollout_index]).toEqual([String(indices?.task), String(indices?.rollout)]);
    });
    // Same actions, different rewards: whose verifier saw which name, as /compare's row says it.
    for (const [i, pair] of report.pairs.entries())
      if (pair.names_decided)
        expect(rows[i]?.names_seen).toMatch(/^B's verifier saw mcp_workplace_assistant_\w+ for \w+/);
    const changed = rows[report.pairs.findIndex((p) => p.b.position === target)]!;
    expect(changed.verdict).toBe("different actions");
    expect(changed.first_divergence).toMatch(/different arguments/);
    // The identity bug: same actions, the MCP side's aliases scored differently.
    expect(rows.filter((r) => r.names_decided === "yes").length).toBe(report.summary.names_decided);
    expect(report.summary.names_decided).toBeGreaterThan(0);
  });

  it("lists every rollout that found no partner, by side and line", () => {
    const report = compareRuns(http.slice(0, 3).map(asRollout), http.slice(1).map(asRollout));
    const lines = {
      a: http.slice(0, 3).map((value, i) => ({ line: i + 1, value })),
      b: http.slice(1).map((value, i) => ({ line: i + 1, value })),
    };
    const rows = records(compareCsv(report, lines));
    expect(rows).toHaveLength(report.pairs.length + report.unpaired_a.length + report.unpaired_b.length);
    const unpaired = rows.filter((r) => r.verdict?.startsWith("unpaired"));
    // Its own Gym indices, so a spreadsheet sorted by them keeps it beside its task.
    const first = pairingIndices(http[0]);
    expect(unpaired[0]).toMatchObject({
      a_line: "1",
      b_line: "",
      verdict: "unpaired in a",
      task_index: String(first?.task),
      rollout_index: String(first?.rollout),
    });
    expect(unpaired.filter((r) => r.verdict === "unpaired in b").map((r) => r.b_line)).toEqual(
      report.unpaired_b.map((position) => String(position + 1)),
    );
    expect(report.unpaired_b.length).toBeGreaterThan(0);
  });

  it("escapes text a spreadsheet would run as a formula", () => {
    const a = asRollout({ id: "x", response: { output: [] }, reward: 1 });
    const b = asRollout({ id: "x", response: { output: [] }, reward: 0 });
    const csv = compareCsv(compareRuns([a], [b], { server: "=HYPERLINK(1)" }), {
      a: [{ line: 1, value: a }],
      b: [{ line: 1, value: b }],
    });
    expect(records(csv)[0]?.server).toBe("'=HYPERLINK(1)");
    expect(csv.endsWith("\r\n")).toBe(true);
  });
});
