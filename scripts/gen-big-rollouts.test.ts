import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { openFileStream } from "../cli/open";
import { readJsonl } from "../lib/jsonl";
import { createRng, generate, makeRolloutLine, makeRolloutsBytes } from "./gen-big-rollouts";

function aliasStyle(name: string): string {
  if (name.startsWith("mcp__workplace_assistant__")) return "mcp__";
  if (name.startsWith("mcp_workplace_assistant_")) return "mcp_";
  if (name.startsWith("workplace_assistant__")) return "server__";
  return "bare";
}

const dir = mkdtempSync(join(tmpdir(), "gen-big-"));

describe("gen-big-rollouts", () => {
  it("makeRolloutsBytes: whole lines of the seeded generator up to at least the size asked, the same for a seed", () => {
    const bytes = makeRolloutsBytes(3, 300_000);
    expect(bytes.length).toBeGreaterThanOrEqual(300_000);
    const text = new TextDecoder().decode(bytes);
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    const rng = createRng(3);
    expect(lines).toEqual(lines.map((_, i) => makeRolloutLine(i, rng)));
    expect(bytes.length - (lines.at(-1)?.length ?? 0) - 1).toBeLessThan(300_000);
    expect(makeRolloutsBytes(3, 300_000)).toEqual(bytes);
  });

  it("writes at least the requested bytes of 20-90 KiB Gym-like rollouts that readJsonl parses", async () => {
    const out = join(dir, "r.jsonl");
    const { lines, bytes } = await generate(out, 2_000_000, 5);
    expect(bytes).toBeGreaterThanOrEqual(2_000_000);
    expect(readFileSync(out).length).toBe(bytes);
    let count = 0;
    const styles = new Set<string>();
    let withProvenance = 0;
    for await (const item of readJsonl(await openFileStream(out))) {
      count++;
      expect(item.ok).toBe(true);
      expect(item.length).toBeGreaterThanOrEqual(20 * 1024);
      expect(item.length).toBeLessThanOrEqual(90 * 1024);
      if (!item.ok) continue;
      const rollout = item.value as { response: { output: Array<{ type: string; name?: string }> } };
      if ("mcp_tool_call_provenance" in rollout) withProvenance++;
      for (const o of rollout.response.output)
        if (o.type === "function_call") styles.add(aliasStyle(o.name ?? ""));
    }
    expect(count).toBe(lines);
    expect([...styles].sort()).toEqual(["bare", "mcp_", "mcp__", "server__"]);
    expect(withProvenance).toBeGreaterThan(0);
    expect(withProvenance).toBeLessThan(count);
  });

  it("is deterministic for a seed and writes a Python NaN token on some rollouts", () => {
    const a = createRng(9);
    const b = createRng(9);
    const first = Array.from({ length: 100 }, (_, i) => makeRolloutLine(i, a));
    const second = Array.from({ length: 100 }, (_, i) => makeRolloutLine(i, b));
    expect(first).toEqual(second);
    expect(first.some((l) => l.endsWith(', "judge_score": NaN}'))).toBe(true);
  });

  it("gzips when OUT ends in .gz", async () => {
    const out = join(dir, "r.jsonl.gz");
    const { bytes } = await generate(out, 100_000, 1);
    expect(gunzipSync(readFileSync(out)).length).toBe(bytes);
  });
});

describe("a generated run through cli triage (issue 18's done-when)", () => {
  it("finds the truncated responses, counts the recorded zeros, never gives identity to all-bare calls, and names decisive calls", async () => {
    const { run } = await import("../cli/commands/triage");
    const { memoryIo } = await import("../cli/io");
    const { TRUNCATED_EVERY } = await import("./gen-big-rollouts");
    const out = join(dir, "triage.jsonl");
    const { lines } = await generate(out, 8_000_000, 11);
    expect(lines).toBeGreaterThan(2 * TRUNCATED_EVERY);
    const io = memoryIo();
    expect(await run([out, "--format", "jsonl"], io)).toBe(0);
    const rows = io
      .out()
      .trim()
      .split("\n")
      .map(
        (t) =>
          JSON.parse(t) as {
            line: number;
            recorded: number | null;
            cause: string | null;
            decisive_calls: number[];
            calls: number;
            flags: string[];
          },
      );
    expect(rows).toHaveLength(lines);
    const truncatedLines = rows.filter((r) => (r.line - 1) % TRUNCATED_EVERY === TRUNCATED_EVERY - 1);
    // A truncated response recorded 0 is "truncated"; one recorded 1 that recomputes to 0 is drift first.
    expect(rows.filter((r) => r.cause === "truncated").map((r) => r.line)).toEqual(
      truncatedLines.filter((r) => r.cause === "truncated").map((r) => r.line),
    );
    expect(rows.some((r) => r.cause === "truncated")).toBe(true);
    for (const r of truncatedLines) expect(["truncated", "drift"]).toContain(r.cause);
    // The headline is the count of recorded zeros.
    const summary = memoryIo();
    expect(await run([out], summary)).toBe(0);
    const zero = rows.filter((r) => r.recorded === 0).length;
    expect(summary.out()).toMatch(new RegExp(`^${zero} of ${lines} rollouts recorded 0 `));
    // Identity needs a provenance map: rollouts without one (all calls bare) never get it.
    const values = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((t) => JSON.parse(t.replace(/, "judge_score": NaN}$/, "}")) as Record<string, unknown>);
    for (const r of rows)
      if (r.cause === "identity") expect(values[r.line - 1]).toHaveProperty("mcp_tool_call_provenance");
    // Every tool_failed / wrong_end_state rollout names decisive calls that exist.
    const failing = rows.filter((r) => r.cause === "tool_failed" || r.cause === "wrong_end_state");
    expect(failing.length).toBeGreaterThan(0);
    for (const r of failing) {
      expect(r.decisive_calls.length).toBeGreaterThan(0);
      for (const index of r.decisive_calls) expect(index).toBeLessThan(r.calls);
    }
  }, 120_000);
});
