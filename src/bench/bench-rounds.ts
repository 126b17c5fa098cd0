/**
 * `benchRounds`: the bench's interleaved rounds, after an untimed warm-up. In the warm-up every
 * path (raw, raw in memory, each mode) runs on seeds no timed round uses, into totals that are
 * thrown away, again and again until it has spent `o.warmUpSeconds` of CPU (at least once), so
 * that no path is timed cold: the first calls of a fresh process run on V8's interpreter and
 * baseline code, start concurrent mode's worker pool, compile the handler's statements and load
 * the plugin, and a sequential check reached its steady speed only after about ten 100-run checks.
 * Standard benchmarking practice, and fair to every path: raw warms too, by the same rule. Only
 * the timed rounds are reported; a mode found unavailable in the warm-up is reported as such
 * without being tried again.
 */

import type { ResolvedBenchOptions } from './bench-options.ts';
import { emptyTotals, type PathName, type PathTotals } from './throughput-totals.ts';

/** Most times one path runs in the warm-up, whatever its CPU time (an unavailable mode takes none). */
const WARM_UP_REPEATS_MAX = 30;

/** The paths of one round at `seed`, each measuring into `totals`. */
export type RoundPaths = (
  seed: number,
  totals: Record<PathName, PathTotals>,
) => (() => Promise<void>)[];

/**
 * The warm-up (seeds `o.seed - 1`, `o.seed - 2`, …, untimed), then `o.rounds` timed rounds into
 * `totals` (round r at `o.seed + r`), the order of the paths reversed every other round, `sample`
 * called after each path (memory is sampled in the warm-up too: it counts towards the peak).
 */
export async function benchRounds(
  o: Pick<ResolvedBenchOptions, 'rounds' | 'seed' | 'warmUpSeconds' | 'onProgress'>,
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
  o.onProgress(`${what} warm-up, untimed (${o.warmUpSeconds} CPU-s a path)`);
  const count = round(o.seed - 1, warmUp).length;
  for (let i = 0; i < count; i++) {
    const cpu = process.cpuUsage();
    for (let k = 0; k < WARM_UP_REPEATS_MAX; k++) {
      await round(o.seed - 1 - k, warmUp)[i]?.();
      sample();
      const used = process.cpuUsage(cpu);
      if ((used.user + used.system) / 1e6 >= o.warmUpSeconds) break;
    }
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
