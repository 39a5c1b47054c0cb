/**
 * The data service (store, workspace, rewards scheduler, inspector requests), run in Node with the pool's
 * functions in-process: loading, classification, pairing in either order, per-line errors with their kind,
 * cancellation, batches that stream in, search, detail views and raw bytes.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { NO_HARNESS } from "@/lib/harness";
import { readRollout } from "@/lib/schemas";
import { transcript } from "@/worker/core";
import { inProcessPool } from "@/worker/pool";
import {
  type LoadProgress,
  type RolloutIndexEntry,
  type SessionSummary,
  SUMMARY_ERRORS,
} from "@/worker/protocol";
import { DataService } from "@/worker/service";
import { servedFile } from "@/worker/test-served";

const ROOT = path.resolve(__dirname, "..");
const WA = path.join(ROOT, "fixtures/golden/workplace-rollouts");

function file(full: string, name = path.basename(full)): File {
  return new File([readFileSync(full)], name);
}

function jsonl(full: string): unknown[] {
  return readFileSync(full, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const Expected = z.object({
  contract: z.object({ reward: z.number().nullable() }),
  legacy: z.object({ reward: z.number().nullable() }),
});
const never = new AbortController().signal;
const ignore = (_: LoadProgress) => {};

function entries(service: DataService, id: string): RolloutIndexEntry[] {
  return service.changes(id, 0).entries;
}

async function open(service: DataService, ...names: string[]): Promise<SessionSummary> {
  const summary = await service.load(
    names.map((name) => ({ kind: "file" as const, file: file(name) })),
    null,
    never,
    ignore,
  );
  await service.settled();
  return summary;
}

const noecho = path.join(WA, "wa_noecho.jsonl");
const inputsFile = path.join(WA, "wa_inputs.jsonl");
const expectedNoecho = () =>
  jsonl(path.join(WA, "wa_noecho_expected.jsonl")).map((row) => Expected.parse(row));

describe("DataService.load", () => {
  it("recognises a materialized-inputs file and pairs it with its rollouts", async () => {
    const service = new DataService(inProcessPool());
    const summary = await open(service, inputsFile, noecho);
    const [inputs, rollouts] = summary.datasets;
    expect(inputs?.kind).toBe("inputs");
    expect(rollouts?.kind).toBe("rollouts");
    const expected = expectedNoecho();
    expect(rollouts?.rows).toBe(expected.length);
    expect(rollouts?.paired_rows).toBe(expected.length);
    expect(rollouts?.paired_inputs).toBe(inputs?.id);
    const index = entries(service, rollouts!.id);
    expect(index.map((entry) => [entry.contract, entry.legacy])).toEqual(
      expected.map((row) => [row.contract.reward, row.legacy.reward]),
    );
    expect(index.every((entry) => entry.paired && entry.server === "workplace_assistant")).toBe(true);
    expect(index.every((entry) => entry.rewards === "done")).toBe(true);
  });

  it("inputs added after the rollouts re-verify every row with them", async () => {
    const service = new DataService(inProcessPool());
    const first = await open(service, noecho);
    const id = first.datasets[0]!.id;
    expect(entries(service, id).every((entry) => entry.contract === null)).toBe(true);
    const revision = service.session().datasets[0]!.revision;
    const summary = await open(service, inputsFile);
    expect(summary.datasets.map((dataset) => dataset.kind)).toEqual(["rollouts", "inputs"]);
    expect(service.session().datasets[0]!.revision).toBeGreaterThan(revision);
    const expected = expectedNoecho();
    expect(entries(service, id).map((entry) => entry.contract)).toEqual(
      expected.map((row) => row.contract.reward),
    );
    // Only what changed since the caller's revision comes back, and here that is every row.
    expect(service.changes(id, revision).entries).toHaveLength(expected.length);
  });

  it("rollouts added after an inputs file keep it", async () => {
    const service = new DataService(inProcessPool());
    await open(service, inputsFile);
    expect(service.session().datasets.map((dataset) => dataset.kind)).toEqual(["inputs"]);
    const summary = await open(service, noecho);
    expect(summary.datasets.map((dataset) => dataset.kind)).toEqual(["inputs", "rollouts"]);
    const rollouts = service.session().datasets[1]!;
    expect(rollouts.paired_rows).toBe(rollouts.rows);
    expect(entries(service, rollouts.id).map((entry) => entry.contract)).toEqual(
      expectedNoecho().map((row) => row.contract.reward),
    );
  });

  it("another rollouts file replaces the workspace but stays in the store", async () => {
    const service = new DataService(inProcessPool());
    await open(service, noecho);
    await open(service, path.join(WA, "wa_rollouts.jsonl"));
    const session = service.session();
    expect(session.datasets.map((dataset) => dataset.name)).toEqual(["wa_rollouts.jsonl"]);
    expect(session.files.map((dataset) => dataset.name).sort()).toEqual([
      "wa_noecho.jsonl",
      "wa_rollouts.jsonl",
    ]);
  });

  it("streams rows in batch by batch, with the same index as a single batch", async () => {
    const events: SessionSummary[] = [];
    const small = new DataService(inProcessPool(), (session) => events.push(session), null, 64 * 1024);
    const progress: LoadProgress[] = [];
    const summary = await small.load(
      [{ kind: "file", file: file(path.join(WA, "wa_rollouts.jsonl")) }],
      null,
      never,
      (p) => progress.push(p),
    );
    await small.settled();
    const rows = new Set(progress.map((p) => p.rows));
    expect(rows.size).toBeGreaterThan(5);
    const whole = new DataService(inProcessPool());
    const wholeSummary = await open(whole, path.join(WA, "wa_rollouts.jsonl"));
    expect(entries(small, summary.datasets[0]!.id)).toEqual(entries(whole, wholeSummary.datasets[0]!.id));
    expect(summary.datasets[0]?.lines).toBe(wholeSummary.datasets[0]?.lines);
  });

  it("reads a gzip file through the same path, line numbers and bytes included", async () => {
    const { gzipSync } = await import("node:zlib");
    const plain = readFileSync(path.join(WA, "wa_rollouts.jsonl"));
    const service = new DataService(inProcessPool(), () => {}, null, 100 * 1024);
    const summary = await service.load(
      [{ kind: "file", file: new File([gzipSync(plain)], "wa.jsonl.gz") }],
      null,
      never,
      ignore,
    );
    await service.settled();
    const id = summary.datasets[0]!.id;
    const original = plain.toString("utf8").split("\n");
    expect(summary.datasets[0]?.rows).toBe(original.filter((line) => line.trim() !== "").length);
    const bytes = await service.raw(id, 7);
    expect(new TextDecoder().decode(bytes!)).toBe(original[6]);
  });

  it("a fetched sample (plain or gzip) streams through the same path", async () => {
    const { gzipSync } = await import("node:zlib");
    const plain = readFileSync(path.join(WA, "wa_rollouts.jsonl"));
    for (const body of [plain, gzipSync(plain)]) {
      vi.stubGlobal("fetch", async () => new Response(new Blob([body]).stream()));
      const service = new DataService(inProcessPool(), () => {}, null, 100 * 1024);
      const summary = await service.load(
        [{ kind: "url", url: "/samples/x", name: "x.jsonl" }],
        null,
        never,
        ignore,
      );
      await service.settled();
      expect(summary.datasets[0]?.rows).toBe(114);
      expect(new TextDecoder().decode((await service.raw(summary.datasets[0]!.id, 114))!)).toBe(
        plain.toString("utf8").trimEnd().split("\n")[113],
      );
    }
    vi.unstubAllGlobals();
  });

  it("reports each bad line with its number and kind and keeps the good rows", async () => {
    const service = new DataService(inProcessPool());
    const summary = await open(service, path.join(ROOT, "e2e/fixtures/malformed.jsonl"));
    const dataset = summary.datasets[0]!;
    expect(dataset.rows).toBe(4);
    expect(dataset.errors.map((error) => [error.line, error.kind])).toEqual([
      [2, "parse"],
      [4, "schema"],
      [6, "schema"],
      [7, "parse"],
    ]);
    expect(dataset.errors[0]?.error).toMatch(/invalid JSON/);
    expect(dataset.errors[3]?.error).toMatch(/UTF-8/);
    expect(entries(service, dataset.id).map((entry) => entry.line)).toEqual([1, 3, 5, 8]);
  });

  it("a file of many bad lines: the summary carries the first SUMMARY_ERRORS and the count, the rest come in pages", async () => {
    const service = new DataService(inProcessPool());
    const good = readFileSync(noecho, "utf8").split("\n")[0]!;
    const bad = 1000;
    const text = `${good}\n${Array.from({ length: bad }, (_, i) => `not json ${i}`).join("\n")}\n`;
    const summary = await service.load(
      [{ kind: "file", file: new File([text], "bad.jsonl") }],
      null,
      never,
      ignore,
    );
    await service.settled();
    const dataset = service.session().datasets[0]!;
    expect(summary.datasets[0]?.error_count).toBe(bad);
    expect(dataset.error_count).toBe(bad);
    expect(dataset.errors.map((e) => e.line)).toEqual(
      Array.from({ length: SUMMARY_ERRORS }, (_, i) => i + 2),
    );
    const page = service.lineErrors(dataset.id, SUMMARY_ERRORS, 2 * SUMMARY_ERRORS);
    expect(page.total).toBe(bad);
    expect(page.errors.map((e) => e.line)).toEqual(
      Array.from({ length: SUMMARY_ERRORS }, (_, i) => i + 2 + SUMMARY_ERRORS),
    );
    expect(service.lineErrors(dataset.id, bad - 10, bad + 10).errors.map((e) => e.line)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + bad - 8),
    );
  });

  it("leaves the workspace as it was when a load is cancelled", async () => {
    const service = new DataService(inProcessPool());
    await open(service, path.join(ROOT, "e2e/fixtures/malformed.jsonl"));
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      service.load(
        [{ kind: "file", file: file(path.join(WA, "wa_rollouts.jsonl")) }],
        null,
        aborted.signal,
        ignore,
      ),
    ).rejects.toThrow();
    expect(service.session().datasets.map((dataset) => dataset.name)).toEqual(["malformed.jsonl"]);
    expect(service.session().files.map((dataset) => dataset.name)).toEqual(["malformed.jsonl"]);
  });

  it("uses the fallback server only for rows that name none, and an override for every row", async () => {
    const service = new DataService(inProcessPool());
    const ipi = path.join(ROOT, "fixtures/golden/ipi-rollouts/ipi_rollouts.jsonl");
    const summary = await service.load(
      [{ kind: "file", file: file(ipi) }],
      "indirect_prompt_injection",
      never,
      ignore,
    );
    await service.settled();
    const id = summary.datasets[0]!.id;
    expect(entries(service, id).every((entry) => entry.server === "indirect_prompt_injection")).toBe(true);
    service.reanalyze(id, "workplace_assistant", NO_HARNESS);
    await service.settled();
    expect(entries(service, id).every((entry) => entry.server === "workplace_assistant")).toBe(true);
  });

  it("a named harness adds alias diagnostics to the index: its own aliases agree, another harness's do not", async () => {
    const service = new DataService(inProcessPool());
    const summary = await open(service, path.join(WA, "wa_rollouts.jsonl"));
    const id = summary.datasets[0]!.id;
    const before = new Map(entries(service, id).map((entry) => [entry.line, entry.counts.mismatched]));
    service.reanalyze(id, null, { all: "claude-code", agents: {} });
    await service.settled();
    expect(service.session().datasets[0]?.harness).toBe("claude-code");
    const index = entries(service, id);
    const claude = index.filter((entry) => entry.agent === "claude_prov_agent");
    const hermes = index.filter((entry) => entry.agent === "hermes_prov_agent");
    expect(claude.length).toBeGreaterThan(0);
    expect(hermes.length).toBeGreaterThan(0);
    for (const entry of claude) expect(entry.counts.mismatched).toBe(before.get(entry.line));
    const sum = (rows: RolloutIndexEntry[], count: (entry: RolloutIndexEntry) => number) =>
      rows.reduce((total, entry) => total + count(entry), 0);
    expect(sum(hermes, (entry) => entry.counts.mismatched)).toBeGreaterThan(
      sum(hermes, (entry) => before.get(entry.line) ?? 0),
    );
  });

  it("a harness chosen for one agent never re-labels another agent's rows", async () => {
    const service = new DataService(inProcessPool());
    const summary = await open(service, path.join(WA, "wa_rollouts.jsonl"));
    const id = summary.datasets[0]!.id;
    const before = new Map(entries(service, id).map((entry) => [entry.line, entry.counts]));
    // The whole-file choice above turns hermes rows mismatched; the same harness for Claude Code's agent only
    // leaves every other agent's rows as they were.
    service.reanalyze(id, null, { all: null, agents: { claude_prov_agent: "claude-code" } });
    await service.settled();
    expect(service.session().datasets[0]?.harness).toBe("claude_prov_agent=claude-code");
    const index = entries(service, id);
    const others = index.filter((entry) => entry.agent !== "claude_prov_agent");
    expect(others.some((entry) => entry.agent === "hermes_prov_agent")).toBe(true);
    for (const entry of others) expect(entry.counts).toEqual(before.get(entry.line));
    const whole = new DataService(inProcessPool());
    const wholeId = (await open(whole, path.join(WA, "wa_rollouts.jsonl"))).datasets[0]!.id;
    whole.reanalyze(wholeId, null, { all: "claude-code", agents: {} });
    await whole.settled();
    // Claude Code's own rows read the same under the per-agent choice as under the whole-file one.
    const wholeCounts = new Map(entries(whole, wholeId).map((entry) => [entry.line, entry.counts]));
    for (const entry of index.filter((e) => e.agent === "claude_prov_agent"))
      expect(entry.counts).toEqual(wholeCounts.get(entry.line));
  });

  it("finds lines by any text they contain, case-insensitively, across search chunks", async () => {
    const service = new DataService(inProcessPool(), () => {}, null, 64 * 1024);
    const summary = await open(service, path.join(WA, "wa_rollouts.jsonl"));
    const rows = jsonl(path.join(WA, "wa_rollouts.jsonl"));
    const agent = z.object({ agent_ref: z.object({ name: z.string() }) });
    const expected = rows.flatMap((row, index) =>
      agent.parse(row).agent_ref.name === "near_miss_agent" ? [index + 1] : [],
    );
    const partial: number[][] = [];
    const found = await service.search(summary.datasets[0]!.id, "NEAR_MISS_AGENT", never, (p) =>
      partial.push(p.lines),
    );
    expect(found.lines).toEqual(expected);
    expect(partial.length).toBeGreaterThan(0);
  });

  it("detail: one view whose calls each carry their own resolution under both policies", async () => {
    const service = new DataService(inProcessPool());
    const summary = await open(service, path.join(WA, "wa_rollouts.jsonl"));
    const id = summary.datasets[0]!.id;
    for (const entry of entries(service, id).slice(0, 20)) {
      const opened = await service.detail(id, entry.line, null, null);
      expect(opened).not.toBeNull();
      const { view } = opened!;
      const items = opened!.items(0, view.item_count);
      const calls = items.flatMap((item) => (item.kind === "call" ? [item] : []));
      expect(calls).toHaveLength(opened!.calls(0, view.call_count).length);
      expect(view.call_count).toBe(calls.length);
      expect(view.item_count).toBe(items.length);
      for (const call of calls) {
        expect(call.contract?.output_index).toBe(call.output_index);
        expect(call.legacy?.output_index).toBe(call.output_index);
        expect(call.contract?.emitted).toBe(call.name);
        expect(items[view.call_items[call.call_index]!]).toEqual(call);
      }
      const verification = await service.detailVerification(id, entry.line, null, null);
      expect(verification?.contract.reward).toBe(entry.contract);
      expect(verification?.legacy.reward).toBe(entry.legacy);
      // The verification never carries the calls: they reach the page a range at a time.
      expect(verification !== null && "calls" in verification.contract.resolution).toBe(false);
    }
  });
});

describe("transcript", () => {
  it("pairs each output with its call by call_id, in order, also for repeated call_ids", () => {
    const read = readRollout({
      response: {
        output: [
          { type: "function_call", name: "a", call_id: "x", arguments: "{}" },
          { type: "function_call", name: "b", call_id: "x", arguments: "{}" },
          { type: "function_call_output", call_id: "x", output: "first" },
          { type: "function_call_output", call_id: "x", output: "second" },
          { type: "function_call_output", call_id: "orphan", output: "lost" },
          { type: "function_call", name: "c", arguments: "{}" },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] },
        ],
      },
    });
    if (!read.ok) throw new Error(read.issues.join("; "));
    const items = transcript(read.rollout);
    expect(
      items.map((item) =>
        item.kind === "call"
          ? `${item.name}:${item.output}`
          : item.kind === "output"
            ? `unpaired:${item.output}`
            : item.kind,
      ),
    ).toEqual(["a:first", "b:second", "unpaired:lost", "c:null", "message"]);
  });
});

describe("DataService.restore", () => {
  it("reopens a kept file with the fallback server it was loaded with: the same rewards", async () => {
    const kept = new Map<string, { name: string; blob: Blob; fallbackServer: string | null }>();
    const persistence = {
      save: async (id: string, name: string, blob: Blob, fallbackServer: string | null) => {
        kept.set(id, { name, blob, fallbackServer });
      },
      open: async (id: string) => kept.get(id) ?? null,
      recent: async () => [],
    };
    // Multireward's example rollouts name no server: only the sample's declared server verifies them.
    const sample = path.join(ROOT, "public/samples/gym-example_tool_call_multireward-example_rollouts.jsonl");
    const first = new DataService(inProcessPool(), () => {}, persistence);
    const loaded = await first.load(
      [{ kind: "file", file: file(sample) }],
      "example_tool_call_multireward",
      never,
      ignore,
    );
    await first.settled();
    const id = loaded.datasets[0]?.id ?? "";
    await vi.waitFor(() => expect(kept.has(id)).toBe(true));
    const before = entries(first, id).map((e) => [e.server_source, e.contract, e.legacy]);
    expect(before.length).toBe(5);
    // The lines lack expected_call and pair no inputs row: unverified (a default is never scored, #17).
    expect(before.every(([source, contract]) => source === "sample" && contract === null)).toBe(true);

    const second = new DataService(inProcessPool(), () => {}, persistence);
    const restored = await second.restore([id], never, ignore);
    await second.settled();
    expect(restored.datasets[0]?.fallback_server).toBe("example_tool_call_multireward");
    expect(entries(second, id).map((e) => [e.server_source, e.contract, e.legacy])).toEqual(before);
  });
});

describe("DataService.reopen", () => {
  it("reopens a kept file into the store only, by id, once however often it is asked", async () => {
    const kept = new Map<string, { name: string; blob: Blob; fallbackServer: string | null }>();
    const persistence = {
      save: async (id: string, name: string, blob: Blob, fallbackServer: string | null) => {
        kept.set(id, { name, blob, fallbackServer });
      },
      open: vi.fn(async (id: string) => kept.get(id) ?? null),
      recent: async () => [],
    };
    const first = new DataService(inProcessPool(), () => {}, persistence);
    const loaded = await first.load([{ kind: "file", file: file(noecho) }], null, never, ignore);
    const id = loaded.datasets[0]?.id ?? "";
    await vi.waitFor(() => expect(kept.has(id)).toBe(true));

    const second = new DataService(inProcessPool(), () => {}, persistence);
    const [a, b] = await Promise.all([second.reopen(id, never), second.reopen(id, never)]);
    expect(a).toBe(b);
    expect(a?.name).toBe("wa_noecho.jsonl");
    expect(persistence.open).toHaveBeenCalledTimes(1);
    expect(second.get(id)?.indexed).toBe(true);
    expect(await second.reopen("d-gone", never)).toBeUndefined();
  });
});

describe("DataService: a served file that grows (cli view)", () => {
  async function until(check: () => boolean): Promise<void> {
    for (let waited = 0; !check(); waited += 50) {
      if (waited > 10_000) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("appends new complete lines with their rewards; a partial line waits; a shrunk file is said", async () => {
    const whole = readFileSync(noecho);
    const lineEnds = [...whole.entries()].flatMap(([at, byte]) => (byte === 0x0a ? [at + 1] : []));
    const cut = lineEnds[2]! + 20;
    const served = servedFile(whole.subarray(0, cut));
    vi.stubGlobal("fetch", served.fetcher);
    try {
      const service = new DataService(inProcessPool());
      const loaded = await service.load(
        [
          { kind: "file", file: file(inputsFile) },
          { kind: "remote", url: "/f", name: "wa.jsonl" },
        ],
        null,
        never,
        ignore,
      );
      await service.settled();
      const id = loaded.datasets.find((dataset) => dataset.kind === "rollouts")!.id;
      expect(entries(service, id)).toHaveLength(3);
      expect(service.get(id)?.summary().follow).toEqual({ following: true, waiting_bytes: 0, problem: null });
      await until(() => service.get(id)?.summary().follow?.waiting_bytes === 20);

      served.set(whole);
      await until(() => entries(service, id).length === lineEnds.length);
      await service.settled();
      const expected = expectedNoecho();
      const rows = entries(service, id);
      expect(rows.map((row) => row.line)).toEqual(lineEnds.map((_, i) => i + 1));
      expect(rows.map((row) => row.contract)).toEqual(expected.map((row) => row.contract.reward));
      expect(service.get(id)?.summary().follow?.waiting_bytes).toBe(0);

      served.set(whole.subarray(0, lineEnds[0]!));
      await until(() => service.get(id)?.summary().follow?.problem != null);
      expect(service.get(id)?.summary().follow?.problem).toMatch(/shrank/);
      expect(entries(service, id)).toHaveLength(lineEnds.length);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("DataService: a local file picked again", () => {
  it("appends the lines a grown file gained to the open file; a changed file opens anew", async () => {
    const whole = readFileSync(noecho);
    const lineEnds = [...whole.entries()].flatMap(([at, byte]) => (byte === 0x0a ? [at + 1] : []));
    const service = new DataService(inProcessPool());
    await service.load([{ kind: "file", file: file(inputsFile) }], null, never, ignore);
    const first = await service.load(
      [{ kind: "file", file: new File([whole.subarray(0, lineEnds[2]!)], "run.jsonl") }],
      null,
      never,
      ignore,
    );
    await service.settled();
    const id = first.datasets.find((dataset) => dataset.kind === "rollouts")!.id;
    expect(entries(service, id)).toHaveLength(3);

    const grown = await service.load(
      [{ kind: "file", file: new File([whole], "run.jsonl") }],
      null,
      never,
      ignore,
    );
    await service.settled();
    expect(grown.datasets.filter((dataset) => dataset.kind === "rollouts").map((d) => d.id)).toEqual([id]);
    const rows = entries(service, id);
    expect(rows).toHaveLength(lineEnds.length);
    expect(rows.map((row) => row.contract)).toEqual(expectedNoecho().map((row) => row.contract.reward));
    expect(new TextDecoder().decode((await service.raw(id, lineEnds.length))!)).toBe(
      whole.subarray(lineEnds[lineEnds.length - 2]!, lineEnds[lineEnds.length - 1]! - 1).toString(),
    );

    const changed = Buffer.concat([Buffer.from("{}\n"), whole]);
    const other = await service.load(
      [{ kind: "file", file: new File([changed], "run.jsonl") }],
      null,
      never,
      ignore,
    );
    expect(other.datasets.some((dataset) => dataset.id === id)).toBe(false);
  });
});
