/**
 * The page's main thread first. With as many pool workers as cores, the pool, the data worker and the
 * page's main thread share the cores, and a task of the page (a commit, a layout) took twice its CPU time
 * while the pool verified beside it: with the CPU throttled 2x, 100 MB had 3.0 tasks of 50 ms or more per
 * load with two pool workers, 0.5 with one (4 loads; bench/main-first.md). So the page beats (a message to each
 * pool worker every BEAT_MS while it is visible and the pool works), and a pool worker that misses the
 * beats knows the main thread is in a long task: at its next pause (./jobs.ts JOB_PAUSE_BYTES: rewards
 * jobs and index batches; the shorter filter, search and detail jobs do not pause) it sleeps until the next
 * beat, at most GIVE_WAY_MAX_MS, leaving the page a core. Without beats (a hidden page, an idle pool, Node's
 * CLI and tests) it never waits.
 */
import { z } from "zod";

/** How often the page beats while visible and the pool works. */
export const BEAT_MS = 8;
/**
 * No beat received for this long: the main thread is in a long task (four beats missed). At 24 ms, 1.6
 * tasks of 50 ms or more per throttled load against 1.0 at 32 ms; a shorter wait also gives way to tasks
 * that would never reach 50 ms, which costs the pool time for nothing (bench/main-first.md). Beats are
 * timed when the worker reads them, at its pauses: a task that began during a stretch of work is seen
 * STALE_MS after that pause.
 */
export const STALE_MS = 4 * BEAT_MS;
/** The longest a worker waits for the page in one pause: a page that stays busy does not stop the pool. */
export const GIVE_WAY_MAX_MS = 100;
/** A sleep's step while the page is busy. */
const SLEEP_STEP_MS = 4;

/** What the page posts to each pool worker. `on` false: the page stops beating, its silence means nothing. */
export const BeatMessage = z.object({ type: z.literal("beat"), on: z.boolean() });
export type BeatMessage = z.infer<typeof BeatMessage>;

/**
 * What a pool worker posts to the page when it starts working (a first job) and when it has no job left
 * (./rpc.ts serve's onActive, in ./pool.worker.ts).
 */
export const WorkingMessage = z.object({ type: z.literal("working"), working: z.boolean() });
export type WorkingMessage = z.infer<typeof WorkingMessage>;

/** The worker's side: when the page last beat (null: it does not beat), and the sleeps a beat ends. */
export class MainBeat {
  private last: number | null = null;
  /** Every job of the worker asleep in giveWay (a worker runs two or more at once). */
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  beat(on: boolean): void {
    this.last = on ? this.now() : null;
    for (const wake of [...this.sleepers]) wake();
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
        const wake = () => {
          clearTimeout(timer);
          this.sleepers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, SLEEP_STEP_MS);
        this.sleepers.add(wake);
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

/** A pool worker, as the page's beats see it: it is posted beats and posts when it works. */
export type BeatTarget = Pick<Worker, "postMessage"> &
  Pick<EventTarget, "addEventListener" | "removeEventListener">;

/**
 * The page's side: beats every BEAT_MS to `workers` while the document is visible and one of them works,
 * and tells them when it stops (a hidden page's timers are throttled to a beat a second, which must not read
 * as busy; an idle pool needs no beats). Returns the function that stops it.
 */
export function startBeats(workers: readonly BeatTarget[], doc: Visibility): () => void {
  const post = (on: boolean) => {
    const message: BeatMessage = { type: "beat", on };
    for (const worker of workers) worker.postMessage(message);
  };
  const working = new Set<BeatTarget>();
  let timer: ReturnType<typeof setInterval> | null = null;
  const update = () => {
    const beating = doc.visibilityState === "visible" && working.size > 0;
    if (beating && timer === null) {
      post(true);
      timer = setInterval(() => post(true), BEAT_MS);
    } else if (!beating && timer !== null) {
      clearInterval(timer);
      timer = null;
      post(false);
    }
  };
  const listeners = workers.map((worker) => {
    const listener = (event: Event) => {
      const message = WorkingMessage.safeParse(event instanceof MessageEvent ? event.data : undefined);
      if (!message.success) return;
      if (message.data.working) working.add(worker);
      else working.delete(worker);
      update();
    };
    worker.addEventListener("message", listener);
    return { worker, listener };
  });
  doc.addEventListener("visibilitychange", update);
  return () => {
    doc.removeEventListener("visibilitychange", update);
    for (const { worker, listener } of listeners) worker.removeEventListener("message", listener);
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
}
