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
  /** The handler failed at this run, so the check stopped early (harness modes only). */
  readonly failedAtRun?: number;
}

/** What was measured on one path so far. */
export interface PathTotals {
  readonly rounds: RoundMeasure[];
  /** Set once a mode turned out not to be available; it is not tried again. */
  unavailable?: string;
}

/** The paths `throughputSection` reads. */
export type PathName = 'raw' | 'rawInMemory' | 'sequential' | 'concurrent' | 'scheduled';

/** An empty totals record for every path. */
export function emptyTotals(): Record<PathName, PathTotals> {
  const fresh = (): PathTotals => ({ rounds: [] });
  return {
    raw: fresh(),
    rawInMemory: fresh(),
    sequential: fresh(),
    concurrent: fresh(),
    scheduled: fresh(),
  };
}

/**
 * The section: raw first, every mode as a ratio to it. The ratio is the median over rounds of
 * the mode's speed in a round over raw's in the same round: a noisy spell slows both within a
 * round, but would weigh on a ratio of totals by however long it lasted.
 */
export function throughputSection(totals: Record<PathName, PathTotals>): ThroughputSection {
  const raw = sum(totals.raw);
  const rawSteps = totals.raw.rounds.map((r) => r.steps);
  const mode = (name: PathName): Throughput | Unavailable => {
    const t = totals[name];
    if (t.unavailable !== undefined || t.rounds.length === 0)
      return { available: false, reason: t.unavailable ?? 'not measured' };
    const figure = sum(t, rawSteps);
    return { ...figure, ratioToRaw: ratio(figure, raw) };
  };
  const inMemory = sum(totals.rawInMemory);
  return {
    raw,
    rawInMemory: { ...inMemory, ratioToRaw: ratio(inMemory, raw) },
    sequential: mode('sequential'),
    concurrent: mode('concurrent'),
    scheduled: mode('scheduled'),
  };
}

function sum(t: PathTotals, rawSteps?: readonly number[]): Throughput {
  const steps = t.rounds.reduce((n, r) => n + r.steps, 0);
  const seconds = t.rounds.reduce((n, r) => n + r.seconds, 0);
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
    stepsPerSecond: seconds > 0 ? steps / seconds : 0,
    perRound: t.rounds.map((r) => (r.seconds > 0 ? r.steps / r.seconds : 0)),
    ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}),
  };
}

function sumOf(values: readonly number[]): number {
  return values.reduce((n, v) => n + v, 0);
}

/** Median over the rounds both ran of a's speed over b's in that round. */
function ratio(a: Throughput, b: Throughput): number {
  const perRound = a.perRound.flatMap((speed, i) => {
    const base = b.perRound[i];
    return base ? [speed / base] : [];
  });
  return perRound.length > 0 ? median(perRound) : 0;
}
