/**
 * The cases `prove` searches when no case file is given (drawn from the seed up to a size
 * bound, each with a concurrent group), and a failure found in one, as a scheduled case file
 * that `replay` runs exactly.
 */
import fc from 'fast-check';
import type { Exploration, ProbedRun } from '../execute/prove/explore-schedules.ts';
import { sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import type { Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { ScheduledDetail } from '../types/execution.ts';
import type { ProveFailure } from '../types/prove.ts';
import type { Failure } from '../types/verdict.ts';
import type { JudgedRun } from './judged-runner.ts';

/** A judged scheduled run as the search sees it. */
export interface ProveRun extends ProbedRun {
  readonly judged: JudgedRun;
  /** The server chose which of two or more waiting lanes went first (`ScheduledDetail.serverOrdered`). */
  readonly serverOrdered: boolean;
  readonly failures: readonly Failure[];
}

/** Distinct cases drawn per case wanted, before they are chosen among. */
const POOL_PER_CASE = 10;

/**
 * The cases generated for `prove`: distinct, each with a concurrent group of at most `lanesMax`
 * lanes. Drawn from the seed into a pool ten times the count, then chosen so that every race
 * shape in the pool comes first (a case with a group whose kinds of racing event no case before
 * it had; `raceShapes`), in the order drawn, and the rest by draw order after. Drawn plainly,
 * twenty cases were all calls racing calls or a revoke: no move raced a call, and a mutant whose
 * bug only such a race shows held.
 */
export function generatedCases(
  fixture: Parameters<typeof sequenceArbitrary>[0],
  spec: OperationSpec,
  o: { stepsMax: number; lanesMax: number; count: number; seed: number; recreate: boolean },
): Step[][] {
  const arbitrary = sequenceArbitrary(fixture, {
    spec,
    stepsMax: o.stepsMax,
    races: true,
    recreate: o.recreate,
  }).filter(
    (steps) =>
      steps.some((s) => s.kind === 'concurrent') &&
      steps.every((s) => s.kind !== 'concurrent' || s.events.length <= o.lanesMax),
  );
  const seen = new Set<string>();
  const pool: Step[][] = [];
  const wanted = o.count * POOL_PER_CASE;
  // Drawn in rounds from the seed until the pool is full (or the draws run dry).
  for (let round = 0; round < 50 && pool.length < wanted; round++) {
    for (const steps of fc.sample(arbitrary, { seed: o.seed + round, numRuns: o.count * 4 })) {
      const key = JSON.stringify(steps);
      if (seen.has(key)) continue;
      seen.add(key);
      pool.push(steps);
      if (pool.length === wanted) break;
    }
  }
  const shapes = new Set<string>();
  const firsts: Step[][] = [];
  const rest: Step[][] = [];
  for (const steps of pool) {
    const own = raceShapes(steps);
    (own.every((shape) => shapes.has(shape)) ? rest : firsts).push(steps);
    for (const shape of own) shapes.add(shape);
  }
  return [...firsts, ...rest].slice(0, o.count);
}

/** Which kinds of event race in each concurrent group of `steps` (a call by its delivery). */
function raceShapes(steps: readonly Step[]): string[] {
  return steps.flatMap((s) =>
    s.kind === 'concurrent'
      ? [
          s.events
            .map((e) => (e.kind === 'call' ? `call:${e.delivery}` : e.kind))
            .sort()
            .join('+'),
        ]
      : [],
  );
}

/** A generated case as a case file, for the failure found in it. */
export function generatedCase(
  handler: string,
  fixture: CaseFile['fixture'],
  steps: readonly Step[],
): CaseFile {
  return {
    name: `${handler}: prove counterexample`,
    description: 'a generated case that fails under the schedule saved with it',
    handler,
    mode: 'scheduled',
    fixture,
    steps,
    expectations: [],
    extra: {},
  };
}

/** The failure as a scheduled case file: the case's own fields, its schedule and the failing run's detail. */
export function failureOf(
  c: CaseFile,
  steps: readonly Step[],
  handler: string,
  spec: OperationSpec,
  found: NonNullable<Exploration<ProveRun>['failure']>,
): ProveFailure {
  const detail = found.run.judged.detail as ScheduledDetail;
  const { decisions: _dropped, ...kept } = detail;
  const saved: ScheduledDetail = {
    ...kept,
    traceHash: detail.traceHash,
    lanes: detail.lanes,
    schedule: found.schedule,
  };
  return {
    caseFile: {
      ...c,
      name: c.name.includes('prove') ? c.name : `${c.name} (prove counterexample)`,
      handler,
      mode: 'scheduled',
      steps,
      extra: {
        ...c.extra,
        failures: found.run.failures,
        preemptions: found.preemptions,
        detail: saved,
      },
    },
    spec,
    preemptions: found.preemptions,
    failures: found.run.failures,
    detail: saved,
  };
}
