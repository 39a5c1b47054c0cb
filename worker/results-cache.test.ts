/**
 * Kept results (./results-cache.ts): a reopened file gets its computed rows back before any reward is
 * computed again, only for the same content, project version and build, and never from a cache that does
 * not validate.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildTriageRun } from "../scripts/gen-triage-run";
import { inProcessPool, type Pool } from "./pool";
import type { LoadProgress } from "./protocol";
import { contentHash, HASH_CHUNK_BYTES, type ResultsStore, readResults, resultsKey } from "./results-cache";
import { DataService } from "./service";

const run = buildTriageRun();
const never = new AbortController().signal;
const ignore = (_: LoadProgress) => {};

function memoryStores() {
  const files = new Map<string, { name: string; blob: Blob; fallbackServer: string | null }>();
  const results = new Map<string, string>();
  const persistence = {
    save: async (id: string, name: string, blob: Blob, fallbackServer: string | null) => {
      files.set(id, { name, blob, fallbackServer });
    },
    open: async (id: string) => files.get(id) ?? null,
    recent: async () => [],
  };
  const store: ResultsStore = {
    read: async (name) => results.get(name) ?? null,
    write: async (name, text) => {
      results.set(name, text);
    },
  };
  return { files, results, persistence, store };
}

/** The in-process pool, counting the rollouts whose rewards it computes. */
function countingPool(): { pool: Pool; rewarded: () => number } {
  const inner = inProcessPool();
  let rewarded = 0;
  return {
    pool: {
      ...inner,
      rewards: (job) => {
        rewarded += job.lines.length;
        return inner.rewards(job);
      },
    },
    rewarded: () => rewarded,
  };
}

async function loadAndKeep(stores: ReturnType<typeof memoryStores>) {
  const first = new DataService(inProcessPool(), () => {}, stores.persistence, undefined, stores.store);
  const loaded = await first.load(
    [{ kind: "file", file: new File([run.text], "triage-run.jsonl") }],
    null,
    never,
    ignore,
  );
  await first.settled();
  const id = loaded.datasets[0]?.id ?? "";
  await expect.poll(() => stores.results.size).toBe(1);
  await expect.poll(() => stores.files.has(id)).toBe(true);
  return { first, id };
}

describe("kept results", () => {
  it("a reopened file has every row's results before any reward is computed again, equal to the computed ones", async () => {
    const stores = memoryStores();
    const { first, id } = await loadAndKeep(stores);
    const counting = countingPool();
    const second = new DataService(counting.pool, () => {}, stores.persistence, undefined, stores.store);
    await second.restore([id], never, ignore);
    const dataset = second.get(id);
    // Right when the restore returns: nothing pending, nothing recomputed.
    expect(dataset?.pendingRewards.size).toBe(0);
    await second.settled();
    expect(counting.rewarded()).toBe(0);
    const a = first.get(id);
    expect([...(dataset?.entries.values() ?? [])]).toEqual([...(a?.entries.values() ?? [])]);
    expect([...(dataset?.runRows.values() ?? [])]).toEqual([...(a?.runRows.values() ?? [])]);
  });

  it("a cache that does not validate, or kept for other content, is recomputed", async () => {
    const stores = memoryStores();
    const { id } = await loadAndKeep(stores);
    const [name, text] = [...stores.results][0] ?? ["", ""];
    // One row's cause renamed: the schema refuses it, so every row is computed again.
    stores.results.set(name, text.replace(/"cause":"tool_failed"/, '"cause":"bogus"'));
    const counting = countingPool();
    const second = new DataService(counting.pool, () => {}, stores.persistence, undefined, stores.store);
    await second.restore([id], never, ignore);
    await second.settled();
    expect(counting.rewarded()).toBe(run.intents.length);
    // Results are read back only under the key of the same content.
    const blob = new Blob([run.text]);
    const other = new Blob([`${run.text}\n`]);
    const key = resultsKey(await contentHash(blob), null);
    expect(key).not.toBe(resultsKey(await contentHash(other), null));
    expect(await readResults(stores.store, resultsKey(await contentHash(other), null))).toBeNull();
  });

  it("hashes content as SHA-256 (a known digest)", async () => {
    const bytes = readFileSync(path.join(__dirname, "../package.json"));
    expect(await contentHash(new Blob([bytes]))).toMatch(/^[0-9a-f]{64}$/);
    expect(await contentHash(new Blob(["abc"]))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("hashes a file of several slices as the SHA-256 of its slices' digests: a change in any slice changes it", async () => {
    const big = new Uint8Array(HASH_CHUNK_BYTES * 2 + 10).fill(0x61);
    const slices = [
      big.subarray(0, HASH_CHUNK_BYTES),
      big.subarray(HASH_CHUNK_BYTES, HASH_CHUNK_BYTES * 2),
      big.subarray(HASH_CHUNK_BYTES * 2),
    ];
    const digests = Buffer.concat(slices.map((slice) => createHash("sha256").update(slice).digest()));
    expect(await contentHash(new Blob([big]))).toBe(createHash("sha256").update(digests).digest("hex"));
    const changed = big.slice();
    changed[HASH_CHUNK_BYTES + 5] = 0x62;
    expect(await contentHash(new Blob([changed]))).not.toBe(await contentHash(new Blob([big])));
    // Waiting between its slices (for a search reading the file) changes nothing but when it reads.
    let waits = 0;
    const idle = async () => {
      waits++;
    };
    expect(await contentHash(new Blob([big]), idle)).toBe(await contentHash(new Blob([big])));
    expect(waits).toBe(slices.length);
  });

  it("hashes the same, whatever the Blob's parts, and where its stream cannot fill a given buffer", async () => {
    const bytes = new Uint8Array(HASH_CHUNK_BYTES * 3 + 12345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    const slices = [0, 1, 2, 3].map((i) => bytes.subarray(i * HASH_CHUNK_BYTES, (i + 1) * HASH_CHUNK_BYTES));
    const expected = createHash("sha256")
      .update(Buffer.concat(slices.map((slice) => createHash("sha256").update(slice).digest())))
      .digest("hex");
    const parts = [
      bytes.subarray(0, 1000),
      bytes.subarray(1000, HASH_CHUNK_BYTES + 7),
      bytes.subarray(HASH_CHUNK_BYTES + 7),
    ];
    expect(await contentHash(new Blob(parts))).toBe(expected);
    // A stream of plain chunks (no BYOB reader): the Blob is read a slice at a time instead.
    const plain = new Blob(parts);
    plain.stream = () => new ReadableStream({ start: (controller) => controller.close() });
    expect(await contentHash(plain)).toBe(expected);
  });
});
