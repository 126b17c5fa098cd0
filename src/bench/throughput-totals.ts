/**
 * Sums each measured path's rounds into the throughput section: steps per second over all
 * rounds, each round's own figure, and each mode's ratio to raw. Pure.
 */
import type { Throughput, ThroughputSection, Unavailable } from './bench-report.ts';
import { median } from './median.ts';

/** One round of one path. */
export interface RoundMeasure {
  readonly steps: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  /** The handler failed at this run, so the check stopped early (harness modes only). */
  readonly failedAtRun?: number;
}

/** What was measured on one path so far. */
export interface PathTotals {
  readonly rounds: RoundMeasure[];
  /** The untimed warm-up's checks of this path, in order (`bench-rounds.ts`). */
  warmUp?: readonly RoundMeasure[];
  /** Set once a mode turned out not to be available; it is not tried again. */
  unavailable?: string;
}

/** The paths `throughputSection` reads. */
export type PathName =
  | 'raw'
  | 'rawInMemory'
  | 'rawScheduledMix'
  | 'sequential'
  | 'concurrent'
  | 'scheduled'
  | 'scheduledThreads'
  | 'asyncSequential'
  | 'asyncScheduled';

/** An empty totals record for every path. */
export function emptyTotals(): Record<PathName, PathTotals> {
  const fresh = (): PathTotals => ({ rounds: [] });
  return {
    raw: fresh(),
    rawInMemory: fresh(),
    rawScheduledMix: fresh(),
    sequential: fresh(),
    concurrent: fresh(),
    scheduled: fresh(),
    scheduledThreads: fresh(),
    asyncSequential: fresh(),
    asyncScheduled: fresh(),
  };
}

/**
 * The section: raw first, every mode as a ratio to it. The ratio is the median over rounds of
 * the mode's speed in a round over raw's in the same round: a noisy spell slows both within a
 * round, but would weigh on a ratio of totals by however long it lasted. The same again per CPU
 * second, which a machine shared with other work inflates far less than wall time.
 */
export function throughputSection(totals: Record<PathName, PathTotals>): ThroughputSection {
  const raw = sum(totals.raw);
  const rawScheduledMix = sum(totals.rawScheduledMix);
  /** A mode against raw on the same sequences it ran. */
  const mode = (name: PathName, base: 'raw' | 'rawScheduledMix'): Throughput | Unavailable => {
    const t = totals[name];
    if (t.unavailable !== undefined || t.rounds.length === 0)
      return { available: false, reason: t.unavailable ?? 'not measured' };
    const baseSteps = totals[base].rounds.map((r) => r.steps);
    return withRatios(sum(t, baseSteps), { raw, rawScheduledMix }[base]);
  };
  return {
    raw,
    rawInMemory:
      totals.rawInMemory.unavailable !== undefined
        ? { available: false, reason: totals.rawInMemory.unavailable }
        : withRatios(sum(totals.rawInMemory), raw),
    rawScheduledMix: withRatios(rawScheduledMix, raw),
    sequential: mode('sequential', 'raw'),
    concurrent: mode('concurrent', 'raw'),
    scheduled: mode('scheduled', 'rawScheduledMix'),
    scheduledThreads: mode('scheduledThreads', 'rawScheduledMix'),
    asyncSequential: mode('asyncSequential', 'raw'),
    asyncScheduled: mode('asyncScheduled', 'rawScheduledMix'),
  };
}

function withRatios(figure: Throughput, raw: Throughput): Throughput {
  return {
    ...figure,
    ratioToRaw: ratio(figure.perRound, raw.perRound),
    cpuRatioToRaw: ratio(figure.perRoundCpu, raw.perRoundCpu),
  };
}

function sum(t: PathTotals, rawSteps?: readonly number[]): Throughput {
  const steps = t.rounds.reduce((n, r) => n + r.steps, 0);
  const seconds = t.rounds.reduce((n, r) => n + r.seconds, 0);
  const cpuSeconds = t.rounds.reduce((n, r) => n + r.cpuSeconds, 0);
  const failed = t.rounds.find((r) => r.failedAtRun !== undefined);
  const differs = rawSteps && t.rounds.some((r, i) => r.steps !== rawSteps[i]);
  const warnings = [
    failed ? `the handler failed at run ${failed.failedAtRun}, so a check stopped early` : '',
    differs ? `its step mix differs from raw's (${steps} vs ${sumOf(rawSteps)} steps)` : '',
  ].filter(Boolean);
  return {
    available: true,
    steps,
    seconds,
    stepsPerSecond: per(steps, seconds),
    perRound: t.rounds.map((r) => per(r.steps, r.seconds)),
    cpuSeconds,
    stepsPerCpuSecond: per(steps, cpuSeconds),
    perRoundCpu: t.rounds.map((r) => per(r.steps, r.cpuSeconds)),
    ...(t.warmUp && t.warmUp.length > 0
      ? {
          warmUp: {
            checks: t.warmUp.length,
            cpuSeconds: sumOf(t.warmUp.map((r) => r.cpuSeconds)),
            perCheckCpu: t.warmUp.map((r) => per(r.steps, r.cpuSeconds)),
          },
        }
      : {}),
    ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}),
  };
}

function sumOf(values: readonly number[]): number {
  return values.reduce((n, v) => n + v, 0);
}

function per(steps: number, seconds: number): number {
  return seconds > 0 ? steps / seconds : 0;
}

/** Median over the rounds both ran of a's speed over b's in that round. */
function ratio(a: readonly number[], b: readonly number[]): number {
  const perRound = a.flatMap((speed, i) => {
    const base = b[i];
    return base ? [speed / base] : [];
  });
  return perRound.length > 0 ? median(perRound) : 0;
}
