/**
 * Errors a command reports on one line, with a kind that decides the exit code (README: 2 for an
 * unusable argument or a missing file, 1 when the work itself failed).
 */
import type { GzipError } from "../lib/jsonl";
import type { CommandIo } from "./io";

/**
 * usage: an unusable argument or a missing file (exit 2); failed: the work itself failed (exit 1); stopped:
 * reading a file stopped part way (damaged gzip data), its lines before the damage read: a command that reads
 * several files says so and goes on with the others, and exits 1 once done.
 */
export type CliErrorKind = "usage" | "failed" | "stopped";

export class CliError extends Error {
  constructor(
    readonly kind: CliErrorKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "CliError";
  }
}

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  ENOTDIR: "no such file",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  ELOOP: "too many symbolic links",
  EMFILE: "too many open files",
};

/** A short reason for a Node file-system error: its code in words, else its message's first line. */
export function reasonOf(error: unknown): string {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  if (typeof code === "string" && code in REASONS) return REASONS[code]!;
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}

export function exitCodeOf(error: unknown): number {
  return error instanceof CliError && error.kind === "usage" ? 2 : 1;
}

/** Writes `error: MESSAGE` to stderr and returns the exit code for it. */
export async function reportError(error: unknown, io: CommandIo): Promise<number> {
  await io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return exitCodeOf(error);
}

/** Reading a file stopped part way at damaged gzip data (cli/open namingFile): what was read before it stands. */
export class ReadStopped extends CliError {
  constructor(
    message: string,
    /** The damage, with the line the reader stopped at. */
    readonly damage: GzipError,
  ) {
    super("stopped", message, { cause: damage });
  }
}

export function isReadStopped(error: unknown): error is ReadStopped {
  return error instanceof ReadStopped;
}
