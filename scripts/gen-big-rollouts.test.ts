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
