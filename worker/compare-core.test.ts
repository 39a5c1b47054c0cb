// Tests worker/compare-core (vitest only collects lib, cli, hooks and scripts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyRollout } from "@/lib/verify";
import {
  compareFiles,
  compareView,
  pairDetail,
  readFile,
  repairFile,
  serverTools,
  whatIf,
} from "@/worker/compare-core";

const SAMPLES = path.resolve(import.meta.dirname, "../public/samples");

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function load(name: string) {
  return readFile(name, streamOf(new Uint8Array(readFileSync(path.join(SAMPLES, name)))));
}

describe("compare worker core", () => {
  it("lists bad lines with their reason and keeps every line", async () => {
    const text = '{"a":1}\nnot json\n\n';
    const file = await readFile("x.jsonl", streamOf(new TextEncoder().encode(text)));
    expect(file.lines).toHaveLength(3);
    expect(file.rollouts).toHaveLength(0);
    expect(file.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(file.errors[0]?.error).toMatch(/not a rollout/);
  });

  it("maps pair positions to line numbers and gives a pair's aligned actions", async () => {
    const a = await load("compare-http.jsonl");
    const b = await load("compare-mcp-hermes-noprov.jsonl");
    const report = compareFiles(a, b, "contract");
    const view = compareView(a, b, report);
    expect(view.pairs).toHaveLength(a.rollouts.length);
    for (const p of view.pairs) {
      const lineA = JSON.parse(
        readFileSync(path.join(SAMPLES, "compare-http.jsonl"), "utf8").split("\n")[p.a.line - 1] ?? "",
      );
      expect(`${lineA._ng_task_index}:${lineA._ng_rollout_index}`).toBe(p.key);
    }
    const detail = pairDetail(report, 0);
    expect(detail?.steps.every((s) => s.kind === "same")).toBe(true);
    expect(detail?.steps[0]?.b?.emitted).toMatch(/^mcp_workplace_assistant_/);
    expect(pairDetail(report, view.pairs.length)).toBeNull();
  });

  it("what-if: every variant with provenance equals HTTP", async () => {
    const file = await load("compare-http.jsonl");
    const first = file.rollouts[0];
    const view = first ? whatIf(file, first.line) : null;
    expect(view?.rows.length).toBeGreaterThan(0);
    for (const row of view?.rows ?? []) if (row.with_provenance) expect(row.reward).toBe(view?.http.reward);
    expect(whatIf(file, 10_000)).toBeNull();
  });

  it("repair: only repaired lines change, and they score like the verify of the repaired rollout", async () => {
    const file = await load("compare-mcp-hermes-noprov.jsonl");
    const server = serverTools().find((s) => s.name === "workplace_assistant");
    expect(server).toBeDefined();
    const { view, chunks } = await repairFile(file, "hermes-legacy", server ? [server] : []);
    expect(chunks).toHaveLength(file.lines.length);
    expect(view.repaired).toBe(file.rollouts.length);
    const decoder = new TextDecoder();
    chunks.forEach((chunk, i) => {
      const repaired = JSON.parse(decoder.decode(chunk));
      const row = view.rollouts[i];
      expect(verifyRollout(repaired, { policy: "contract" }).reward).toBe(row?.after);
      expect(Object.keys(repaired.mcp_tool_call_provenance)).toEqual(row?.derived.map((d) => d.call_id));
    });
  });
});
