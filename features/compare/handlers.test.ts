/** /compare's worker side over the one store: a followed file (cli view) that grew is compared as it is now. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { inProcessPool } from "@/worker/pool";
import { DataService } from "@/worker/service";
import { lineEnds, loadServed, servedFile, until } from "@/worker/test-served";
import { compareHandlers } from "./handlers";

const WA = path.resolve(__dirname, "../../fixtures/golden/workplace-rollouts/wa_noecho.jsonl");
const never = new AbortController().signal;
const context = { signal: never, progress: () => {}, transfer: () => {} };

describe("a followed file on /compare", () => {
  it("is read again once it grew: its summary counts the new rollouts", async () => {
    const whole = readFileSync(WA);
    const ends = lineEnds(whole);
    const served = servedFile(whole.subarray(0, ends[2]));
    vi.stubGlobal("fetch", served.fetcher);
    try {
      const service = new DataService(inProcessPool());
      const loaded = await loadServed(service, [{ url: "/f", name: "run.jsonl" }]);
      const id = loaded.datasets[0]?.id ?? "";
      const handlers = compareHandlers(service);
      expect((await handlers.file({ ref: id, sample: false }, context)).rollouts).toBe(3);
      served.set(whole);
      await until(() => service.get(id)?.summary().rows === ends.length);
      const grown = await handlers.file({ ref: id, sample: false }, context);
      expect(grown.rollouts).toBe(ends.length);
      expect(grown.bytes).toBe(whole.length);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
