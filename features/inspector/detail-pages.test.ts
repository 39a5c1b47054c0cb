/**
 * The detail pane's pages: one opened rollout answers its summary and every range of its calls and items
 * (opened once, however many requests arrive while it opens), ranges are clamped, the cache is bounded
 * and a failed open is retried. The last test opens a 100k-call rollout through the data service.
 */
import { describe, expect, it, vi } from "vitest";
import { badgeAt } from "@/lib/triage";
import { longRolloutLine, realisticLongRollout } from "@/scripts/gen-hostile";
import { BADGED_CALLS, LISTED_DECISIVE, type OpenedDetail } from "@/worker/core";
import { inProcessPool } from "@/worker/pool";
import type { CallView, DetailParams, DetailView, TranscriptItem, VerifiedDetail } from "@/worker/protocol";
import { DataService } from "@/worker/service";
import { DETAIL_CACHE_SIZE, DetailPages, MAX_DETAIL_RANGE } from "./detail-pages";

const params = (line: number, analysis = 0): DetailParams => ({
  dataset: "d",
  line,
  server: null,
  harness: null,
  analysis,
});

/** A fake opened rollout whose rows say which line and row they are. */
function opened(line: number, rows: number): OpenedDetail {
  const view = { line, call_count: rows, item_count: rows } as unknown as DetailView;
  const calls = Array.from({ length: rows }, (_, i) => ({ tag: `${line}:${i}` }) as unknown as CallView);
  const items = Array.from(
    { length: rows },
    (_, i) => ({ tag: `${line}:${i}` }) as unknown as TranscriptItem,
  );
  const range = <T>(rows: readonly T[], start: number, end: number) =>
    rows.slice(Math.max(0, start), Math.min(end, Math.max(0, start) + MAX_DETAIL_RANGE));
  return {
    view,
    calls: (start, end) => range(calls, start, end),
    items: (start, end) => range(items, start, end),
  };
}

/** A one-file data service with `text` loaded, its detail pages, and the params of line 1. */
async function openedFile(text: string) {
  const service = new DataService(inProcessPool());
  const summary = await service.load(
    [{ kind: "file", file: new File([text], "long.jsonl") }],
    null,
    new AbortController().signal,
    () => {},
  );
  const pages = new DetailPages(
    ({ dataset, line, server, harness }) => service.detail(dataset, line, server, harness),
    ({ dataset, line, server, harness }) => service.detailVerification(dataset, line, server, harness),
  );
  return {
    pages,
    p: { dataset: summary.datasets[0]!.id, line: 1, server: null, harness: null, analysis: 0 },
  };
}

const noVerification = async (): Promise<VerifiedDetail | null> => null;

const tags = (rows: readonly unknown[] | null) => rows?.map((row) => (row as { tag: string }).tag) ?? null;

describe("DetailPages", () => {
  it("opens a rollout once for its summary and every range requested while it opens", async () => {
    const open = vi.fn(async (p: DetailParams) => opened(p.line, 250));
    const pages = new DetailPages(open, noVerification);
    const [summary, calls, items] = await Promise.all([
      pages.summary(params(3)),
      pages.calls(params(3), 100, 103),
      pages.items(params(3), 248, 400),
    ]);
    expect(summary?.line).toBe(3);
    expect(tags(calls)).toEqual(["3:100", "3:101", "3:102"]);
    expect(tags(items)).toEqual(["3:248", "3:249"]);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it("clamps a range to the rows there are and to MAX_DETAIL_RANGE", async () => {
    const pages = new DetailPages(async (p) => opened(p.line, MAX_DETAIL_RANGE * 3), noVerification);
    expect(await pages.calls(params(1), -5, 2)).toHaveLength(2);
    expect(await pages.calls(params(1), 0, MAX_DETAIL_RANGE * 3)).toHaveLength(MAX_DETAIL_RANGE);
    expect(await pages.items(params(1), MAX_DETAIL_RANGE * 3, MAX_DETAIL_RANGE * 4)).toEqual([]);
  });

  it("keeps the DETAIL_CACHE_SIZE most recently used rollouts; another analysis revision is another rollout", async () => {
    const open = vi.fn(async (p: DetailParams) => opened(p.line, 1));
    const pages = new DetailPages(open, noVerification);
    for (let line = 1; line <= DETAIL_CACHE_SIZE; line++) await pages.summary(params(line));
    await pages.summary(params(1)); // line 1 is now the most recent
    await pages.summary(params(99)); // evicts line 2
    expect(open).toHaveBeenCalledTimes(DETAIL_CACHE_SIZE + 1);
    await pages.summary(params(1));
    expect(open).toHaveBeenCalledTimes(DETAIL_CACHE_SIZE + 1);
    await pages.summary(params(2));
    expect(open).toHaveBeenCalledTimes(DETAIL_CACHE_SIZE + 2);
    await pages.summary(params(2, 1));
    expect(open).toHaveBeenCalledTimes(DETAIL_CACHE_SIZE + 3);
  });

  it("answers null for a line that is not a rollout, and opens again after a failure", async () => {
    let fail = true;
    const pages = new DetailPages(async (p) => {
      if (fail) throw new Error("read failed");
      return p.line === 7 ? null : opened(p.line, 1);
    }, noVerification);
    await expect(pages.summary(params(1))).rejects.toThrow("read failed");
    fail = false;
    expect(await pages.summary(params(1))).not.toBeNull();
    expect(await pages.summary(params(7))).toBeNull();
    expect(await pages.calls(params(7), 0, 10)).toBeNull();
  });

  it("a 100k-call rollout: the summary carries counts and each call's transcript position, not the rows", async () => {
    const { pages, p } = await openedFile(longRolloutLine(100_000, 1, "c"));
    const view = await pages.summary(p);
    expect(view?.call_count).toBe(100_000);
    // Each call's output is paired with it, so the transcript is the calls.
    expect(view?.item_count).toBe(100_000);
    expect(view?.call_items[99_999]).toBe(99_999);
    // What crosses to the page at once stays small (structured clone of the summary).
    expect(JSON.stringify(view).length).toBeLessThan(2_000_000);
    const last = await pages.calls(p, 99_990, 100_000);
    expect(last?.map((call) => call.contract.call_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `c${99_990 + i}`),
    );
    const items = await pages.items(p, 5, 6);
    expect(items?.[0]).toMatchObject({ kind: "call", call_index: 5, call_id: "c5", output: "ok" });
  }, 120_000);

  it("a realistic 100k-call rollout (provenance entry per call, aliases, tools, ground truth): pages are built on demand, verification comes apart and bounded", async () => {
    const { pages, p } = await openedFile(
      `${JSON.stringify(realisticLongRollout(100_000, { harness: "hermes-legacy", distinctArguments: true, reasoning: true }))}\n`,
    );
    const view = await pages.summary(p);
    expect(view?.call_count).toBe(100_000);
    // A reasoning item before every call, the outputs paired with their calls, one closing message.
    expect(view?.item_count).toBe(200_001);
    expect(view?.call_items[99_999]).toBe(199_999);
    // Calls cycle through reply, find address, event information: call 99 999 is a reply.
    const [call] = (await pages.calls(p, 99_999, 100_000)) ?? [];
    expect(call?.contract).toMatchObject({
      status: "canonical",
      verifier_name: "email_reply_email",
    });
    expect(call?.legacy?.status).toBe("bare");
    const [item] = (await pages.items(p, 199_999, 200_000)) ?? [];
    expect(item).toMatchObject({ kind: "call", call_index: 99_999, contract: { status: "canonical" } });
    const verification = await pages.verification(p);
    expect(verification?.contract.reward).toBe(0);
    const legacy = verification?.legacy.details;
    // Under legacy every call is an unknown Hermes alias: 100k skipped calls, listed 50, counted all.
    expect(legacy?.kind === "workplace_assistant" && legacy.skippedTotal).toBe(100_000);
    expect(legacy?.kind === "workplace_assistant" && legacy.skipped.length).toBe(50);
    const contract = verification?.contract.details;
    const emails =
      contract?.kind === "workplace_assistant"
        ? contract.tables.find((t) => t.table === "emails")
        : undefined;
    expect(emails?.totals.onlyPredicted).toBeGreaterThan(30_000);
    expect(emails?.onlyPredicted.length).toBe(8);
    // What crosses to the page at once stays small, both the summary and the verification.
    expect(JSON.stringify({ ...view, call_items: [] }).length).toBeLessThan(100_000);
    expect(JSON.stringify(verification).length).toBeLessThan(200_000);
    // Every call's outcome badge is there a page at a time, the last ones too, each page bounded.
    const first = verification?.badges;
    expect(first?.kinds.length).toBe(BADGED_CALLS);
    const tail = await pages.badges(p, 99_900, 100_000);
    expect(tail?.start).toBe(99_900);
    expect(tail?.kinds.length).toBe(100);
    for (let index = 99_900; index < 100_000; index++)
      expect(badgeAt(tail ?? undefined, index)?.kind, `call ${index}`).toBeDefined();
    expect((await pages.badges(p, 0, 100_000))?.kinds.length).toBe(MAX_DETAIL_RANGE);
    expect(JSON.stringify(await pages.badges(p, 50_000, 51_000)).length).toBeLessThan(200_000);
    // Every decisive call is reachable: the view lists the first ones, the rest come a page at a time.
    const triage = verification?.triage;
    const total = triage?.decisive_total ?? 0;
    expect(triage?.decisive).toHaveLength(Math.min(total, LISTED_DECISIVE));
    if (total > LISTED_DECISIVE) {
      const last = await pages.decisive(p, total - 10, total);
      expect(last).toHaveLength(10);
      expect(last?.[9]?.index).toBeLessThan(100_000);
      expect((await pages.decisive(p, LISTED_DECISIVE, LISTED_DECISIVE + 1))?.[0]?.index).toBeGreaterThan(
        triage?.decisive.at(-1)?.index ?? -1,
      );
    }
  }, 300_000);
});
