/**
 * Opened files kept in the origin-private file system (OPFS), so a reload restores a tab's files and the
 * landing page can offer recent ones. Each file is stored decompressed (what the store reads lines from),
 * beside a small JSON record of its name, when it was last opened, and the verifying server it was loaded
 * with for rows that name none (a bundled sample's), so rewards after a reload equal those before it.
 */
import { z } from "zod";
import type { KeptFiles } from "./persistence";
import type { RecentFile } from "./protocol";

/** Files kept at most; the least recently opened go first. */
export const MAX_KEPT_FILES = 12;
/** Bytes kept at most (a few of the largest files this tool is measured with). */
export const MAX_KEPT_BYTES = 4 * 1024 ** 3;

const DIRECTORY = "files";

const RecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  bytes: z.number(),
  opened: z.number(),
  // Records written before it was kept have none: such a file was not a sample, or is verified without.
  fallback_server: z.string().nullable().default(null),
});
type StoredRecord = z.infer<typeof RecordSchema>;

async function directory(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(DIRECTORY, { create: true });
}

async function writeText(dir: FileSystemDirectoryHandle, name: string, text: string): Promise<void> {
  const handle = await dir.getFileHandle(name, { create: true });
  const writable = await handle.createWritable();
  await writable.write(text);
  await writable.close();
}

async function readRecord(dir: FileSystemDirectoryHandle, id: string): Promise<StoredRecord | null> {
  try {
    const file = await (await dir.getFileHandle(`${id}.json`)).getFile();
    const parsed = RecordSchema.safeParse(JSON.parse(await file.text()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function records(dir: FileSystemDirectoryHandle): Promise<StoredRecord[]> {
  const ids: string[] = [];
  for await (const name of dir.keys()) if (name.endsWith(".json")) ids.push(name.slice(0, -".json".length));
  const found = await Promise.all(ids.map((id) => readRecord(dir, id)));
  return found.flatMap((record) => (record ? [record] : [])).sort((a, b) => b.opened - a.opened);
}

async function remove(dir: FileSystemDirectoryHandle, id: string): Promise<void> {
  await dir.removeEntry(`${id}.json`).catch(() => {});
  await dir.removeEntry(`${id}.jsonl`).catch(() => {});
}

/** A kept copy is written in slices this large (bench/blob-reads.md: a read costs ~2 ms whatever its size). */
const SAVE_SLICE_BYTES = 8 * 1024 * 1024;

/** Null where the browser has no OPFS (then nothing survives a reload, and nothing else changes). */
export function opfsKeptFiles(): KeptFiles | null {
  if (typeof navigator === "undefined" || !navigator.storage?.getDirectory) return null;
  return {
    async save(id, name, blob, fallbackServer, idle) {
      const dir = await directory();
      const handle = await dir.getFileHandle(`${id}.jsonl`, { create: true });
      const writable = await handle.createWritable();
      // A Blob is written by the browser itself, without passing through this worker's heap: a slice at a
      // time, each after any search reading the file (`idle`), which the copy slowed.
      for (let at = 0; at < blob.size; at += SAVE_SLICE_BYTES) {
        await idle?.();
        await writable.write(blob.slice(at, at + SAVE_SLICE_BYTES));
      }
      await writable.close();
      const record: StoredRecord = {
        id,
        name,
        bytes: blob.size,
        opened: Date.now(),
        fallback_server: fallbackServer,
      };
      await writeText(dir, `${id}.json`, JSON.stringify(record));
      let total = 0;
      for (const [index, record] of (await records(dir)).entries()) {
        total += record.bytes;
        if (index >= MAX_KEPT_FILES || total > MAX_KEPT_BYTES) await remove(dir, record.id);
      }
    },
    async open(id) {
      const dir = await directory();
      const record = await readRecord(dir, id);
      if (record === null) return null;
      try {
        const blob = await (await dir.getFileHandle(`${id}.jsonl`)).getFile();
        await writeText(dir, `${id}.json`, JSON.stringify({ ...record, opened: Date.now() }));
        return { name: record.name, blob, fallbackServer: record.fallback_server };
      } catch {
        return null;
      }
    },
    async recent(): Promise<RecentFile[]> {
      return (await records(await directory())).map(({ id, name, bytes, opened }) => ({
        id,
        name,
        bytes,
        opened,
      }));
    },
  };
}
