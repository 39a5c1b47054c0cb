/**
 * The search scheduler (./search-scheduler.ts): matches across many ranges, streamed as they come; the
 * lines' search filters spare reading; a cancelled search sends no more ranges.
 */
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { inProcessPool, type Pool } from "./pool";
import { defaultSearchLimits, SharedSearches, searchDataset } from "./search-scheduler";
import { DataService } from "./service";
import { indexedDataset, jsonl, never, open, WA } from "./test-files";

describe("search over a loaded file", () => {
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
});

describe("searching in ranges", () => {
  const lines = Array.from({ length: 400 }, (_, i) =>
    JSON.stringify({
      responses_create_params: { input: [] },
      response: { output: [] },
      reward: 0,
      note: `row ${i} ${i % 7 === 0 ? "Rare_Term" : "common"}`,
    }),
  );
  const text = `${lines.join("\n")}\n`;

  async function loaded(pool: Pool): Promise<{ service: DataService; id: string }> {
    const service = new DataService(pool);
    service.searchLimits.chunkBytes = 2048;
    service.searchLimits.maxGapBytes = 0;
    const summary = await service.load(
      [{ kind: "file", file: new File([text], "rows.jsonl") }],
      null,
      new AbortController().signal,
      () => {},
    );
    const id = summary.datasets[0]?.id;
    if (id === undefined) throw new Error("nothing loaded");
    return { service, id };
  }

  it("finds every matching line over many ranges, streaming partial results that only grow", async () => {
    const { service, id } = await loaded(inProcessPool());
    const partial: number[][] = [];
    const found = await service.search(id, "rare_term", new AbortController().signal, (p) =>
      partial.push(p.lines),
    );
    expect(found.lines).toEqual(lines.flatMap((_, i) => (i % 7 === 0 ? [i + 1] : [])));
    expect(partial.length).toBeGreaterThan(0);
    for (const [i, lines] of partial.entries())
      expect(lines.length).toBeGreaterThan(partial[i - 1]?.length ?? 0);
  });

  it("once rewards are in, reads only the lines whose filter may hold the text, and finds the same lines", async () => {
    const base = inProcessPool();
    let read = 0;
    const counting: Pool = {
      ...base,
      search: (job) => {
        read += job.end - job.start;
        return base.search(job);
      },
    };
    const { service, id } = await loaded(counting);
    await service.settled();
    // Filters are built after the rewards (./rewards-scheduler.ts).
    await vi.waitFor(() => expect(service.get(id)?.searchFilters.size).toBe(lines.length));
    const found = await service.search(id, "rare_term", new AbortController().signal, () => {});
    expect(found.lines).toEqual(lines.flatMap((_, i) => (i % 7 === 0 ? [i + 1] : [])));
    expect(read).toBeLessThan(text.length / 2);
    // Text the filters cannot answer for (shorter than 3 bytes) reads every line.
    read = 0;
    const short = await service.search(id, "_t", new AbortController().signal, () => {});
    expect(short.lines).toEqual(found.lines);
    expect(read).toBeGreaterThan(text.length * 0.9);
  });

  it("a cancelled search sends no more ranges to the pool and rejects as cancelled", async () => {
    const counted = countedPool();
    const { service, id } = await loaded(counted.pool);
    const all = await service.search(id, "common", new AbortController().signal, () => {});
    expect(all.lines.length).toBeGreaterThan(0);
    const total = counted.jobs;
    expect(total).toBeGreaterThan(10);
    counted.jobs = 0;
    const abort = new AbortController();
    // Another text than the answer kept for "common": this one is searched anew.
    const search = service.search(id, "row", abort.signal, () => abort.abort());
    await expect(search).rejects.toMatchObject({ name: "AbortError" });
    // The lanes in flight when the first result came finish their range; nothing after that is sent.
    expect(counted.jobs).toBeLessThanOrEqual(2);
  });

  it("one pool search answers every caller asking the same text at once; one cancelling leaves the others theirs", async () => {
    const counted = countedPool();
    const { service, id } = await loaded(counted.pool);
    await service.settled();
    const alone = await service.search(id, "common", new AbortController().signal, () => {});
    const once = counted.jobs;
    expect(once).toBeGreaterThan(10);
    // The answer is kept: asked again, no range is read.
    expect(await service.search(id, "common", new AbortController().signal, () => {})).toEqual(alone);
    expect(counted.jobs).toBe(once);

    counted.jobs = 0;
    const leaving = new AbortController();
    const partial: number[][] = [];
    const first = service.search(id, "row", new AbortController().signal, (p) => partial.push(p.lines));
    const cancelled = service.search(id, "row", leaving.signal, () => leaving.abort());
    const second = service.search(id, "row", new AbortController().signal, () => {});
    await expect(cancelled).rejects.toMatchObject({ name: "AbortError" });
    const [a, b] = await Promise.all([first, second]);
    expect(a.lines).toHaveLength(lines.length);
    expect(b).toEqual(a);
    expect(partial.length).toBeGreaterThan(0);
    // One search's ranges, not three: as many as one caller's search of the same lines.
    const shared = counted.jobs;
    counted.jobs = 0;
    expect(await service.search(id, "ROW", new AbortController().signal, () => {})).toEqual(a);
    expect(shared).toBe(counted.jobs);
  });
});

/** The in-process pool on one worker, its search jobs counted in `jobs`. */
function countedPool(): { pool: Pool; jobs: number } {
  const base = inProcessPool();
  const counted = { pool: base, jobs: 0 };
  counted.pool = {
    ...base,
    size: 1,
    search: (job) => {
      counted.jobs++;
      return base.search(job);
    },
  };
  return counted;
}

describe("searchDataset", () => {
  it("says when a search is reading the file, and when the last one ends", async () => {
    const dataset = await indexedDataset("d-1", path.join(WA, "wa_rollouts.jsonl"));
    const pending: { finish?: () => void } = {};
    let idle = 0;
    const searches = new SharedSearches(
      () =>
        new Promise<{ lines: number[] }>((resolve) => {
          pending.finish = () => resolve({ lines: [] });
        }),
      () => idle++,
    );
    expect(searches.busy()).toBe(false);
    // Work waiting for the searches (the kept copy, the content hash) goes on at once when none runs...
    let waited = false;
    await searches.whenIdle().then(() => {
      waited = true;
    });
    expect(waited).toBe(true);
    const answer = searches.search(dataset, "call", never, () => {});
    expect(searches.busy()).toBe(true);
    // ...and once the running one ends.
    waited = false;
    const waiting = searches.whenIdle().then(() => {
      waited = true;
    });
    await Promise.resolve();
    expect(waited).toBe(false);
    expect(idle).toBe(0);
    pending.finish?.();
    await answer;
    await waiting;
    expect(waited).toBe(true);
    expect(searches.busy()).toBe(false);
    expect(idle).toBe(1);
  });

  it("an empty text finds nothing and sends no job", async () => {
    const dataset = await indexedDataset("d-1", path.join(WA, "wa_rollouts.jsonl"));
    let jobs = 0;
    const pool = {
      size: 2,
      search: async () => {
        jobs++;
        return [];
      },
    };
    expect(await searchDataset(dataset, "", pool, defaultSearchLimits(), never, () => {})).toEqual({
      lines: [],
    });
    expect(jobs).toBe(0);
  });
});
