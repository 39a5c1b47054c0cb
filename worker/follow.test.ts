import { describe, expect, it } from "vitest";
import { VIEW_REFUSED_HEADER } from "../lib/live/forward";
import {
  FOLLOW_CHECK_BYTES,
  FOLLOW_UNREACHABLE_POLLS,
  followState,
  followSummary,
  lastLineWhole,
  pollOnce,
} from "./follow";
import { servedFile } from "./test-served";

/** A served file, and the follow state of having read it to its last line break. */
function served(initial: string) {
  const file = servedFile(new TextEncoder().encode(initial));
  return {
    fetcher: file.fetcher,
    set: (text: string) => file.set(new TextEncoder().encode(text)),
    state() {
      const bytes = file.bytes();
      const from = bytes.lastIndexOf(0x0a) + 1;
      return followState(
        "u",
        from,
        bytes.slice(0, Math.min(from, FOLLOW_CHECK_BYTES)),
        bytes.slice(Math.max(0, from - FOLLOW_CHECK_BYTES), from),
      );
    },
  };
}

/** The follow state of having read every byte served now (a last line without its break included). */
function readWhole(file: ReturnType<typeof servedFile>) {
  const read = file.bytes();
  return followState("u", read.length, read.slice(0, FOLLOW_CHECK_BYTES), read.slice(-FOLLOW_CHECK_BYTES));
}

const signal = new AbortController().signal;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("a followed file said changed", () => {
  it("is never read again: one byte asked per poll says whether it is shorter or gone since", async () => {
    const file = servedFile(new TextEncoder().encode('{"a":1}\n{"b":2}\n'));
    const state = readWhole(file);
    const ranges: string[] = [];
    const fetcher = async (url: unknown, init?: RequestInit) => {
      ranges.push(new Headers(init?.headers).get("range") ?? "");
      return gone ? new Response("gone", { status: 404 }) : file.fetcher(url, init);
    };
    let gone = false;
    // Another run's file in its place, growing: said once, and never fetched whole again.
    file.set(new TextEncoder().encode(`{"x":9}\n${'{"y":1}\n'.repeat(10_000)}`));
    const replaced = await pollOnce(state, fetcher, signal);
    expect(replaced).toMatchObject({ kind: "changed", change: "rewritten" });
    state.problem = replaced.kind === "changed" ? replaced.problem : null;
    ranges.length = 0;
    expect(await pollOnce(state, fetcher, signal)).toEqual({ kind: "same" });
    expect(await pollOnce(state, fetcher, signal)).toEqual({ kind: "same" });
    expect(ranges).toEqual(["bytes=0-0", "bytes=0-0"]);
    // Cut shorter than what was read, then deleted: each said as what it is.
    file.set(new TextEncoder().encode('{"x":9}\n'));
    expect(await pollOnce(state, fetcher, signal)).toMatchObject({ kind: "changed", change: "shrank" });
    gone = true;
    expect(await pollOnce(state, fetcher, signal)).toMatchObject({ kind: "changed", change: "gone" });
  });
});

describe("following a growing file", () => {
  it("hands on appended complete lines; a partial last line waits for its line break", async () => {
    const file = served('{"a":1}\n{"b":');
    const state = file.state();
    expect(await pollOnce(state, file.fetcher, signal)).toEqual({ kind: "same" });
    expect(state.waiting).toBe(5);
    file.set('{"a":1}\n{"b":2}\n{"c":');
    const grown = await pollOnce(state, file.fetcher, signal);
    expect(grown.kind).toBe("grown");
    if (grown.kind === "grown") expect(text(grown.lines)).toBe('{"b":2}\n');
    expect(state.from).toBe(16);
    expect(state.waiting).toBe(5);
    expect(await pollOnce(state, file.fetcher, signal)).toEqual({ kind: "same" });
  });

  it("a last line read whole without its break (Gym's files end so) takes the next byte as its break", async () => {
    const encode = (t: string) => new TextEncoder().encode(t);
    expect(lastLineWhole(encode('{"b":2}'))).toBe(true);
    expect(lastLineWhole(encode('{"b":2, "s": NaN}'))).toBe(true);
    expect(lastLineWhole(encode('{"b":'))).toBe(false);
    expect(lastLineWhole(encode("  "))).toBe(false);

    const file = servedFile(encode('{"a":1}\n{"b":2}'));
    const state = readWhole(file);
    expect(state.open).toBe(true);
    expect(await pollOnce(state, file.fetcher, signal)).toEqual({ kind: "same" });
    // The writer ends that line and writes another: the break is that line's (`closes`), the new line follows.
    file.set(encode('{"a":1}\n{"b":2}\n{"c":3}\n'));
    const grown = await pollOnce(state, file.fetcher, signal);
    expect(grown.kind === "grown" ? [text(grown.lines), grown.closes] : grown.kind).toEqual([
      '\n{"c":3}\n',
      1,
    ]);
    expect(state).toMatchObject({ open: false, from: 24, waiting: 0 });
    // A whole last line written without its break while followed is handed on too, and waits for nothing.
    file.set(encode('{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}'));
    const more = await pollOnce(state, file.fetcher, signal);
    expect(more.kind === "grown" ? [text(more.lines), more.closes] : more.kind).toEqual(['{"d":4}', 0]);
    expect(state).toMatchObject({ open: true, from: 31, waiting: 0 });
    // Its break alone: handed on as that line's end, no line of its own.
    file.set(encode('{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}\r\n'));
    const end = await pollOnce(state, file.fetcher, signal);
    expect(end.kind === "grown" ? [text(end.lines), end.closes] : end.kind).toEqual(["\r\n", 2]);
    expect(state).toMatchObject({ open: false, from: 33 });

    // A line read whole that then goes on was not a line: the file was rewritten.
    const other = servedFile(encode('{"a":1}\n{"b":2}'));
    const cut = readWhole(other);
    other.set(encode('{"a":1}\n{"b":2}, "c": 3}\n'));
    const polled = await pollOnce(cut, other.fetcher, signal);
    expect(polled.kind === "changed" ? polled.problem : polled.kind).toMatch(/went on after it was read/);
  });

  it("says a truncated file and never reads it again as the same", async () => {
    const file = served('{"a":1}\n{"b":2}\n');
    const state = file.state();
    file.set('{"a":1}\n');
    const polled = await pollOnce(state, file.fetcher, signal);
    expect(polled.kind).toBe("changed");
    if (polled.kind === "changed") expect(polled.problem).toMatch(/shrank/);
    file.set("");
    expect((await pollOnce(file.state(), file.fetcher, signal)).kind).toBe("same");
  });

  it("says a file replaced by a longer one (the bytes already read changed)", async () => {
    const file = served('{"a":1}\n');
    const state = file.state();
    file.set('{"z":9}\n{"y":8}\n');
    const polled = await pollOnce(state, file.fetcher, signal);
    expect(polled.kind).toBe("changed");
  });

  it("checks the file's start too: a replacement that keeps the bytes before where reading stopped", async () => {
    const line = `{"pad":"${"x".repeat(FOLLOW_CHECK_BYTES)}"}\n`;
    const file = served(`{"first":1}\n${line}`);
    const state = file.state();
    file.set(`{"other":1}\n${line}{"new":1}\n`);
    expect((await pollOnce(state, file.fetcher, signal)).kind).toBe("changed");
  });

  it("goes on after the server did not answer", async () => {
    const state = served("").state();
    const down = async () => {
      throw new TypeError("fetch failed");
    };
    expect(await pollOnce(state, down, signal)).toEqual({ kind: "unreachable" });
  });

  it("says a file the server no longer has (deleted or moved), never that the server is down", async () => {
    const state = served('{"a":1}\n').state();
    const gone = async () => new Response("no such file", { status: 404 });
    const polled = await pollOnce(state, gone, signal);
    expect(polled.kind === "changed" ? polled.problem : polled.kind).toMatch(
      /no longer in the served folder/,
    );
    expect(polled).toMatchObject({ kind: "changed", change: "gone" });
    expect(followSummary(state).unreachable_since).toBeNull();
    // Said as gone once the follower takes the change (worker/sources.ts poll).
    state.change = "gone";
    expect(followSummary(state).gone).toBe(true);
  });

  it("says the server is not answering after a few polls in a row (a refusal too: view's new token), until it answers", async () => {
    const file = served('{"a":1}\n');
    const state = file.state();
    const refused = async () =>
      new Response("missing or wrong token", { status: 403, headers: { [VIEW_REFUSED_HEADER]: "token" } });
    let clock = 1000;
    for (let poll = 1; poll <= FOLLOW_UNREACHABLE_POLLS; poll++) {
      expect(followSummary(state).unreachable_since).toBeNull();
      expect(await pollOnce(state, refused, signal, () => clock)).toEqual({
        kind: "unreachable",
        refused: true,
      });
      clock += 1000;
    }
    // Since the first poll it missed, and said as a refusal (the page says to open view's new URL).
    expect(followSummary(state)).toMatchObject({ following: true, unreachable_since: 1000, refused: true });
    const down = async () => {
      throw new TypeError("fetch failed");
    };
    await pollOnce(state, down, signal, () => clock);
    expect(followSummary(state)).toMatchObject({ unreachable_since: 1000, refused: false });
    // Another refusal (a path that now leaves the folder): not said as a new token.
    const confined = async () => new Response("the path leaves the served folder", { status: 403 });
    expect(await pollOnce(state, confined, signal, () => clock)).toEqual({
      kind: "unreachable",
      refused: false,
    });
    file.set('{"a":1}\n{"b":2}\n');
    expect((await pollOnce(state, file.fetcher, signal)).kind).toBe("grown");
    expect(followSummary(state)).toMatchObject({ unreachable_since: null, refused: false });
  });
});
