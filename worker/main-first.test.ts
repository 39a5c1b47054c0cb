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

/** The same, once the page has beaten and then missed its beats. */
async function busyPage() {
  const page = beatOnFakeClock();
  page.beat.beat(true);
  await vi.advanceTimersByTimeAsync(STALE_MS + 1);
  return page;
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
    const { beat, giveWay } = await busyPage();
    expect(beat.busy()).toBe(true);
    const waiting = giveWay();
    await vi.advanceTimersByTimeAsync(GIVE_WAY_MAX_MS / 2);
    expect(waiting.done).toBe(false);
    beat.beat(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.done).toBe(true);
  });

  it("wakes every job waiting at once with the next beat (a worker runs two or more)", async () => {
    const { beat, giveWay } = await busyPage();
    const waiting = [giveWay(), giveWay(), giveWay()];
    // Past a few sleep steps, so each has gone to sleep again at least once.
    await vi.advanceTimersByTimeAsync(10);
    expect(waiting.map((w) => w.done)).toEqual([false, false, false]);
    beat.beat(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.map((w) => w.done)).toEqual([true, true, true]);
  });

  it("lets a waiting job go when the page stops beating (hidden, or the pool idle)", async () => {
    const { beat, giveWay } = await busyPage();
    const waiting = giveWay();
    await vi.advanceTimersByTimeAsync(10);
    expect(waiting.done).toBe(false);
    beat.beat(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.done).toBe(true);
  });

  it("waits at most GIVE_WAY_MAX_MS for a page that stays busy", async () => {
    const { giveWay } = await busyPage();
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

  /** A pool worker: what the page posts to it, and a way to post as it would. */
  function fakeWorker() {
    const posted: unknown[] = [];
    const target = new EventTarget();
    const worker = Object.assign(target, { postMessage: (message: unknown) => void posted.push(message) });
    const working = (on: boolean) =>
      target.dispatchEvent(new MessageEvent("message", { data: { type: "working", working: on } }));
    return { worker, posted, working };
  }

  const ON = { type: "beat", on: true };
  const OFF = { type: "beat", on: false };

  it("beats every BEAT_MS while visible and a worker works, and says when it stops", async () => {
    const { doc, show } = fakeDocument("visible");
    const a = fakeWorker();
    const b = fakeWorker();
    const stop = startBeats([a.worker, b.worker], doc);
    // An idle pool gets no beats.
    await vi.advanceTimersByTimeAsync(BEAT_MS * 3);
    expect(a.posted).toEqual([]);

    a.working(true);
    expect(a.posted).toEqual([ON]);
    expect(b.posted).toEqual([ON]);
    await vi.advanceTimersByTimeAsync(BEAT_MS * 3);
    expect(b.posted).toHaveLength(1 + 3);

    // Hidden: the beats stop, and the workers are told.
    show("hidden");
    expect(b.posted.at(-1)).toEqual(OFF);
    const hiddenAt = b.posted.length;
    await vi.advanceTimersByTimeAsync(BEAT_MS * 10);
    expect(b.posted).toHaveLength(hiddenAt);
    show("visible");
    await vi.advanceTimersByTimeAsync(BEAT_MS);
    expect(b.posted.slice(hiddenAt)).toEqual([ON, ON]);

    // Until every worker is idle.
    b.working(true);
    a.working(false);
    await vi.advanceTimersByTimeAsync(BEAT_MS);
    expect(b.posted.slice(hiddenAt)).toEqual([ON, ON, ON]);
    b.working(false);
    expect(b.posted.at(-1)).toEqual(OFF);
    const idleAt = b.posted.length;
    await vi.advanceTimersByTimeAsync(BEAT_MS * 10);
    expect(b.posted).toHaveLength(idleAt);

    a.working(true);
    stop();
    const stoppedAt = b.posted.length;
    await vi.advanceTimersByTimeAsync(BEAT_MS * 10);
    a.working(true);
    expect(b.posted).toHaveLength(stoppedAt);
  });
});
