/**
 * The seeded PRNG of the generators (scripts/gen-big-rollouts.ts, the fidelity corpus, the benchmarks): the
 * same seed gives the same files on every run and machine.
 */

export type Rng = () => number;

/** mulberry32: small, fast, deterministic; uniform in [0, 1). */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `items`, uniformly. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}
