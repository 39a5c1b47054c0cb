/**
 * The one gzip decoder of the project (browser page, Web Worker and CLI alike), built on pako's zlib port
 * so it behaves the same everywhere. DecompressionStream was not enough: it stops after the first member
 * of a multi-member file (`cat a.gz b.gz`, pigz, bgzip), and on damage it errors without handing over the
 * data it had already decoded.
 *
 * - Every member of a multi-member stream is decoded, in order; zero bytes after the last member (tape
 *   and block padding) are ignored, as gzip itself does.
 * - Output is handed over as it is decoded, so on damage everything before it has been yielded; then a
 *   GzipError says what was wrong and at which byte of the compressed input.
 * - Each member's CRC-32 and length are checked (zlib's own checks).
 * - Compressed input is fed in slices of INFLATE_INPUT_SLICE bytes, which bounds the output produced per
 *   step (deflate expands at most ~1032:1), so a gzip bomb cannot pile up gigabytes before a consumer
 *   (the line splitter's length limit) sees them.
 */
import {
  Z_BUF_ERROR,
  Z_DATA_ERROR,
  Z_NO_FLUSH,
  Z_OK,
  Z_STREAM_END,
  ZStream,
  zlibInflate,
  zlibInflateInit2,
  zlibInflateReset,
} from "pako";

/** Compressed bytes per inflate step: at most ~66 MB of output per step even for a bomb. */
export const INFLATE_INPUT_SLICE = 64 * 1024;
/** Decompressed bytes per output buffer. */
const OUTPUT_CHUNK = 256 * 1024;
/** zlib windowBits: 15-bit window, +16 = gzip wrapper only (no zlib or raw deflate guessing). */
const GZIP_WINDOW_BITS = 15 + 16;

export const GZIP_MAGIC = [0x1f, 0x8b] as const;

export type GzipErrorKind =
  /** The input ends inside a member. */
  | "truncated"
  /** A member's CRC-32 or length trailer does not match its data: the data is damaged. */
  | "checksum"
  /** Where a member should start there is no valid gzip header. */
  | "header"
  /** The deflate data itself is invalid. */
  | "data";

export class GzipError extends Error {
  constructor(
    readonly kind: GzipErrorKind,
    /** Byte offset in the compressed input where the problem was found. */
    readonly offset: number,
    /** 1-based gzip member the problem is in. */
    readonly member: number,
    /** zlib's own words for it, when it gave some. */
    readonly detail: string,
  ) {
    super(gzipDamageText({ kind, offset, member, detail }, true));
    this.name = "GzipError";
  }

  /**
   * The 1-based line of the decompressed text where reading stopped (blank lines counted), set by the JSONL
   * reader (./read.ts) that knows it; null when gunzip is used alone.
   */
  line: number | null = null;
}

/**
 * Where and what the damage is, in words: "damaged gzip data at byte 67532 (member 1): the file ends in the
 * middle of a member (truncated)", and, with `linesBefore`, that the lines before it were read (a file
 * damaged before its first complete line had none).
 */
export function gzipDamageText(
  damage: Pick<GzipError, "kind" | "offset" | "member" | "detail">,
  linesBefore: boolean,
): string {
  return `damaged gzip data at byte ${damage.offset} (member ${damage.member}): ${whatWentWrong(damage.kind, damage.detail, linesBefore)}`;
}

/** What a gzip file damaged before the end of its first line is, in one sentence (the page's, the CLI's). */
export function damagedBeforeFirstLineText(
  damage: Pick<GzipError, "kind" | "offset" | "member" | "detail">,
): string {
  return `This gzip file is damaged before the end of its first line, so it holds no line to read: ${gzipDamageText(damage, false)}.`;
}

function whatWentWrong(kind: GzipErrorKind, detail: string, linesBefore: boolean): string {
  switch (kind) {
    case "truncated":
      return `the file ends in the middle of a member (truncated)${linesBefore ? "; lines before it were read" : ""}`;
    case "checksum":
      return `the member's ${detail === "incorrect length check" ? "length" : "CRC-32"} check failed (the data is damaged)${linesBefore ? "; lines before the end of the member were read" : ""}`;
    case "header":
      return `no valid gzip header (${detail})`;
    case "data":
      return `invalid compressed data (${detail})${linesBefore ? "; lines before it were read" : ""}`;
  }
}

const HEADER_ERRORS = new Set([
  "incorrect header check",
  "unknown compression method",
  "unknown header flags set",
  "header crc mismatch",
]);

function kindOf(message: string): GzipErrorKind {
  if (message === "incorrect data check" || message === "incorrect length check") return "checksum";
  if (HEADER_ERRORS.has(message)) return "header";
  return "data";
}

/** True when `bytes` start with the gzip magic number. */
export function hasGzipMagic(bytes: Uint8Array): boolean {
  return bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/**
 * Decompresses a gzip byte stream (one or more members). Yields decompressed chunks (never reused
 * afterwards, so a consumer may keep views of them); throws a GzipError after yielding every byte
 * decoded before the damage.
 */
export async function* gunzip(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const strm = new ZStream();
  if (zlibInflateInit2(strm, GZIP_WINDOW_BITS) !== Z_OK) throw new Error("gzip: cannot initialise inflate");
  strm.avail_out = 0;
  /** Compressed bytes before the current slice. */
  let base = 0;
  let member = 1;
  /** "member": inside (or at the start of) a member; "between": a member just ended; "padding": zeros after the last. */
  let state: "member" | "between" | "padding" = "member";
  let started = false;
  let emitted = 0;

  const takeOutput = (): Uint8Array | null => {
    if (strm.next_out === emitted) return null;
    const out = strm.output.subarray(emitted, strm.next_out);
    emitted = strm.next_out;
    return out;
  };

  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += INFLATE_INPUT_SLICE) {
      const slice = chunk.subarray(at, at + INFLATE_INPUT_SLICE);
      strm.input = slice;
      strm.next_in = 0;
      strm.avail_in = slice.length;
      while (strm.avail_in > 0) {
        if (state === "padding") {
          const nonZero = slice.findIndex((b, i) => i >= strm.next_in && b !== 0);
          if (nonZero === -1) {
            strm.avail_in = 0;
            break;
          }
          throw new GzipError("header", base + nonZero, member, "non-zero bytes after zero padding");
        }
        if (state === "between") {
          if (slice[strm.next_in] === 0) {
            state = "padding";
            continue;
          }
          zlibInflateReset(strm);
          member++;
          state = "member";
        }
        started = true;
        if (strm.avail_out === 0) {
          strm.output = new Uint8Array(OUTPUT_CHUNK);
          strm.next_out = 0;
          strm.avail_out = OUTPUT_CHUNK;
          emitted = 0;
        }
        const status = zlibInflate(strm, Z_NO_FLUSH);
        const out = takeOutput();
        if (out !== null) yield out;
        if (status === Z_STREAM_END) {
          state = "between";
          continue;
        }
        if (status === Z_OK) continue;
        // No progress with input and output room left would loop forever; zlib does not do that, but say so.
        if (status === Z_BUF_ERROR && (strm.avail_in === 0 || strm.avail_out === 0)) continue;
        const message = strm.msg || `zlib status ${status}`;
        const kind = status === Z_DATA_ERROR ? kindOf(message) : "data";
        throw new GzipError(kind, base + strm.next_in, member, message);
      }
      base += slice.length;
    }
  }
  if (!started) throw new GzipError("truncated", base, member, "no gzip data");
  if (state === "member") throw new GzipError("truncated", base, member, "unexpected end of file");
}

/** Yields the chunks of a web byte stream, cancelling it when the consumer stops early. */
export async function* streamChunks(source: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = source.getReader();
  let done = false;
  try {
    for (;;) {
      const result = await reader.read();
      if (result.done) {
        done = true;
        return;
      }
      if (result.value.length > 0) yield result.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** `chunks` decompressed when they start with the gzip magic number, else passed through unchanged. */
export async function* gunzipIfGzip(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < GZIP_MAGIC.length) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  async function* replayed(): AsyncGenerator<Uint8Array> {
    yield* head;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  const first = head.length === 1 ? head[0]! : concat(head, headLength);
  yield* hasGzipMagic(first) ? gunzip(replayed()) : replayed();
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
