/**
 * The page's main thread first. With as many pool workers as cores, the pool, the data worker and the
 * page's main thread share the cores, and a task of the page (a commit, a layout) took twice its CPU time
 * while the pool verified beside it: with the CPU throttled 2x, 100 MB had 3.0 tasks of 50 ms or more per
 * load with two pool workers, 0.5 with one (bench/main-first.md). So the page beats (a message to each
 * pool worker every BEAT_MS while it is visible), and a pool worker that misses the beats knows the main
 * thread is in a long task: at its next pause (./jobs.ts JOB_PAUSE_BYTES) it sleeps until the next beat,
 * at most GIVE_WAY_MAX_MS, leaving the page a core. Without beats (a hidden page, Node's CLI and tests) it
 * never waits.
 */
import { z } from "zod";

/** How often the page beats while visible. */
export const BEAT_MS = 8;
/**
 * No beat for this long: the main thread is in a long task (three beats missed). At 24 ms, 1.6 tasks of
 * 50 ms or more per throttled load against 1.0 at 32 ms; a shorter wait also gives way to tasks that would
 * never reach 50 ms, which costs the pool time for nothing (bench/main-first.md).
 */
export const STALE_MS = 4 * BEAT_MS;
/** The longest a worker waits for the page in one pause: a page that stays busy does not stop the pool. */
export const GIVE_WAY_MAX_MS = 100;
/** A sleep's step while the page is busy (a worker's nested timers are clamped to 4 ms anyway). */
const SLEEP_STEP_MS = 4;

/** What the page posts to each pool worker. `on` false: the page stops beating (hidden), its silence means nothing. */
export const BeatMessage = z.object({ type: z.literal("beat"), on: z.boolean() });
export type BeatMessage = z.infer<typeof BeatMessage>;

/** The worker's side: when the page last beat (null: it does not beat), and the sleep a beat ends. */
export class MainBeat {
  private last: number | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  beat(on: boolean): void {
    this.last = on ? this.now() : null;
    this.wake?.();
  }

  /** The page beats and has missed its beats: its main thread is in a long task. */
  busy(): boolean {
    return this.last !== null && this.now() - this.last > STALE_MS;
  }

  /** Waits while the page's main thread is busy, until it beats again or GIVE_WAY_MAX_MS have passed. */
  async giveWay(): Promise<void> {
    const until = this.now() + GIVE_WAY_MAX_MS;
    while (this.busy() && this.now() < until) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
        const timer = setTimeout(done, SLEEP_STEP_MS);
        this.wake = done;
      });
    }
  }
}

/** This thread's beat (each pool worker has one). */
export const mainBeat = new MainBeat();

/** What the beats read of the page's document. */
export type Visibility = { readonly visibilityState: DocumentVisibilityState } & Pick<
  EventTarget,
  "addEventListener" | "removeEventListener"
>;

/**
 * The page's side: beats every BEAT_MS to `workers` while the document is visible, and tells them when it
 * stops (hidden: background timers are throttled to a beat a second, which must not read as busy).
 * Returns the function that stops it.
 */
export function startBeats(workers: readonly Pick<Worker, "postMessage">[], doc: Visibility): () => void {
  const post = (on: boolean) => {
    const message: BeatMessage = { type: "beat", on };
    for (const worker of workers) worker.postMessage(message);
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  const update = () => {
    const visible = doc.visibilityState === "visible";
    if (visible && timer === null) {
      post(true);
      timer = setInterval(() => post(true), BEAT_MS);
    } else if (!visible && timer !== null) {
      clearInterval(timer);
      timer = null;
      post(false);
    }
  };
  update();
  doc.addEventListener("visibilitychange", update);
  return () => {
    doc.removeEventListener("visibilitychange", update);
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
}
