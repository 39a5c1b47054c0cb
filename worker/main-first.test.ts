/**
 * The page's main thread first (./main-first.ts): a pool worker waits at its pauses only while the page
 * beats and has missed its beats, until the next beat or GIVE_WAY_MAX_MS; the page beats only while visible.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BEAT_MS, GIVE_WAY_MAX_MS, MainBeat, STALE_MS, startBeats } from "./main-first";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A MainBeat on the fake clock, and whether its giveWay() has resolved. */
function beatOnFakeClock() {
  const beat = new MainBeat(() => Date.now());
  const giveWay = () => {
    const state = { done: false };
    void beat.giveWay().then(() => {
      state.done = true;
    });
    return state;
  };
  return { beat, giveWay };
}

describe("MainBeat", () => {
  it("never waits while the page does not beat (Node, or a hidden page)", async () => {
    const { beat, giveWay } = beatOnFakeClock();
    await vi.advanceTimersByTimeAsync(10 * STALE_MS);
    expect(beat.busy()).toBe(false);
    const waiting = giveWay();
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.done).toBe(true);

    beat.beat(true);
    beat.beat(false);
    await vi.advanceTimersByTimeAsync(10 * STALE_MS);
    expect(beat.busy()).toBe(false);
  });

  it("does not wait while the beats come on time", async () => {
    const { beat, giveWay } = beatOnFakeClock();
    beat.beat(true);
    await vi.advanceTimersByTimeAsync(STALE_MS);
    expect(beat.busy()).toBe(false);
    const waiting = giveWay();
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.done).toBe(true);
  });

  it("waits once the beats are missed, until the next beat", async () => {
    const { beat, giveWay } = beatOnFakeClock();
    beat.beat(true);
    await vi.advanceTimersByTimeAsync(STALE_MS + 1);
    expect(beat.busy()).toBe(true);
    const waiting = giveWay();
    await vi.advanceTimersByTimeAsync(GIVE_WAY_MAX_MS / 2);
    expect(waiting.done).toBe(false);
    beat.beat(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.done).toBe(true);
  });

  it("waits at most GIVE_WAY_MAX_MS for a page that stays busy", async () => {
    const { beat, giveWay } = beatOnFakeClock();
    beat.beat(true);
    await vi.advanceTimersByTimeAsync(STALE_MS + 1);
    const waiting = giveWay();
    await vi.advanceTimersByTimeAsync(GIVE_WAY_MAX_MS - 5);
    expect(waiting.done).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(waiting.done).toBe(true);
  });
});

describe("startBeats", () => {
  /** A document whose visibility the test sets. */
  function fakeDocument(state: DocumentVisibilityState) {
    const target = new EventTarget();
    const doc = Object.assign(target, { visibilityState: state });
    const show = (next: DocumentVisibilityState) => {
      doc.visibilityState = next;
      target.dispatchEvent(new Event("visibilitychange"));
    };
    return { doc, show };
  }

  it("beats every BEAT_MS while visible, says when it stops on hiding, and starts again", async () => {
    const { doc, show } = fakeDocument("visible");
    const posted: unknown[] = [];
    const worker = { postMessage: (message: unknown) => posted.push(message) };
    const stop = startBeats([worker, worker], doc);
    expect(posted).toEqual([
      { type: "beat", on: true },
      { type: "beat", on: true },
    ]);
    await vi.advanceTimersByTimeAsync(BEAT_MS * 3);
    expect(posted).toHaveLength(2 + 2 * 3);

    show("hidden");
    expect(posted.at(-1)).toEqual({ type: "beat", on: false });
    const hiddenAt = posted.length;
    await vi.advanceTimersByTimeAsync(BEAT_MS * 10);
    expect(posted).toHaveLength(hiddenAt);

    show("visible");
    await vi.advanceTimersByTimeAsync(BEAT_MS);
    expect(posted.slice(hiddenAt)).toEqual(Array(4).fill({ type: "beat", on: true }));

    stop();
    await vi.advanceTimersByTimeAsync(BEAT_MS * 10);
    expect(posted).toHaveLength(hiddenAt + 4);
  });
});
