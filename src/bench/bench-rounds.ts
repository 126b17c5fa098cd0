/**
 * `benchRounds`: the bench's interleaved rounds, after an untimed warm-up. In the warm-up every
 * path (raw, raw in memory, each mode) runs on seeds no timed round uses, into totals kept apart
 * from the timed ones, again and again until it is warm, so that no path is timed cold: the first
 * calls of a fresh process run on V8's interpreter and baseline code, start concurrent mode's
 * worker pool, compile the handler's statements and load the plugin. Warm means: it has run
 * `o.warmUpSteps` steps and spent `o.warmUpSeconds` of CPU, and its speed has stopped rising
 * (`steadied`), or it hit a cap. The steps are the first condition because V8 optimizes a
 * function after it has run often enough: the harness's code, far larger than the raw loop's,
 * was still being optimized 20 checks of 300 runs into a fresh process (about 55,000 steps; a
 * sequential check ran at 6,000 steps per CPU second first, 30,000 from its sixth to its
 * twentieth, then 55,000-60,000), and a speed that stays level for a few checks is no sign that
 * it will not rise again. Standard benchmarking practice, and fair to every path: raw warms too,
 * by the same rule. The warm-up's
 * checks are reported beside the timed rounds (`warmUp`), so what a short check in a fresh
 * process costs stays in sight; a mode found unavailable in the warm-up is reported as such
 * without being tried again.
 */

import type { ResolvedBenchOptions } from './bench-options.ts';
import {
  emptyTotals,
  type PathName,
  type PathTotals,
  type RoundMeasure,
} from './throughput-totals.ts';

/** Most times one path runs in the warm-up, whatever its CPU time (an unavailable mode takes none). */
const WARM_UP_REPEATS_MAX = 60;

/** Most CPU seconds one path spends warming up, when its speed never settles (noise, a cap). */
const WARM_UP_CPU_MAX_S = 10;

/** Checks in a row that must not beat the best before them for a path to count as warm. */
export const WARM_STEADY_CHECKS = 3;

/** How much faster than the best before it a check may be and still count as no faster. */
export const WARM_GAIN = 0.05;

/**
 * Whether a path whose warm-up checks ran at `speeds` (steps per CPU second, in order) has stopped
 * getting faster: each of its last `WARM_STEADY_CHECKS` checks was within `WARM_GAIN` of the best
 * check before them, or below it.
 */
export function steadied(speeds: readonly number[]): boolean {
  const before = speeds.length - WARM_STEADY_CHECKS;
  if (before < 1) return false;
  const best = Math.max(...speeds.slice(0, before));
  return speeds.slice(before).every((speed) => speed <= best * (1 + WARM_GAIN));
}

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
  o: Pick<ResolvedBenchOptions, 'rounds' | 'seed' | 'warmUpSeconds' | 'warmUpSteps' | 'onProgress'>,
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
  o.onProgress(
    `${what} warm-up, untimed (each path until it stops getting faster, at least ${o.warmUpSteps} steps and ${o.warmUpSeconds} CPU-s)`,
  );
  const count = round(o.seed - 1, warmUp).length;
  for (let i = 0; i < count; i++) {
    const cpu = process.cpuUsage();
    const speeds: number[] = [];
    let steps = 0;
    for (let k = 0; k < WARM_UP_REPEATS_MAX; k++) {
      const before = roundCounts(warmUp);
      await round(o.seed - 1 - k, warmUp)[i]?.();
      sample();
      const used = process.cpuUsage(cpu);
      const spent = (used.user + used.system) / 1e6;
      const measured = newRound(warmUp, before);
      if (measured) {
        speeds.push(measured.steps / Math.max(measured.cpuSeconds, 1e-9));
        steps += measured.steps;
      }
      // `--warm-up 0` asks for exactly one check; a path that measured nothing has no speed.
      if (o.warmUpSeconds === 0 || !measured || spent >= WARM_UP_CPU_MAX_S) break;
      if (steps >= o.warmUpSteps && spent >= o.warmUpSeconds && steadied(speeds)) break;
    }
  }
  for (const name of Object.keys(warmUp) as PathName[]) {
    const reason = warmUp[name].unavailable;
    if (reason !== undefined) totals[name].unavailable = reason;
    // Each phase warms only its own paths (`run-bench.ts` runs two).
    if (warmUp[name].rounds.length > 0) totals[name].warmUp = warmUp[name].rounds;
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

function roundCounts(totals: Record<PathName, PathTotals>): Map<PathName, number> {
  return new Map(
    (Object.keys(totals) as PathName[]).map((name) => [name, totals[name].rounds.length]),
  );
}

/** The round a path added to `totals` since `before` was counted, if one did. */
function newRound(
  totals: Record<PathName, PathTotals>,
  before: ReadonlyMap<PathName, number>,
): RoundMeasure | undefined {
  for (const name of Object.keys(totals) as PathName[]) {
    const rounds = totals[name].rounds;
    if (rounds.length > (before.get(name) ?? 0)) return rounds[rounds.length - 1];
  }
  return undefined;
}
