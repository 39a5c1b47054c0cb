/** Opens a file as a Web byte stream for lib/jsonl, with one-line errors for the CLI. */
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";

/** Large reads keep per-chunk overhead low on multi-gigabyte files; memory stays one chunk. */
const READ_CHUNK_BYTES = 1024 * 1024;

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  ENOTDIR: "no such file",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ELOOP: "too many symbolic links",
  EMFILE: "too many open files",
};

/**
 * Opens `path` for streaming. Throws an Error whose message is one line, `cannot read PATH: REASON`, when
 * the path is missing, a directory or unreadable. Opening first (rather than letting the stream open
 * lazily) makes those errors surface here, not halfway through a read.
 */
export async function openFileStream(path: string): Promise<ReadableStream<Uint8Array>> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw new Error(`cannot read ${path}: ${reasonOf(error)}`, { cause: error });
  }
  try {
    if ((await handle.stat()).isDirectory())
      throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  } catch (error) {
    await handle.close();
    throw new Error(`cannot read ${path}: ${reasonOf(error)}`, { cause: error });
  }
  const nodeStream = handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
  return toWebBytes(nodeStream);
}

function toWebBytes(nodeStream: Readable): ReadableStream<Uint8Array> {
  // Node's own web-stream type and the DOM lib's ReadableStream are the same class at run time.
  const web: ReadableStream<Uint8Array> = Readable.toWeb(nodeStream);
  return web;
}

function reasonOf(error: unknown): string {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  if (typeof code === "string" && code in REASONS) return REASONS[code]!;
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
