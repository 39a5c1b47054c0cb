/**
 * Lines of a JSONL file kept byte for byte, for lossless export.
 *
 * `readJsonl` is built for viewing: it drops blank lines, strips the BOM and "\r", and does not keep
 * the bytes of oversized lines. Export must write every byte back, so it splits with the same
 * `LineSplitter` and parses with the same `parseJsonLine`, but keeps each line's exact bytes and
 * whether a "\n" followed it.
 */
import { gunzipIfGzip, LineSplitter, type ParseResult, parseJsonLine, streamChunks } from "../jsonl";

const LF = 0x0a;
const CR = 0x0d;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Longest line export keeps. A longer line could not be written back byte for byte without
 * buffering it, so it is an error rather than a silent loss. Same bound as readJsonl.
 */
export const MAX_EXPORT_LINE_BYTES = 256 * 1024 * 1024;

export interface SourceLine {
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** The line exactly as in the file, without its "\n" (a "\r" before it, and a BOM on line 1, stay). */
  readonly bytes: Uint8Array;
  /** False only for a last line that the file does not end with "\n". */
  readonly newline: boolean;
  /** null for a blank line (only spaces, tabs or "\r"). */
  readonly parsed: ParseResult | null;
}

const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The bytes a parser and the editor should see: no BOM (line 1 only), no trailing "\r". */
export function contentRange(src: Pick<SourceLine, "bytes" | "offset">): { start: number; end: number } {
  const b = src.bytes;
  const start =
    src.offset === 0 && b[0] === UTF8_BOM[0] && b[1] === UTF8_BOM[1] && b[2] === UTF8_BOM[2] ? 3 : 0;
  const end = b.length > start && b[b.length - 1] === CR ? b.length - 1 : b.length;
  return { start, end };
}

function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  return true;
}

function parseLine(bytes: Uint8Array, offset: number): ParseResult | null {
  const { start, end } = contentRange({ bytes, offset });
  const content = bytes.subarray(start, end);
  if (isBlank(content)) return null;
  let text: string;
  try {
    text = fatalDecoder.decode(content);
  } catch {
    return { ok: false, error: "invalid UTF-8 in line" };
  }
  return parseJsonLine(text);
}

function toSourceLine(line: number, offset: number, bytes: Uint8Array, newline: boolean): SourceLine {
  return { line, offset, bytes, newline, parsed: parseLine(bytes, offset) };
}

/** Splits a whole file held in memory. `file` must be uncompressed. */
export function splitSourceLines(file: Uint8Array): SourceLine[] {
  const out: SourceLine[] = [];
  let start = 0;
  let line = 1;
  while (start < file.length) {
    const nl = file.indexOf(LF, start);
    const end = nl === -1 ? file.length : nl;
    out.push(toSourceLine(line, start, file.subarray(start, end), nl !== -1));
    line++;
    start = end + 1;
  }
  return out;
}

/**
 * Streams a file's lines. A gzip file (detected by its magic bytes) is decompressed: losslessness
 * then refers to the decompressed bytes. A line longer than MAX_EXPORT_LINE_BYTES throws, naming it.
 */
export async function* readSourceLines(
  source: ReadableStream<Uint8Array>,
  maxLineBytes: number = MAX_EXPORT_LINE_BYTES,
): AsyncGenerator<SourceLine> {
  const splitter = new LineSplitter(maxLineBytes);
  for await (const chunk of gunzipIfGzip(streamChunks(source))) {
    for (const raw of splitter.push(chunk)) {
      if (raw.oversized) throw tooLong(raw.line, raw.length);
      yield toSourceLine(raw.line, raw.offset, raw.bytes, true);
    }
  }
  const last = splitter.end();
  if (last !== null) {
    if (last.oversized) throw tooLong(last.line, last.length);
    yield toSourceLine(last.line, last.offset, last.bytes, false);
  }
}

function tooLong(line: number, length: number): Error {
  return new Error(`line ${line} is too long to export losslessly (${length} bytes)`);
}
