/**
 * Following a file that is still being written (a file `view` serves): every FOLLOW_POLL_MS the worker asks
 * the server for the bytes from just before what it has read (`Range: bytes=N-`), checks that the bytes it
 * already read are still there (the file's first FOLLOW_CHECK_BYTES and the last FOLLOW_CHECK_BYTES before
 * where it stopped), and hands on the complete lines that were appended; a last line without its line break
 * waits for it, unless it parses whole (lastLineWhole). A file that shrank, or whose read bytes changed
 * (truncated, rewritten, replaced by another run), is said and no longer followed: its new content is never
 * mixed into the old rows.
 */
import { parseJsonLine } from "../lib/jsonl";
import { VIEW_REFUSED_HEADER } from "../lib/live/forward";

/**
 * How often a followed file is asked whether it grew. A line appended to a followed file should show with
 * its reward within 2 s (issue #22): the wait for the next poll (up to one interval) plus ~0.3 s of poll,
 * indexing, rewards and session event. `npm run bench:follow` (bench/follow.md): at 1 s every append was
 * seen within 2 s (p90 ~1.0 s), at 2 s not; 500 and 250 ms gain a few tenths at 2–4x the polls, each one
 * range request of FOLLOW_CHECK_BYTES per followed file.
 */
export const FOLLOW_POLL_MS = 1000;
/** Bytes compared at the file's start and just before the last complete line read, on every poll. */
export const FOLLOW_CHECK_BYTES = 4096;
/**
 * Polls in a row the server did not answer (or refused: a `view` started again has a new token) before the
 * page says it is no longer following: a dropped SSH tunnel or a stopped `view` must not read as a run that
 * wrote nothing; one missed poll is a blip.
 */
export const FOLLOW_UNREACHABLE_POLLS = 3;

const LF = 0x0a;
const CR = 0x0d;

/**
 * A followed file's last line without its line break is read as a line when it parses as JSON: Gym writes
 * whole lines and ships its files without a final line break (its example folders' rollouts and task rows),
 * while a line cut by a write still in progress does not parse (its brackets are not closed). When the file
 * grows, its next byte must be that line's break (pollOnce).
 */
export function lastLineWhole(bytes: Uint8Array): boolean {
  const text = new TextDecoder().decode(bytes);
  return text.trim() !== "" && parseJsonLine(text).ok;
}

export interface FollowState {
  readonly url: string;
  /** Offset just past the last complete line read. */
  from: number;
  /** The file's first bytes, as read. */
  head: Uint8Array;
  /** The bytes just before `from`, as read. */
  tail: Uint8Array;
  /** Bytes of a last line still without its line break. */
  waiting: number;
  /** The bytes read end with a whole line without its line break (lastLineWhole): the next byte must be one. */
  open: boolean;
  /** Set once the file is no longer what was read: following stops. */
  problem: string | null;
  /** What changed (PollResult "changed"), or null. */
  change: "gone" | "shrank" | "rewritten" | null;
  /** Polls in a row the server did not answer, and when the first of them was (epoch ms). */
  unanswered: number;
  unansweredSince: number | null;
  /** The last of them was view's refusal of this tab's token (a `view` started again has a new one). */
  refused: boolean;
}

export interface FollowSummary {
  readonly following: boolean;
  readonly waiting_bytes: number;
  readonly problem: string | null;
  /** The problem is that the file is gone from the served folder (deleted or moved). */
  readonly gone: boolean;
  /**
   * The server has not answered FOLLOW_UNREACHABLE_POLLS polls in a row: since when (epoch ms), else null.
   * Polling goes on: the file is followed again once it answers.
   */
  readonly unreachable_since: number | null;
  /** The server answers, but refuses this tab (a `view` started again: its token is new). */
  readonly refused: boolean;
  /** Why a served file is read once and not followed (a gzip file), or null. */
  readonly not_followed: string | null;
}

export function followSummary(state: FollowState): FollowSummary {
  return {
    following: state.problem === null,
    waiting_bytes: state.waiting,
    problem: state.problem,
    gone: state.change === "gone",
    unreachable_since: state.unanswered >= FOLLOW_UNREACHABLE_POLLS ? state.unansweredSince : null,
    refused: state.unanswered >= FOLLOW_UNREACHABLE_POLLS && state.refused,
    not_followed: null,
  };
}

/**
 * A gzip file `view` serves is read once, not followed (a choice, issue #22): its compressed bytes cannot be
 * read on from where a poll stopped (no line offsets in a deflate stream), so following it would mean fetching
 * and decompressing the whole file on every poll; Gym writes its rollouts as plain JSONL while a run is going,
 * and a .gz is a finished copy. The page says so rather than look followed.
 */
export const GZIP_NOT_FOLLOWED =
  "This gzip file was read once and is not followed: lines written to it after it was opened do not appear here (reload the page to read it again). Plain .jsonl files are followed.";

export function notFollowedSummary(reason: string): FollowSummary {
  return {
    following: false,
    waiting_bytes: 0,
    problem: null,
    gone: false,
    unreachable_since: null,
    refused: false,
    not_followed: reason,
  };
}

/** What one poll found. */
export type PollResult =
  | { readonly kind: "same" }
  /**
   * New bytes, each line whole; the first `closes` bytes are the break of the line read whole before (not a
   * line of their own: the dataset keeps them, its index does not count them).
   */
  | { readonly kind: "grown"; readonly lines: Uint8Array; readonly closes: number }
  | {
      readonly kind: "changed";
      readonly problem: string;
      /** What changed, for saying a later change only when it is another kind (not every new size). */
      readonly change: "gone" | "shrank" | "rewritten";
    }
  /**
   * The server did not answer (stopped, or the network), or `refused` this tab's token (VIEW_REFUSED_HEADER):
   * polling goes on.
   */
  | { readonly kind: "unreachable"; readonly refused?: boolean };

type Fetch = (
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<Response>;

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The total size from `Content-Range: bytes a-b/size` or `bytes * /size`, else null. */
export function rangeTotal(header: string | null): number | null {
  const match = header === null ? null : /\/(\d+)\s*$/.exec(header);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** The state after reading a file's first `from` bytes, whose first and last bytes are given. */
export function followState(url: string, from: number, head: Uint8Array, tail: Uint8Array): FollowState {
  return {
    url,
    from,
    head,
    tail,
    waiting: 0,
    open: tail.length > 0 && tail[tail.length - 1] !== LF,
    problem: null,
    change: null,
    unanswered: 0,
    unansweredSince: null,
    refused: false,
  };
}

function shrank(from: number, size: number): string {
  return `The file shrank (it had at least ${from} bytes, now ${size}): it was truncated or replaced, so it is no longer followed, its rows as first read. Read the folder again to read it as it is now.`;
}

const REPLACED =
  "Bytes already read changed: the file was rewritten or replaced, so it is no longer followed, its rows as first read. Read the folder again to read it as it is now.";

const GONE =
  "The file is no longer in the served folder (deleted or moved): it is no longer followed, its rows are as first read. Read the folder again to see what it holds now.";

const LAST_LINE_GREW =
  "The last line, read whole without its line break, went on after it was read: the file was rewritten, so it is no longer followed, its rows as first read. Read the folder again to read it as it is now.";

async function readRange(fetcher: Fetch, url: string, range: string, signal: AbortSignal) {
  const response = await fetcher(url, { headers: { Range: `bytes=${range}` }, signal });
  const bytes = response.status === 206 ? new Uint8Array(await response.arrayBuffer()) : null;
  if (response.status !== 206) await response.body?.cancel();
  return {
    status: response.status,
    total: rangeTotal(response.headers.get("content-range")),
    bytes,
    // `view`'s guard refused this tab's token (cli/view/guard.ts): a `view` started again has a new one.
    tokenRefused: response.headers.get(VIEW_REFUSED_HEADER) === "token",
  };
}

/** After a change was said: whether the file is gone, or shorter than what was read (its first byte asked). */
async function recheck(state: FollowState, fetcher: Fetch, signal: AbortSignal): Promise<PollResult> {
  let read: Awaited<ReturnType<typeof readRange>>;
  try {
    read = await readRange(fetcher, state.url, "0-0", signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return { kind: "unreachable" };
  }
  if (read.status === 404) return { kind: "changed", problem: GONE, change: "gone" };
  const size = read.status === 416 ? (read.total ?? 0) : read.total;
  if (size === null && read.status !== 206) return unanswered(read);
  if (size !== null && size < state.from)
    return { kind: "changed", problem: shrank(state.from, size), change: "shrank" };
  return { kind: "same" };
}

/** An answer that is no range of the file: the token refused, or nothing usable (a proxy's error page). */
function unanswered(read: { readonly tokenRefused: boolean }): PollResult {
  return { kind: "unreachable", refused: read.tokenRefused };
}

/** The last `keep` bytes of `bytes` followed by `more`. */
function appended(bytes: Uint8Array, more: Uint8Array, keep: number): Uint8Array {
  const both = new Uint8Array(bytes.length + more.length);
  both.set(bytes);
  both.set(more, bytes.length);
  return both.slice(Math.max(0, both.length - keep));
}

/**
 * Asks the server once whether the file grew; updates `state` for the lines it hands on, and counts the polls
 * in a row it did not answer (`now`: the clock, for when they began).
 */
export async function pollOnce(
  state: FollowState,
  fetcher: Fetch,
  signal: AbortSignal,
  now: () => number = Date.now,
): Promise<PollResult> {
  // A file said changed is never read again: one byte asked says whether it is gone or shorter since (the
  // whole range from where reading stopped, asked every second, was the whole new file each time).
  const result =
    state.problem === null ? await poll(state, fetcher, signal) : await recheck(state, fetcher, signal);
  if (result.kind === "unreachable") {
    state.unansweredSince ??= now();
    state.unanswered++;
    state.refused = result.refused === true;
  } else {
    state.unanswered = 0;
    state.unansweredSince = null;
    state.refused = false;
  }
  return result;
}

async function poll(state: FollowState, fetcher: Fetch, signal: AbortSignal): Promise<PollResult> {
  const checkFrom = state.from - state.tail.length;
  let read: Awaited<ReturnType<typeof readRange>>;
  try {
    read = await readRange(fetcher, state.url, `${checkFrom}-`, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return { kind: "unreachable" };
  }
  if (read.status === 416) {
    // Nothing at or after checkFrom: the file is shorter than what was read (an empty file read empty is "same").
    const size = read.total ?? 0;
    if (checkFrom === 0 && size === 0 && state.from === 0) return { kind: "same" };
    return { kind: "changed", problem: shrank(state.from, size), change: "shrank" };
  }
  // The server answered that the file is gone (a run that rotates or deletes its output): not a server down.
  if (read.status === 404) return { kind: "changed", problem: GONE, change: "gone" };
  if (read.bytes === null) return unanswered(read);
  const size = read.total ?? checkFrom + read.bytes.length;
  if (size < state.from) return { kind: "changed", problem: shrank(state.from, size), change: "shrank" };
  if (!sameBytes(read.bytes.subarray(0, state.tail.length), state.tail))
    return { kind: "changed", problem: REPLACED, change: "rewritten" };
  const rest = read.bytes.subarray(state.tail.length);
  // The line read whole without its break: what follows must start with that break (CRLF too).
  const closes =
    !state.open || rest.length === 0 ? 0 : rest[0] === LF ? 1 : rest[0] === CR && rest[1] === LF ? 2 : -1;
  if (closes === -1) return { kind: "changed", problem: LAST_LINE_GREW, change: "rewritten" };
  let end = rest.lastIndexOf(LF) + 1;
  // A last line without its break that parses whole is handed on too (then the next byte must be its break).
  const whole = end < rest.length && lastLineWhole(rest.subarray(end));
  if (whole) end = rest.length;
  state.waiting = rest.length - end;
  if (end === 0) return { kind: "same" };
  // The file grew: its start must still be what was read (a file replaced by a longer one).
  if (state.head.length > 0) {
    let head: Awaited<ReturnType<typeof readRange>>;
    try {
      head = await readRange(fetcher, state.url, `0-${state.head.length - 1}`, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return { kind: "unreachable" };
    }
    if (head.bytes === null && head.tokenRefused) return unanswered(head);
    if (head.bytes === null || !sameBytes(head.bytes, state.head))
      return { kind: "changed", problem: REPLACED, change: "rewritten" };
  }
  const lines = rest.slice(0, end);
  state.tail = appended(state.tail, lines, FOLLOW_CHECK_BYTES);
  if (state.head.length === state.from && state.head.length < FOLLOW_CHECK_BYTES) {
    // The head held the whole file read so far: it grows with it, up to FOLLOW_CHECK_BYTES.
    state.head = appended(state.head, lines, Number.POSITIVE_INFINITY).slice(0, FOLLOW_CHECK_BYTES);
  }
  state.from += lines.length;
  state.open = whole;
  return { kind: "grown", lines, closes };
}
