/**
 * One opened rollout (./detail.ts): its calls each carry their own resolution under both policies, and its
 * verification (from the pool) gives the row's rewards without the calls.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readDetail, verifyInPool } from "./detail";
import { inProcessPool } from "./pool";
import { DataService } from "./service";
import { entries, indexedDataset, open, ROOT, WA } from "./test-files";

describe("detail", () => {
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
      const verification = (await service.detailVerification(id, entry.line, null, null))?.view ?? null;
      expect(verification?.contract.reward).toBe(entry.contract);
      expect(verification?.legacy.reward).toBe(entry.legacy);
      // The verification never carries the calls: they reach the page a range at a time.
      expect(verification !== null && "calls" in verification.contract.resolution).toBe(false);
    }
  });
});

describe("a line that is no rollout", () => {
  it("opens nothing and is not verified: a bad line, a line past the end", async () => {
    const dataset = await indexedDataset("d-1", path.join(ROOT, "e2e/fixtures/malformed.jsonl"));
    let verified = 0;
    const pool = {
      verifyDetail: async () => {
        verified++;
        return null;
      },
    };
    for (const line of [2, 4, 99]) {
      expect(await readDetail(dataset, line, null, null)).toBeNull();
      expect(await verifyInPool(pool, dataset, line, null, null)).toBeNull();
    }
    expect(verified).toBe(0);
    expect(await readDetail(dataset, 1, null, null)).not.toBeNull();
  });
});
