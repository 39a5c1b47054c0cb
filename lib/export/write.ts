/**
 * Lossless JSONL rewriting: an operation says, per parsed line, which top-level keys it sets; every
 * other line, and every other byte of a changed line, is written exactly as read.
 */
import { concatBytes, editTopLevel, type TopLevelEdit } from "./edit";
import { contentRange, type SourceLine } from "./lines";

const NEWLINE = new Uint8Array([0x0a]);

/**
 * Decides the edits for one parsed line. `raw` is the line's content bytes (no BOM, no "\r"), for
 * operations that need an original token (e.g. to keep a number's format). Return null or [] to keep
 * the line unchanged.
 */
export type LineOperation = (value: unknown, line: number, raw: Uint8Array) => readonly TopLevelEdit[] | null;

export interface WrittenLine {
  readonly line: number;
  /** The bytes to write, "\n" included when the source had one. */
  readonly bytes: Uint8Array;
  readonly changed: boolean;
  /** Why the line was written unchanged although the operation wanted to change it. */
  readonly error?: string;
}

function withNewline(bytes: Uint8Array, newline: boolean): Uint8Array {
  return newline ? concatBytes([bytes, NEWLINE]) : bytes;
}

/** Applies `op` to one source line. Blank and unparseable lines pass through unchanged. */
export function writeLine(src: SourceLine, op: LineOperation): WrittenLine {
  const unchanged = (error?: string): WrittenLine => ({
    line: src.line,
    bytes: withNewline(src.bytes, src.newline),
    changed: false,
    ...(error === undefined ? {} : { error }),
  });
  if (src.parsed === null || !src.parsed.ok) return unchanged();
  const { start, end } = contentRange(src);
  const content = src.bytes.subarray(start, end);
  const edits = op(src.parsed.value, src.line, content);
  if (edits === null || edits.length === 0) return unchanged();
  const edited = editTopLevel(content, edits);
  if (!edited.ok) return unchanged(`line ${src.line}: not edited (${edited.error})`);
  const bytes = concatBytes([src.bytes.subarray(0, start), edited.bytes, src.bytes.subarray(end)]);
  return { line: src.line, bytes: withNewline(bytes, src.newline), changed: true };
}

/** Applies `op` to every line, in order. */
export async function* writeJsonl(
  lines: AsyncIterable<SourceLine> | Iterable<SourceLine>,
  op: LineOperation,
): AsyncGenerator<WrittenLine> {
  for await (const src of lines) yield writeLine(src, op);
}

/** Synchronous variant for a file held in memory. */
export function writeJsonlSync(lines: Iterable<SourceLine>, op: LineOperation): WrittenLine[] {
  const out: WrittenLine[] = [];
  for (const src of lines) out.push(writeLine(src, op));
  return out;
}

/** The identity operation: exporting with it must give back the exact input bytes. */
export const KEEP: LineOperation = () => null;
