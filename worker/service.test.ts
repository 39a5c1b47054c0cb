/**
 * The data service's own requests (./service.ts): re-analysis with another server or harness recomputes
 * every row's rewards. Each part's tests sit next to it (workspace, sources, pairing, persistence,
 * rewards-scheduler, search-scheduler, detail).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NO_HARNESS } from "@/lib/harness";
import type { RolloutIndexEntry } from "@/worker/protocol";
import { inProcessPool } from "./pool";
import { DataService } from "./service";
import { entries, file, ignore, never, open, ROOT, WA } from "./test-files";

describe("DataService.reanalyze", () => {
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
    const before = new Map(entries(service, id).map((entry) => [entry.line, entry.counts?.mismatched]));
    service.reanalyze(id, null, { all: "claude-code", agents: {} });
    await service.settled();
    expect(service.session().datasets[0]?.harness).toBe("claude-code");
    const index = entries(service, id);
    const claude = index.filter((entry) => entry.agent === "claude_prov_agent");
    const hermes = index.filter((entry) => entry.agent === "hermes_prov_agent");
    expect(claude.length).toBeGreaterThan(0);
    expect(hermes.length).toBeGreaterThan(0);
    for (const entry of claude) expect(entry.counts?.mismatched).toBe(before.get(entry.line));
    const sum = (rows: RolloutIndexEntry[], count: (entry: RolloutIndexEntry) => number) =>
      rows.reduce((total, entry) => total + count(entry), 0);
    expect(sum(hermes, (entry) => entry.counts?.mismatched ?? 0)).toBeGreaterThan(
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
});

describe("DataService.changes", () => {
  it("pages the rows changed after a revision, in line order, and the pages add up to one answer", async () => {
    const service = new DataService(inProcessPool());
    const summary = await open(service, path.join(WA, "wa_noecho.jsonl"));
    const id = summary.datasets[0]!.id;
    const whole = service.changes(id, 0);
    expect(whole.next).toBeNull();
    expect(whole.entries.length).toBeGreaterThan(20);

    const paged: RolloutIndexEntry[] = [];
    const nexts: (number | null)[] = [];
    for (let after: number | null = 0; after !== null; ) {
      const page = service.changes(id, 0, after, 20);
      expect(page.entries.length).toBeLessThanOrEqual(20);
      expect(page.revision).toBe(whole.revision);
      paged.push(...page.entries);
      nexts.push(page.next);
      after = page.next;
    }
    expect(paged).toEqual(whole.entries);
    // A page ends at its last row's line, and the last page says none is left (no empty page after it).
    expect(nexts).toEqual(
      [20, 40, null].map((n, i) => (n === null ? null : whole.entries[20 * (i + 1) - 1]!.line)),
    );

    // Nothing changed since the current revision: one empty page.
    expect(service.changes(id, whole.revision, 0, 20)).toEqual({
      entries: [],
      revision: whole.revision,
      next: null,
    });
  });
});
