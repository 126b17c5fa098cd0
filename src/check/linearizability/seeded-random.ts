/**
 * A tiny deterministic random source (mulberry32) for the synthetic history generator: the same
 * seed always gives the same history, so a failing property case can be reproduced from its seed.
 */

/** Draws from one seeded stream. */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
}

/** A stream for `seed` (any 32-bit integer). */
export function seededRandom(seed: number): SeededRandom {
  let a = seed | 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('Expected a non-empty array to pick from');
      return items[int(items.length)] as (typeof items)[number];
    },
  };
}
