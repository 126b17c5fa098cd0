/**
 * `benchRounds`: the bench's interleaved rounds, after one untimed warm-up round. Every path of
 * the warm-up (raw, raw in memory, each mode) runs once on a seed no timed round uses, into
 * totals that are thrown away, so that no path is timed cold: the first calls of a fresh process
 * run on V8's interpreter and baseline code, start concurrent mode's worker pool, compile the
 * handler's statements and load the plugin, and whichever path came first in round 1 paid for
 * all of that. Standard benchmarking practice, and fair to every path: raw warms too, by the
 * same rule. Only the timed rounds are reported; a mode found unavailable in the warm-up is
 * reported as such without being tried again.
 */

import type { ResolvedBenchOptions } from './bench-options.ts';
import { emptyTotals, type PathName, type PathTotals } from './throughput-totals.ts';

/** The paths of one round at `seed`, each measuring into `totals`. */
export type RoundPaths = (
  seed: number,
  totals: Record<PathName, PathTotals>,
) => (() => Promise<void>)[];

/**
 * One warm-up round at seed `o.seed - 1`, untimed, then `o.rounds` timed rounds into `totals`
 * (round r at `o.seed + r`), the order of the paths reversed every other round, `sample` called
 * after each path (memory is sampled in the warm-up too: it counts towards the peak).
 */
export async function benchRounds(
  o: Pick<ResolvedBenchOptions, 'rounds' | 'seed' | 'onProgress'>,
  what: string,
  totals: Record<PathName, PathTotals>,
  sample: () => void,
  round: RoundPaths,
): Promise<void> {
  const warmUp = emptyTotals();
  // A path that does not apply (PostgreSQL's in-memory raw, say) does not warm up either.
  for (const name of Object.keys(warmUp) as PathName[]) {
    const reason = totals[name].unavailable;
    if (reason !== undefined) warmUp[name].unavailable = reason;
  }
  o.onProgress(`${what} warm-up round, untimed (seed ${o.seed - 1})`);
  for (const path of round(o.seed - 1, warmUp)) {
    await path();
    sample();
  }
  for (const name of Object.keys(warmUp) as PathName[]) {
    const reason = warmUp[name].unavailable;
    if (reason !== undefined) totals[name].unavailable = reason;
  }
  for (let r = 0; r < o.rounds; r++) {
    const seed = o.seed + r;
    o.onProgress(`${what} round ${r + 1}/${o.rounds} (seed ${seed})`);
    const paths = round(seed, totals);
    if (r % 2 === 1) paths.reverse();
    for (const path of paths) {
      await path();
      sample();
    }
  }
}
