/**
 * Byte-level line splitting. Lines end at 0x0A; only the unfinished tail of a chunk is carried to the
 * next one, as byte arrays, so memory stays at one line plus one chunk whatever the file size.
 */

const LF = 0x0a;

/** One line as found in the byte stream, before any decoding. */
export interface RawLine {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the stream. */
  offset: number;
  /** The line's bytes without the terminating "\n" (a "\r" before it is still there). */
  bytes: Uint8Array;
  /** Byte length without "\n"; differs from bytes.length only when the line was too long to keep. */
  length: number;
  /** True when the line exceeded the splitter's limit: `bytes` is empty and the line was skipped. */
  oversized: boolean;
  /** True for the stream's last line when no "\n" ends it (a file Gym wrote, or one cut short). */
  unterminated?: boolean;
}

const EMPTY = new Uint8Array(0);

export class LineSplitter {
  private parts: Uint8Array[] = [];
  private partsLength = 0;
  /** Bytes of the current line seen so far, including any dropped for an oversized line. */
  private lineLength = 0;
  private oversized = false;
  private lineNumber = 1;
  private lineOffset = 0;

  /** @param maxLineBytes lines longer than this are reported as oversized instead of being buffered. */
  constructor(private readonly maxLineBytes: number) {}

  /** Line number and byte offset of the line not yet finished (the next one the splitter will return). */
  get pending(): { line: number; offset: number } {
    return { line: this.lineNumber, offset: this.lineOffset };
  }

  /** Feeds one chunk; returns the lines it completes, in order. The chunk must not be mutated afterwards. */
  push(chunk: Uint8Array): RawLine[] {
    const lines: RawLine[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(LF, start);
      if (newline === -1) break;
      lines.push(this.finish(chunk.subarray(start, newline)));
      start = newline + 1;
    }
    if (start < chunk.length) this.carry(chunk.subarray(start));
    return lines;
  }

  /** Ends the stream: returns the last line when the stream did not end with "\n". */
  end(): RawLine | null {
    if (this.lineLength === 0) return null;
    return { ...this.finish(EMPTY), unterminated: true };
  }

  private carry(tail: Uint8Array): void {
    this.lineLength += tail.length;
    if (this.oversized) return;
    if (this.lineLength > this.maxLineBytes) {
      this.oversized = true;
      this.parts = [];
      this.partsLength = 0;
      return;
    }
    this.parts.push(tail);
    this.partsLength += tail.length;
  }

  private finish(last: Uint8Array): RawLine {
    const length = this.lineLength + last.length;
    const oversized = this.oversized || length > this.maxLineBytes;
    let bytes: Uint8Array;
    if (oversized) bytes = EMPTY;
    else if (this.parts.length === 0) bytes = last;
    else bytes = concat(this.parts, this.partsLength, last);
    const raw: RawLine = { line: this.lineNumber, offset: this.lineOffset, bytes, length, oversized };
    this.lineNumber++;
    this.lineOffset += length + 1;
    this.parts = [];
    this.partsLength = 0;
    this.lineLength = 0;
    this.oversized = false;
    return raw;
  }
}

function concat(parts: Uint8Array[], partsLength: number, last: Uint8Array): Uint8Array {
  const out = new Uint8Array(partsLength + last.length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  out.set(last, at);
  return out;
}
