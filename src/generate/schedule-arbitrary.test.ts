/**
 * Which move made which step, read off the steps in one pass (`movesMadeSteps`), against the
 * brute force it replaced (`scheduleByPrefixes`: one resolution per prefix), over generated move
 * lists of every operation, with and without a declared expiry; and the fallback when the steps
 * do not fit the moves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { resolvePolicy } from '../model/policy.ts';
import { DEFAULT_FIXTURE, type Fixture } from '../model/world.ts';
import { moveArbitrary } from './move-arbitrary.ts';
import type { Move } from './moves.ts';
import { resolveMoves } from './resolve.ts';
import { movesMadeSteps, scheduleByPrefixes } from './schedule-arbitrary.ts';

const FIXTURES: readonly [string, Fixture, OperationSpec][] = [
  ['set-interval', DEFAULT_FIXTURE, setIntervalSpec],
  [
    'set-interval, expiring receipts',
    { ...DEFAULT_FIXTURE, policy: resolvePolicy({ receiptExpiry: 3_600_000 }) } as Fixture,
    setIntervalSpec,
  ],
  ['create-once', { ...createOnce.fixture, operation: createOnce.name }, createOnce],
  ['adjust-balance', { ...adjustBalance.fixture, operation: adjustBalance.name }, adjustBalance],
];

describe.each(FIXTURES)('movesMadeSteps on %s', (_, fixture, spec) => {
  const lists = fc.sample(
    fc.array(moveArbitrary(fixture, { spec, races: true, recreate: true }), { maxLength: 20 }),
    { seed: 3, numRuns: 600 },
  );

  it('names the same move for every step as resolving every prefix does', () => {
    let dropped = 0;
    for (const moves of lists) {
      const steps = resolveMoves(fixture, moves, { spec });
      dropped += moves.length - steps.length;
      expect(movesMadeSteps(moves, steps)).toEqual(
        scheduleByPrefixes(fixture, moves, steps, { spec }),
      );
    }
    // The comparison means something only if moves were dropped.
    expect(dropped).toBeGreaterThan(50);
  });
});

describe('movesMadeSteps', () => {
  const retry: Move = { kind: 'retry', client: 1, pick: 0, delivery: 'delivered' };
  const store: Move = { kind: 'store', failing: true };
  const fail: Step = { kind: 'storeFail' };

  it('passes over a move that may make nothing, not over one that always makes a step', () => {
    expect(movesMadeSteps([retry, store], [fail])).toEqual([1]);
    expect(movesMadeSteps([store, store], [fail])).toBeUndefined();
  });

  it('is undefined when steps are left over', () => {
    expect(movesMadeSteps([retry], [fail])).toBeUndefined();
  });
});
