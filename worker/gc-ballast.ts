/**
 * A block of live memory a pool worker holds while a rewards pass runs, so V8 collects its heap less often.
 *
 * Why: a pool worker keeps almost nothing alive (~5.7 MB after a full collection) but allocates ~0.9 MB a
 * rollout, so its young generation is large next to the old generation's limit (~56 MB, V8's floor for a
 * small heap). V8 starts marking the old generation whenever the space left under that limit is no more
 * than the young generation's size, which here is at once: a Chromium trace of the rewards pass showed a
 * full collection every third of a second in each pool worker ("approaching global allocation limit"),
 * with its marking, sweeping and evacuation on the renderer's helper threads, beside the two workers on 2
 * cores. A live array of doubles raises the limits with the live size, costs the marker nothing to scan
 * (doubles hold no pointers), and is only held while rewards jobs arrive. Measured (bench/profile-rewards.md,
 * "Full collections in the pool"): 300 MB, 3 drops each, every reward 8.0–8.5 s -> 6.9–7.5 s; 1 GB, one
 * bench:browser run each, 22.0 s -> 20.5 s with 64 MB and 20.4 s with 32 MB. The price is memory: garbage
 * waits longer for its collection (1 GB: the renderer's peak RSS 576 -> 919 MiB with 64 MB, 714 MiB with 32).
 * Held for the index pass too, the index was slower in the one run tried (4.5 -> 5.3 s): rewards only.
 */

/** Doubles held: 32 MB, ~6x what a pool worker keeps alive: as fast as 64 MB at 1 GB, with 200 MiB less RSS. */
export const BALLAST_DOUBLES = 4_000_000;

/**
 * Bytes of lines a pass reads before the ballast is taken: building it costs ~50 ms, which a small file's
 * whole pass would feel, while a pass of more than a few MB gains more (16 MiB: ~300 rollouts of Gym's size).
 */
export const BALLAST_AFTER_BYTES = 16 * 1024 * 1024;

/** How long after the last job the ballast is let go (a pass's jobs come back to back). */
export const BALLAST_IDLE_MS = 2_000;

export interface Ballast {
  /**
   * A job of a pass arrived with `bytes` of lines: once the pass has read BALLAST_AFTER_BYTES, hold the
   * ballast until BALLAST_IDLE_MS pass without a job.
   */
  hold(bytes: number): void;
  /** Whether the ballast is held now. */
  held(): boolean;
}

export interface BallastOptions {
  readonly doubles?: number;
  readonly afterBytes?: number;
  readonly idleMs?: number;
}

export function gcBallast(options: BallastOptions = {}): Ballast {
  const doubles = options.doubles ?? BALLAST_DOUBLES;
  const afterBytes = options.afterBytes ?? BALLAST_AFTER_BYTES;
  const idleMs = options.idleMs ?? BALLAST_IDLE_MS;
  let block: number[] | null = null;
  let passBytes = 0;
  let release: ReturnType<typeof setTimeout> | null = null;
  return {
    hold(bytes) {
      passBytes += bytes;
      if (block === null && passBytes >= afterBytes) {
        // Doubles, one by one: an array of unboxed doubles the collector never scans.
        block = new Array<number>(doubles);
        for (let i = 0; i < doubles; i++) block[i] = 0.5;
      }
      if (release !== null) clearTimeout(release);
      release = setTimeout(() => {
        block = null;
        passBytes = 0;
        release = null;
      }, idleMs);
    },
    held: () => block !== null,
  };
}
