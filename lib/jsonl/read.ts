/**
 * Streaming JSONL reader: bytes in, one item per non-blank line out. Never builds a whole-file
 * string, so memory stays flat for multi-gigabyte files.
 *
 * Decisions:
 * - A UTF-8 BOM is stripped only at the very start of the (decompressed) stream. The first line's
 *   `offset` is then 3 and its `length` excludes the BOM, so `offset`/`length` always slice back to the
 *   bytes that were parsed.
 * - A line whose bytes are only spaces, tabs or "\r" is blank: it counts for line numbers, is not yielded.
 * - Gzip (./gzip.ts) covers multi-member files. A damaged or truncated gzip stream ends the read with a
 *   thrown GzipError (kind, compressed byte offset) after every complete line decoded before the damage
 *   has been yielded. A failing source stream rethrows its own error. Both are stream-level failures,
 *   unlike a bad line, which is an `ok: false` item.
 * - Abort (options.signal) throws an Error named "AbortError" and cancels the source stream.
 */

import { GZIP_MAGIC, GzipError, gunzip } from "./gzip";
import { LineSplitter, type RawLine } from "./lines";
import { parseJsonLine, unclosedJson } from "./parse";

export type JsonlItem = {
  /** 1-based line number in the (decompressed) file; blank lines count but are not yielded. */
  line: number;
  /** Byte offset of the line's first byte in the decompressed stream (BOM bytes count). */
  offset: number;
  /** Byte length of the line, excluding "\n" or "\r\n". */
  length: number;
  /** The line's raw bytes (no terminator), only when options.keepBytes. */
  bytes?: Uint8Array;
} & (
  | { ok: true; value: unknown }
  | {
      ok: false;
      error: string;
      /** The text of a short line that is not JSON (up to SHORT_LINE_CHARS), e.g. `<PLACEHOLDER ROW>`. */
      text?: string;
    }
);

/** Lines that fail to parse keep their text up to this length, so a placeholder row can be named. */
export const SHORT_LINE_CHARS = 200;

export interface ReadJsonlOptions {
  /** Default "auto": detect the 1f 8b magic bytes. */
  gzip?: boolean | "auto";
  /** Default false. */
  keepBytes?: boolean;
  /** Compressed bytes consumed from the source, called per chunk. */
  onProgress?: (bytesRead: number) => void;
  /** Abort -> the generator throws an AbortError-named Error and releases the reader. */
  signal?: AbortSignal;
  /** Lines longer than this are reported as an error item without being buffered. Default MAX_LINE_BYTES. */
  maxLineBytes?: number;
  /**
   * Damaged gzip data (GzipError): "throw" (default) ends the read with the error; "item" ends it with a
   * last `ok: false` item for the line that was cut, whose error says what and where, so a viewer keeps
   * every line before the damage and lists the damage with the other unreadable lines.
   */
  gzipDamage?: "throw" | "item";
}

/**
 * Longest line that is buffered and parsed. V8 strings top out near 512 MiB of UTF-16, so a longer line
 * could not be decoded anyway; skipping it keeps memory bounded and the rest of the file readable.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
const CR = 0x0d;

/**
 * Yields one item per non-blank line of `source` (plain or gzip JSONL bytes): its 1-based line number,
 * byte offset and length in the decompressed stream, and the parsed value or the reason it failed.
 * Bad lines never stop the read; only a failing source, corrupt gzip data or an abort throw.
 */
export async function* readJsonl(
  source: ReadableStream<Uint8Array>,
  options: ReadJsonlOptions = {},
): AsyncGenerator<JsonlItem> {
  const { keepBytes = false, signal } = options;
  for await (const chunk of readRawLines(source, options)) {
    if (chunk.damage !== undefined) {
      yield chunk.damage;
      continue;
    }
    for (const raw of chunk.lines) {
      const item = lineItem(raw, keepBytes);
      if (item === null) continue;
      yield item;
      throwIfAborted(signal);
    }
  }
}

/** The raw lines one decoded chunk completes, or the last item of a read damaged gzip data cut short. */
export type RawChunk =
  | { readonly lines: readonly RawLine[]; readonly damage?: undefined }
  | { readonly damage: JsonlItem & { ok: false } };

/**
 * readJsonl's first half: the lines of `source` as raw bytes, a batch per decoded chunk, in order, not yet
 * decoded or parsed (lineItem does that, also in another thread: the CLI's worker threads). The same
 * stream-level failures as readJsonl: corrupt gzip data throws (or ends with a `damage` item), as do a failing
 * source and an abort.
 */
export async function* readRawLines(
  source: ReadableStream<Uint8Array>,
  options: Omit<ReadJsonlOptions, "keepBytes"> = {},
): AsyncGenerator<RawChunk> {
  const { signal, onProgress, gzip = "auto", maxLineBytes = MAX_LINE_BYTES, gzipDamage = "throw" } = options;
  throwIfAborted(signal);

  const sourceReader = source.getReader();
  const onAbort = () => {
    // Resolves a pending read with done, so the loops below notice the abort at once.
    sourceReader.cancel(abortError()).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });

  let bytesRead = 0;
  let sourceError: { error: unknown } | null = null;
  const readSourceChunk = async (): Promise<Uint8Array | null> => {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await sourceReader.read();
      } catch (error) {
        sourceError = { error };
        throw error;
      }
      if (result.done) return null;
      const chunk: unknown = result.value;
      if (!(chunk instanceof Uint8Array)) {
        const error = new TypeError("JSONL source produced a chunk that is not a Uint8Array");
        sourceError = { error };
        throw error;
      }
      if (chunk.length === 0) continue;
      bytesRead += chunk.length;
      onProgress?.(bytesRead);
      return chunk;
    }
  };

  let finished = false;
  let decoded: AsyncGenerator<Uint8Array> | null = null;
  try {
    // Peek at the first bytes to decide on gzip; they are replayed ahead of the rest of the source.
    const replay: Uint8Array[] = [];
    let decompress = gzip === true;
    if (gzip === "auto") {
      let peeked = 0;
      while (peeked < GZIP_MAGIC.length) {
        const chunk = await readSourceChunk();
        throwIfAborted(signal);
        if (chunk === null) break;
        replay.push(chunk);
        peeked += chunk.length;
      }
      decompress = startsWith(replay, GZIP_MAGIC);
    }

    // Pulled one chunk at a time: nothing is read ahead of what the line loop asks for.
    async function* rawChunks(): AsyncGenerator<Uint8Array> {
      for (let chunk = replay.shift(); chunk !== undefined; chunk = replay.shift()) yield chunk;
      for (let chunk = await readSourceChunk(); chunk !== null; chunk = await readSourceChunk()) yield chunk;
    }
    decoded = decompress ? gunzip(rawChunks()) : rawChunks();

    const splitter = new LineSplitter(maxLineBytes);
    for (;;) {
      throwIfAborted(signal);
      let result: IteratorResult<Uint8Array>;
      try {
        result = await decoded.next();
      } catch (error) {
        throwIfAborted(signal);
        if (sourceError !== null) throw sourceError.error;
        if (!(error instanceof GzipError)) throw error;
        // A failed CRC/length check comes after the member's deflate data ended cleanly: its last line is
        // whole (a file without a final "\n"), so it is given like the others before the error.
        if (error.kind === "checksum") {
          const last = splitter.end();
          if (last !== null) yield { lines: [last] };
        }
        const { line, offset } = splitter.pending;
        error.line = line;
        if (gzipDamage === "throw") throw error;
        yield { damage: { line, offset, length: 0, ok: false, error: error.message } };
        return;
      }
      throwIfAborted(signal);
      if (result.done) break;
      const lines = splitter.push(result.value);
      if (lines.length > 0) yield { lines };
    }
    finished = true;
    const last = splitter.end();
    if (last !== null) yield { lines: [last] };
  } finally {
    signal?.removeEventListener("abort", onAbort);
    // An early exit (abort, consumer break, error) stops the source so files and sockets are closed.
    if (!finished) {
      await decoded?.return(undefined).catch(() => {});
      await sourceReader.cancel().catch(() => {});
    }
    sourceReader.releaseLock();
  }
}

/** Stateless between calls (no `stream` decoding), so one serves every line. */
const lineDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * One raw line (readRawLines) as readJsonl gives it: decoded and parsed, or the reason it is unreadable;
 * null for a blank line.
 */
export function lineItem(raw: RawLine, keepBytes = false): JsonlItem | null {
  return toItem(raw, lineDecoder, keepBytes);
}

function toItem(raw: RawLine, decoder: TextDecoder, keepBytes: boolean): JsonlItem | null {
  let { offset, length, bytes } = raw;
  if (raw.oversized) return tooLong({ line: raw.line, offset, length });
  if (offset === 0 && hasPrefix(bytes, UTF8_BOM)) {
    bytes = bytes.subarray(UTF8_BOM.length);
    offset += UTF8_BOM.length;
    length -= UTF8_BOM.length;
  }
  if (bytes.length > 0 && bytes[bytes.length - 1] === CR) {
    bytes = bytes.subarray(0, bytes.length - 1);
    length -= 1;
  }
  if (isBlank(bytes)) return null;
  const position = keepBytes
    ? { line: raw.line, offset, length, bytes: bytes.slice() }
    : { line: raw.line, offset, length };

  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return { ...position, ok: false, error: `invalid UTF-8 in line at byte ${at} of the line` };
  }
  return textItem(position, text, raw.unterminated === true);
}

/** A line longer than the reader buffers: unreadable, never decoded. */
function tooLong(position: { line: number; offset: number; length: number }): JsonlItem {
  return { ...position, ok: false, error: `line too long (${position.length} bytes); not parsed` };
}

/**
 * Said of the file's last line when no line break ends it and its JSON is not closed: a rollouts file read
 * while a run still writes it (`cli triage` on a live run), or a copy cut short. The page follows a served
 * file and waits for such a line instead (worker/follow.ts).
 */
export const CUT_LAST_LINE =
  "the file's last line, cut short: no line break ends it and its JSON is not closed (a run still writing the file, or a copy stopped early)";

/**
 * A decoded line's item: its parsed value, or why it is not JSON (with its text when short). `last`: the
 * stream's last line, without a line break.
 */
function textItem(
  position: { line: number; offset: number; length: number },
  text: string,
  last = false,
): JsonlItem {
  const parsed = parseJsonLine(text);
  if (parsed.ok) return { ...position, ok: true, value: parsed.value };
  return {
    ...position,
    ok: false,
    error: last && unclosedJson(text) ? `${CUT_LAST_LINE}; ${parsed.error}` : parsed.error,
    ...(text.length <= SHORT_LINE_CHARS ? { text } : {}),
  };
}

/**
 * The items readJsonl gives for plain (not gzip) JSONL bytes held whole in memory (a pool worker's batch),
 * without a stream. When the bytes are all ASCII (what Python's json.dumps writes by default), they are
 * decoded once and split as a string, whose line breaks the engine finds far faster than a byte array's, and
 * each line's offset in characters is its offset in bytes; otherwise each line goes the way readJsonl's do.
 * The same rules either way (read.test.ts compares them): blank lines, "\r\n", lines too long.
 */
export function* jsonlItemsOf(bytes: Uint8Array, maxLineBytes = MAX_LINE_BYTES): Generator<JsonlItem> {
  const whole = asciiText(bytes);
  if (whole === null) {
    const splitter = new LineSplitter(maxLineBytes);
    for (const raw of [...splitter.push(bytes), splitter.end()]) {
      const item = raw === null ? null : lineItem(raw);
      if (item !== null) yield item;
    }
    return;
  }
  let line = 1;
  let start = 0;
  for (;;) {
    const newline = whole.indexOf("\n", start);
    // Nothing after the last line break is no line.
    if (newline === -1 && start === whole.length) return;
    const end = newline === -1 ? whole.length : newline;
    let length = end - start;
    if (length > maxLineBytes) yield tooLong({ line, offset: start, length });
    else {
      if (length > 0 && whole.charCodeAt(end - 1) === CR) length--;
      const text = whole.slice(start, start + length);
      if (!isBlankText(text)) yield textItem({ line, offset: start, length }, text, newline === -1);
    }
    if (newline === -1) return;
    start = newline + 1;
    line++;
  }
}

/** The bytes as a string when every byte is ASCII (a strict decoder's text is then as long as the bytes). */
function asciiText(bytes: Uint8Array): string | null {
  try {
    const text = lineDecoder.decode(bytes);
    return text.length === bytes.length ? text : null;
  } catch {
    return null;
  }
}

function isBlankText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
}

function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  }
  return true;
}

function hasPrefix(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((b, i) => bytes[i] === b);
}

function startsWith(chunks: Uint8Array[], prefix: readonly number[]): boolean {
  let index = 0;
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length && index < prefix.length; i++, index++) {
      if (chunk[i] !== prefix[index]) return false;
    }
  }
  return index === prefix.length;
}

/** Offset of the first byte that breaks UTF-8 (overlong forms, surrogates and > U+10FFFF included). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      const lo = k === 1 ? lower : 0x80;
      const hi = k === 1 ? upper : 0xbf;
      if (c < lo || c > hi) return i;
    }
    i += need + 1;
  }
  return -1;
}

function abortError(): Error {
  const error = new Error("JSONL read aborted");
  error.name = "AbortError";
  return error;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}
