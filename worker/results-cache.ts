/**
 * Computed results kept across a reload: a reopened file shows its rewards, causes and run rows at once
 * instead of "pending" for the seconds a recomputation takes. Each file's results are kept in the
 * origin-private file system under the SHA-256 of its (decompressed) content, the project's version and the
 * build (next.config.mjs sets BUILD_STAMP), so results of another file, version or build are never read;
 * every row is validated by zod on read, and a cache that does not validate is ignored (recomputed).
 *
 * Only results of the file's default analysis are kept (no server chosen, no harness, no inputs file
 * paired): another choice recomputes, as it does without a cache.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { z } from "zod";
import { rolloutRowOf } from "../lib/run";
import { ZERO_CAUSES } from "../lib/triage";
import { SERVER_SOURCES, UNVERIFIED_CODES } from "../lib/verify";
import type { AnalyzedRollout } from "./core";

/** Bumped when the kept form (or the content hash) changes. */
export const RESULTS_CACHE_FORMAT = 7;
/** The project's version and build: results computed by other code are never trusted. */
export const BUILD_STAMP = `${process.env.NEXT_PUBLIC_PROJECT_VERSION ?? "dev"}+${process.env.NEXT_PUBLIC_BUILD_STAMP ?? "dev"}`;
/** Bytes hashed at a time (a slice of the Blob is read, hashed and dropped). */
export const HASH_CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * Rows kept at most per file: the kept results are one JSON document (about 1.9 KB a row, and at most
 * ~1.5 KB more for a rollout not verified here: its 16 counted fields), so a file with more rollouts than
 * this is recomputed after a reload instead. At this bound the document is ~184 MiB (~330 MiB at most), under
 * V8's longest string, and reads back in seconds against minutes of recomputation
 * (bench/results-cache.md).
 */
export const MAX_CACHED_ROWS = 100_000;

const DIRECTORY = "results";

const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();

/** A run row (lib/run RunRow); the list's row is the part of it rolloutRowOf keeps, so it is kept once. */
const RunRowSchema = z.object({
  line: z.number().int(),
  task_index: nullableNumber,
  rollout_index: nullableNumber,
  task_id: nullableString,
  task: nullableString,
  agent: nullableString,
  environment: nullableString,
  recorded: nullableNumber,
  key: nullableString,
  server: nullableString,
  server_source: z.enum(SERVER_SOURCES),
  contract: nullableNumber,
  legacy: nullableNumber,
  unverified: z.enum(UNVERIFIED_CODES).nullable(),
  legacy_unverified: z.enum(UNVERIFIED_CODES).nullable(),
  calls: z.number().int(),
  map_state: z.enum(["unknown", "authoritative", "invalid"]),
  gym_would_reject: z.boolean().nullable(),
  error: nullableString,
  paired: z.boolean(),
  paired_by: z.enum(["index", "input", "none"]),
  model: nullableString,
  cause: z.enum(ZERO_CAUSES).nullable(),
  cause_sentence: nullableString,
  reproduced_by: z.enum(["both", "contract", "legacy", "neither"]).nullable(),
  drift: nullableString,
  decisive_calls: z.array(z.number().int()).readonly(),
  what_if_map: nullableString,
  text_call: z.boolean(),
  signature: nullableString,
  flags: z.array(z.string()).readonly(),
  input_tokens: nullableNumber,
  output_tokens: nullableNumber,
  total_tokens: nullableNumber,
  cached_tokens: nullableNumber,
  reasoning_tokens: nullableNumber,
  recorded_fields: z.array(z.object({ key: z.string(), value: z.string() })).readonly(),
});

const CountsSchema = z.object({
  ambiguous: z.number(),
  mismatched: z.number(),
  external: z.number(),
  none: z.number(),
});

const KeptSchema = z.object({
  format: z.literal(RESULTS_CACHE_FORMAT),
  key: z.string(),
  rows: z.array(z.object({ run: RunRowSchema, counts: CountsSchema, emitted: z.array(z.string()) })),
});

/** Every field of a run row is in the schema: a field added to RunRow fails typecheck here. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Kept = z.infer<typeof KeptSchema>["rows"][number];
const runRowsMatch: Same<Kept["run"], AnalyzedRollout["run"]> = true;
void runRowsMatch;

/** SHA-256 of some bytes: the platform's (native, ~10x faster) where there is one, else @noble/hashes. */
async function digest(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const subtle = globalThis.crypto?.subtle;
  return subtle ? new Uint8Array(await subtle.digest("SHA-256", bytes)) : sha256(bytes);
}

/**
 * A Blob's content hash, read a slice at a time: the SHA-256 of its bytes when it is one slice, else the
 * SHA-256 of its slices' SHA-256 digests (WebCrypto hashes only whole buffers; in JavaScript, hashing a 1 GB
 * file took the data worker 5 s after its rewards).
 */
export async function contentHash(blob: Blob, idle?: () => Promise<void>): Promise<string> {
  if (blob.size <= HASH_CHUNK_BYTES)
    return bytesToHex(await digest(new Uint8Array(await blob.arrayBuffer())));
  const digests = new Uint8Array(Math.ceil(blob.size / HASH_CHUNK_BYTES) * 32);
  let at = 0;
  for await (const slice of slicesOf(blob)) {
    digests.set(await digest(slice), at);
    at += 32;
    // Between slices, the file's reads wait for a search's (Keeper's idle).
    await idle?.();
  }
  return bytesToHex(await digest(digests));
}

/**
 * The Blob's bytes HASH_CHUNK_BYTES at a time (the last slice shorter), each valid until the next is asked
 * for. Read into one buffer, over and over, where the Blob's stream takes a buffer to fill (a BYOB reader):
 * a new ArrayBuffer per slice left the whole file in dead buffers for the garbage collector, which let the
 * data worker's memory grow by up to 160 MiB while a 300 MB file was hashed (bench/search.md).
 */
async function* slicesOf(blob: Blob): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const stream = blob.stream();
  let reader: ReadableStreamBYOBReader;
  try {
    reader = stream.getReader({ mode: "byob" });
  } catch {
    await stream.cancel();
    for (let at = 0; at < blob.size; at += HASH_CHUNK_BYTES)
      yield new Uint8Array(await blob.slice(at, at + HASH_CHUNK_BYTES).arrayBuffer());
    return;
  }
  let buffer = new ArrayBuffer(HASH_CHUNK_BYTES);
  let filled = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer, filled, HASH_CHUNK_BYTES - filled));
      // The buffer read into comes back with the bytes (a BYOB read moves it).
      if (value) {
        buffer = value.buffer;
        filled += value.byteLength;
      }
      if (filled === HASH_CHUNK_BYTES || (done && filled > 0)) {
        yield new Uint8Array(buffer, 0, filled);
        filled = 0;
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

/** What the kept results are valid for: the content, how rows that name no server are verified, the build. */
export function resultsKey(hash: string, fallbackServer: string | null): string {
  return JSON.stringify([hash, fallbackServer, BUILD_STAMP]);
}

/** Where results are kept: OPFS in a browser; tests give a map. */
export interface ResultsStore {
  read(name: string): Promise<string | null>;
  write(name: string, text: string): Promise<void>;
}

function fileName(key: string): string {
  return `${bytesToHex(sha256(new TextEncoder().encode(key)))}.json`;
}

/** The kept results for this key, validated; null when none are kept or they do not validate. */
export async function readResults(store: ResultsStore, key: string): Promise<AnalyzedRollout[] | null> {
  const text = await store.read(fileName(key)).catch(() => null);
  return text === null ? null : parseResults(text, key);
}

/** The rows of a kept document, validated; null when it does not parse or validate, or is another key's. */
export function parseResults(text: string, key: string): AnalyzedRollout[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = KeptSchema.safeParse(value);
  if (!parsed.success || parsed.data.key !== key) return null;
  return parsed.data.rows.map(({ run, counts, emitted }) => ({
    entry: { ...rolloutRowOf(run), counts, rewards: "done" },
    run,
    emitted,
  }));
}

export async function writeResults(
  store: ResultsStore,
  key: string,
  rows: readonly AnalyzedRollout[],
): Promise<void> {
  if (rows.length > MAX_CACHED_ROWS) return;
  await store.write(fileName(key), resultsDocument(key, rows));
}

/** The document kept for these rows (bench/results-cache.bench.ts measures it past MAX_CACHED_ROWS too). */
export function resultsDocument(key: string, rows: readonly AnalyzedRollout[]): string {
  const kept = rows.map(({ entry, run, emitted }) => ({ run, counts: entry.counts, emitted }));
  return JSON.stringify({ format: RESULTS_CACHE_FORMAT, key, rows: kept });
}

/** The browser's store (OPFS), or null where there is none. */
export function opfsResults(): ResultsStore | null {
  if (typeof navigator === "undefined" || !navigator.storage?.getDirectory) return null;
  const directory = async () =>
    (await navigator.storage.getDirectory()).getDirectoryHandle(DIRECTORY, { create: true });
  return {
    async read(name) {
      try {
        return await (await (await directory()).getFileHandle(name)).getFile().then((file) => file.text());
      } catch {
        return null;
      }
    },
    async write(name, text) {
      const handle = await (await directory()).getFileHandle(name, { create: true });
      const writable = await handle.createWritable();
      await writable.write(text);
      await writable.close();
    },
  };
}
