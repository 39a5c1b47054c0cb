/** Opens a file as a Web byte stream for lib/jsonl, with one-line errors for the CLI. */
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { noRolloutProblem, SNIFF_BYTES } from "../lib/filekind";
import { headToRead, type LineKind, MAX_WHOLE_FILE_BYTES, runFileAlone } from "../lib/folder";
import { GzipError, gzipDamageText } from "../lib/jsonl";
import { CliError, ReadStopped, reasonOf } from "./errors";
import type { CommandIo } from "./io";

/** Large reads keep per-chunk overhead low on multi-gigabyte files; memory stays one chunk. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Opens `path` for streaming. Throws a usage CliError (exit 2) whose message is one line,
 * `cannot read PATH: REASON`, when the path is missing, a directory or unreadable. Opening first (rather than letting the stream open
 * lazily) makes those errors surface here, not halfway through a read.
 */
export async function openFileStream(path: string): Promise<ReadableStream<Uint8Array>> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw new CliError("usage", `cannot read ${path}: ${reasonOf(error)}`, { cause: error });
  }
  try {
    if ((await handle.stat()).isDirectory())
      throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  } catch (error) {
    await handle.close();
    throw new CliError("usage", `cannot read ${path}: ${reasonOf(error)}`, { cause: error });
  }
  const nodeStream = handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
  return toWebBytes(nodeStream);
}

function toWebBytes(nodeStream: Readable): ReadableStream<Uint8Array> {
  // Node's own web-stream type and the DOM lib's ReadableStream are the same class at run time.
  const web: ReadableStream<Uint8Array> = Readable.toWeb(nodeStream);
  return web;
}

/**
 * Passes `items` through; damaged gzip data in `path` becomes `reading PATH stopped: <what, where>`, so
 * the one-line error names the file as well as the byte offset and the reason.
 */
export async function* namingFile<T>(path: string, items: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* items;
  } catch (error) {
    if (error instanceof GzipError)
      throw new ReadStopped(`reading ${path} stopped: ${damageText(error)}`, error);
    throw error;
  }
}

/** A gzip's damage in words, saying that lines before it were read only when there were some. */
export function damageText(error: GzipError): string {
  return gzipDamageText(error, error.line === null || error.line > 1);
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * What FILE is instead of rollouts JSONL (lib/filekind noRolloutProblem), from the kinds of its lines and
 * its first bytes; null when its lines say it line by line, or for gzip data whose lines say nothing.
 */
export async function notRolloutsMessage(path: string, kinds: Iterable<LineKind>): Promise<string | null> {
  const handle = await open(path, "r");
  try {
    // A Gym config or metrics file given alone: said as a folder reads it (lib/folder runFileAlone).
    if (headToRead(path) === "whole" && (await handle.stat()).size <= MAX_WHOLE_FILE_BYTES) {
      const alone = runFileAlone({
        path: basename(path),
        head: (await handle.readFile()).toString("utf8"),
        complete: true,
      });
      if (alone !== null) return alone;
    }
    const start = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(start, 0, SNIFF_BYTES, 0);
    const bytes = start.subarray(0, bytesRead);
    const problem = noRolloutProblem(bytes, kinds);
    // Compressed bytes say nothing about the text inside; the kinds of its lines may.
    if (problem?.kind !== "task_rows" && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1])
      return null;
    return problem?.message ?? null;
  } finally {
    await handle.close();
  }
}

/**
 * For a FILE that held no rollout at all (empty, CSV, task rows, ...): one line on stderr saying what it is
 * instead. `kinds`: the kinds of its lines that were not rollouts (lib/folder LineKind).
 */
export async function sayNotRollouts(path: string, io: CommandIo, kinds: Iterable<LineKind>): Promise<void> {
  const problem = await notRolloutsMessage(path, kinds);
  if (problem !== null) await io.stderr.write(`${path}: ${problem}\n`);
}
