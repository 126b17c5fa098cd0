/**
 * A run's operation coverage counted from generation's model walk (each event's state and answer,
 * each group's conflict) is the one the model stepped afresh gives, for every operation and
 * policy: the walk saves the summary its model steps and changes none of its counts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelWalkOf } from '../generate/model-walk.ts';
import { sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import type { OperationSpec } from '../model/operation.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { countOperationCoverage, emptyOperationCoverage } from './operation-coverage.ts';

const FIXTURES: readonly [string, FixtureWithPolicy, OperationSpec][] = [
  ['set-interval', DEFAULT_FIXTURE, setIntervalSpec],
  [
    'set-interval, idempotency first, refusals stored',
    { ...DEFAULT_FIXTURE, policy: { idempotencyFirst: true, storesRefusals: true } },
    setIntervalSpec,
  ],
  ['create-once', { ...createOnce.fixture, operation: createOnce.name }, createOnce],
  ['adjust-balance', { ...adjustBalance.fixture, operation: adjustBalance.name }, adjustBalance],
];

describe.each(FIXTURES)('operation coverage of %s', (_, fixture, spec) => {
  const samples = fc.sample(
    sequenceArbitrary(fixture, { spec, stepsMax: 20, races: true, recreate: true }),
    { seed: 5, numRuns: 300 },
  );

  it('counts from the model walk what stepping the model afresh counts, run by run', () => {
    for (const steps of samples) {
      expect(modelWalkOf(steps, fixture, spec)).toBeDefined();
      const walked = emptyOperationCoverage(spec);
      countOperationCoverage(steps, fixture, spec, walked);
      // A copy of the steps has no walk: the model is stepped.
      const stepped = emptyOperationCoverage(spec);
      countOperationCoverage([...steps], fixture, spec, stepped);
      expect(walked).toEqual(stepped);
    }
  });

  it('has groups that conflict and groups that do not among the samples', () => {
    const total = emptyOperationCoverage(spec);
    for (const steps of samples) countOperationCoverage(steps, fixture, spec, total);
    expect(total.groups.conflicting).toBeGreaterThan(0);
    expect(total.groups.total).toBeGreaterThan(total.groups.conflicting);
  });
});
