/**
 * Where a command's output goes: stdout, or a file given with --out written so that a user's file is
 * never destroyed.
 *
 * - The output is written to a temporary file in the target's own directory and renamed into place
 *   only when the command succeeds (rename within one directory is atomic on POSIX). A failed or
 *   interrupted command leaves the old target, if any, untouched and no partial output.
 * - An output that IS one of the inputs, by file identity (device + inode after following links:
 *   a symlink to the input, a hard link, an input given through a symlink), is refused with a usage
 *   error before anything is opened for writing. Comparing path strings misses all three.
 * - An --out that is a symlink to an existing file replaces that file (the link is kept); a target
 *   that exists and is not a regular file (/dev/null, a FIFO) is written directly, since renaming
 *   over a device node would replace the node itself.
 */
import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { unlinkSync } from "node:fs";
import { type FileHandle, open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { concatBytes } from "../lib/export";
import { CliError, reasonOf } from "./errors";
import { onInterrupt } from "./interrupt";
import type { CommandIo } from "./io";

/** Bytes gathered before one write: a line-by-line export would otherwise be one system call per line. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/** Gathers small writes into WRITE_BATCH_BYTES batches for `sink`. */
function batched(sink: (bytes: Uint8Array) => Promise<unknown>) {
  let parts: Uint8Array[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const batch = parts.length === 1 ? parts[0]! : concatBytes(parts);
    parts = [];
    size = 0;
    await sink(batch);
  };
  return {
    async write(bytes: Uint8Array) {
      parts.push(bytes);
      size += bytes.length;
      if (size >= WRITE_BATCH_BYTES) await flush();
    },
    flush,
  };
}

export interface ByteOutput {
  write(bytes: Uint8Array): Promise<void>;
  /** The command succeeded: make the output visible (flush, rename the temporary file into place). */
  commit(): Promise<void>;
  /** The command failed: drop what was written. Never throws. */
  abort(): Promise<void>;
}

function stdoutOutput(io: CommandIo): ByteOutput {
  // Stream mode keeps a multi-byte sequence split across writes intact.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const out = batched(async (bytes) => {
    const text = decoder.decode(bytes, { stream: true });
    if (text !== "") await io.stdout.write(text);
  });
  return {
    write: out.write,
    async commit() {
      await out.flush();
      const rest = decoder.decode();
      if (rest !== "") await io.stdout.write(rest);
    },
    async abort() {},
  };
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch (error) {
    if (isCode(error, "ENOENT") || isCode(error, "ENOTDIR")) return null;
    throw new CliError("usage", `cannot write ${path}: ${reasonOf(error)}`, { cause: error });
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === code;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * The path the output really lands on: an existing --out is followed through its links; a new one is
 * placed in the real directory its parent resolves to.
 */
async function targetPath(out: string): Promise<string> {
  try {
    return await realpath(out);
  } catch (error) {
    if (!isCode(error, "ENOENT")) throw new CliError("usage", `cannot write ${out}: ${reasonOf(error)}`);
  }
  try {
    return join(await realpath(dirname(resolve(out))), basename(out));
  } catch (error) {
    throw new CliError("usage", `cannot write ${out}: ${reasonOf(error)}`, { cause: error });
  }
}

/**
 * stdout (through the CommandIo sink, so tests capture it) when `out` is undefined or "-", otherwise
 * the file `out`, written as raw bytes so even invalid UTF-8 in an untouched line comes back exactly.
 * `inputs` are every file the command reads; `out` must not be any of them.
 * Throws a CliError of kind "usage" (exit 2) when `out` is an input or cannot be written.
 */
export async function openOutput(
  out: string | undefined,
  inputs: readonly string[],
  io: CommandIo,
): Promise<ByteOutput> {
  if (out === undefined || out === "-") return stdoutOutput(io);
  const target = await targetPath(out);
  const existing = await statOrNull(target);
  if (existing !== null) {
    if (existing.isDirectory()) throw new CliError("usage", `cannot write ${out}: is a directory`);
    for (const input of inputs) {
      const read = await statOrNull(input);
      if (read !== null && sameFile(read, existing))
        throw new CliError("usage", `--out ${out} is the input file ${input}; write to another path`);
    }
    if (!existing.isFile()) return directOutput(out, target);
  }
  return atomicOutput(out, target, existing);
}

/**
 * The write loop of every command with an --out: opens the output (see openOutput), runs `write` on it and
 * commits it when `write` returns. When `write` (or the commit) throws, the output is aborted, so no partial
 * file is left, and the error goes on. When the output cannot be opened, `source` (the input stream already
 * opened) is cancelled first, so its file is closed.
 */
export async function writeOutput<T>(
  out: string | undefined,
  inputs: readonly string[],
  io: CommandIo,
  source: ReadableStream<Uint8Array> | null,
  write: (output: ByteOutput) => Promise<T>,
): Promise<T> {
  const output = await openOutput(out, inputs, io).catch(async (error: unknown) => {
    await source?.cancel();
    throw error;
  });
  try {
    const result = await write(output);
    await output.commit();
    return result;
  } catch (error) {
    await output.abort();
    throw error;
  }
}

/** A device or FIFO: written in place (there is nothing to lose by truncating it). */
async function directOutput(out: string, target: string): Promise<ByteOutput> {
  let handle: FileHandle;
  try {
    handle = await open(target, "w");
  } catch (error) {
    throw new CliError("usage", `cannot write ${out}: ${reasonOf(error)}`, { cause: error });
  }
  const batch = batched((bytes) => handle.write(bytes));
  return {
    write: batch.write,
    async commit() {
      await batch.flush();
      await handle.close();
    },
    async abort() {
      await handle.close().catch(() => {});
    },
  };
}

async function atomicOutput(out: string, target: string, existing: Stats | null): Promise<ByteOutput> {
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  // A replaced file keeps its permission bits; a new one gets the usual 0666 minus umask.
  const mode = existing === null ? 0o666 : existing.mode & 0o7777;
  let handle: FileHandle;
  try {
    handle = await open(temp, "wx", mode);
  } catch (error) {
    throw new CliError("usage", `cannot write ${out}: ${reasonOf(error)}`, { cause: error });
  }
  // An interrupt before the rename removes the temporary file (cli/interrupt.ts); the target stays as it was.
  const forget = onInterrupt(() => {
    try {
      unlinkSync(temp);
    } catch {
      // Already gone.
    }
  });
  let closed = false;
  const discard = async () => {
    if (!closed) {
      closed = true;
      await handle.close().catch(() => {});
    }
    await unlink(temp).catch(() => {});
    forget();
  };
  const batch = batched((bytes) => handle.write(bytes));
  return {
    write: batch.write,
    async commit() {
      try {
        await batch.flush();
        if (existing !== null) await handle.chmod(mode);
        await handle.datasync();
        closed = true;
        await handle.close();
        await rename(temp, target);
        forget();
      } catch (error) {
        await discard();
        throw new CliError("failed", `cannot write ${out}: ${reasonOf(error)}`, { cause: error });
      }
    },
    abort: discard,
  };
}
