/**
 * `prove` against random sampling, the two ways a user meets races: how soon each finds a race
 * mutant's bug, and how much of the schedule space sampling covers in the time proving takes.
 *
 * - Kills: `prove` at its defaults on each race mutant (a catalogue entry killed in scheduled
 *   mode), timed once (it is deterministic), beside random scheduled mode's median time to kill.
 * - Coverage: `prove` over a few generated cases of the bench's handler records every schedule's
 *   trace hash; then, on each of the same cases and for the same time that case's proof took,
 *   schedules are drawn as scheduled mode draws them (interleavings only: a proof without
 *   `--injections` tries no crash or fault, so neither does the sample) and their trace hashes
 *   counted. What the sample missed is the part of the bound's schedules it did not reach.
 */
import fc from 'fast-check';
import { inMode, resolveOptions } from '../api/options.ts';
import { prepareRun } from '../api/prepare-run.ts';
import { prove } from '../api/prove.ts';
import { stepScheduleArbitrary } from '../generate/schedule-arbitrary.ts';
import type { Step } from '../model/events.ts';
import type { ProvedCase } from '../types/prove.ts';
import type { StepSchedule } from '../types/schedule.ts';
import type { CoverageFigure, KillFigure, ProveKillFigure } from './bench-report.ts';

/** A race mutant to prove, and random scheduled mode's figure for it. */
export interface RaceMutant {
  readonly name: string;
  readonly operation: string | undefined;
  readonly random: KillFigure;
}

/**
 * Proves each race mutant at the default bound. `schedulesMax` bounds each case's search, so a
 * mutant whose cases have very many schedules (PostgreSQL has no reduction) reports no verdict
 * instead of holding the bench for minutes.
 */
export async function proveKills(
  mutants: readonly RaceMutant[],
  schedulesMax: number,
  onProgress: (line: string) => void,
): Promise<ProveKillFigure[]> {
  const figures: ProveKillFigure[] = [];
  for (const [i, m] of mutants.entries()) {
    onProgress(`prove ${i + 1}/${mutants.length}: ${m.name}`);
    const started = performance.now();
    const result = await prove({
      handler: m.name,
      ...(m.operation !== undefined ? { operation: m.operation } : {}),
      schedulesMax,
    });
    figures.push({
      mutant: m.name,
      operation: m.operation,
      verdict: result.verdict,
      seconds: (performance.now() - started) / 1000,
      schedules: result.runs,
      preemptions: result.failure?.preemptions ?? null,
      randomSecondsMedian: m.random.available ? m.random.secondsMedian : null,
      randomKilled: m.random.killed,
      randomSeeds: m.random.seeds,
    });
  }
  return figures;
}

/** What the coverage measurement is given. */
export interface CoverageOptions {
  readonly handler: string;
  readonly operation: string | undefined;
  /** Generated cases proved, then sampled. */
  readonly cases: number;
  readonly seed: number;
  readonly schedulesMax: number;
  readonly onProgress: (line: string) => void;
}

/** Proves `cases` generated cases of the handler, then samples each for as long (file comment). */
export async function measureCoverage(o: CoverageOptions): Promise<CoverageFigure> {
  o.onProgress(`coverage: prove over ${o.cases} generated cases of ${o.handler}`);
  const proved: ProvedCase[] = [];
  const result = await prove({
    handler: o.handler,
    ...(o.operation !== undefined ? { operation: o.operation } : {}),
    cases: o.cases,
    seed: o.seed,
    schedulesMax: o.schedulesMax,
    onCase: (c) => proved.push(c),
  });
  o.onProgress(`coverage: sampling the same ${proved.length} cases for the same time`);
  const sampled = await sampleCases(o, proved);
  const proveDistinct = new Set(proved.flatMap((c) => c.traceHashes));
  const sampledDistinct = new Set(sampled);
  const ofProve = [...sampledDistinct].filter((h) => proveDistinct.has(h)).length;
  return {
    handler: o.handler,
    verdict: result.verdict,
    preemptions: result.preemptions,
    cases: proved.length,
    proveSeconds: proved.reduce((t, c) => t + c.elapsedMs, 0) / 1000,
    // The full-bound pass alone: the lower bounds' passes are not what sampling is given time for.
    proveSchedules: proved.reduce((n, c) => n + c.traceHashes.length, 0),
    proveDistinct: proveDistinct.size,
    sampledRuns: sampled.length,
    sampledDistinct: sampledDistinct.size,
    sampledOfProve: ofProve,
    sampledBeyond: sampledDistinct.size - ofProve,
  };
}

/** Every sampled run's trace hash: each case sampled for as long as its proof took. */
async function sampleCases(o: CoverageOptions, proved: readonly ProvedCase[]): Promise<string[]> {
  const resolved = resolveOptions({
    handler: o.handler,
    ...(o.operation !== undefined ? { operation: o.operation } : {}),
    mode: 'scheduled',
  });
  const prepared = await prepareRun(inMode(resolved, 'scheduled'));
  const hashes: string[] = [];
  try {
    for (const [i, c] of proved.entries()) {
      const schedules = scheduleStream(c.steps, o.seed + i);
      const until = performance.now() + c.elapsedMs;
      do {
        const judged = await prepared.runner.execute(c.steps, { schedule: schedules.next() });
        if (judged.detail?.mode !== 'scheduled')
          throw new Error('a sampled run came back without its scheduled detail');
        hashes.push(judged.detail.traceHash);
      } while (performance.now() < until);
    }
  } finally {
    await prepared.runner.close();
  }
  return hashes;
}

/** Draws schedules for `steps` as scheduled mode does, without crashes and faults, from `seed`. */
function scheduleStream(steps: readonly Step[], seed: number): { next(): StepSchedule[] } {
  const interleaving = stepScheduleArbitrary().map(({ choices }): StepSchedule => ({ choices }));
  const arbitrary = fc.tuple(...steps.map(() => interleaving));
  let batch: StepSchedule[][] = [];
  let drawn = 0;
  return {
    next() {
      if (batch.length === 0) {
        batch = fc.sample(arbitrary, { seed: seed + drawn, numRuns: 100 });
        drawn++;
      }
      return batch.pop() ?? [];
    },
  };
}
