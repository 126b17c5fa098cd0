/**
 * The model's walk kept from generation (`model-walk.ts`) is exactly what stepping the model over
 * the steps gives, for every operation and policy, so the judge that reads it gives the same
 * verdicts: a pass/fail pair shows `checkRun` with the walk accepting the model's own answers and
 * rejecting a changed one, like `checkRun` without it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRun } from '../check/check-run.ts';
import type { Step } from '../model/events.ts';
import { flatten } from '../model/flatten.ts';
import type { OperationSpec } from '../model/operation.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import { type FixtureWithPolicy, initialState, toSnapshot } from '../model/state.ts';
import { step } from '../model/step.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { Observation } from '../types/trace.ts';
import { modelWalkOf } from './model-walk.ts';
import { sequenceArbitrary } from './sequence-arbitrary.ts';

const FIXTURES: readonly [string, FixtureWithPolicy, OperationSpec][] = [
  ['set-interval', DEFAULT_FIXTURE, setIntervalSpec],
  [
    'set-interval, receipts expire',
    { ...DEFAULT_FIXTURE, policy: { receiptExpiry: 1000 } },
    setIntervalSpec,
  ],
  [
    'set-interval, refusals stored',
    { ...DEFAULT_FIXTURE, policy: { storesRefusals: true } },
    setIntervalSpec,
  ],
  ['create-once', { ...createOnce.fixture, operation: createOnce.name }, createOnce],
  ['adjust-balance', { ...adjustBalance.fixture, operation: adjustBalance.name }, adjustBalance],
];

/** The model stepped over `steps` afresh: each event's outcome and the final state. */
function stepped(fixture: FixtureWithPolicy, spec: OperationSpec, steps: readonly Step[]) {
  let state = initialState(fixture, spec);
  const outcomes: (Observed | undefined)[] = [];
  for (const { event } of flatten(steps)) {
    const t = step(state, event);
    state = t.state;
    outcomes.push(t.outcome);
  }
  return { outcomes, state };
}

/** The trace a handler that answers as the model does would record. */
function modelTrace(fixture: FixtureWithPolicy, spec: OperationSpec, steps: readonly Step[]) {
  const { outcomes, state } = stepped(fixture, spec, steps);
  const observations: Observation[] = [];
  flatten(steps).forEach(({ event, step, lane }, i) => {
    const observed = outcomes[i];
    if (event.kind === 'call' && observed) observations.push({ step, lane, event, observed });
  });
  return { observations, snapshot: toSnapshot(state) };
}

describe.each(FIXTURES)('the walk kept for %s', (_, fixture, spec) => {
  const samples = fc.sample(
    sequenceArbitrary(fixture, { spec, stepsMax: 20, races: true, recreate: true }),
    { seed: 11, numRuns: 400 },
  );

  it('is the model stepped afresh, event by event, to the same final state', () => {
    for (const steps of samples) {
      const walk = modelWalkOf(steps, fixture, spec);
      if (!walk) throw new Error('no walk kept for a generated sequence');
      const fresh = stepped(fixture, spec, steps);
      expect(walk.outcomes).toEqual(fresh.outcomes);
      expect(toSnapshot(walk.state)).toEqual(toSnapshot(fresh.state));
    }
  });

  it('is only for the fixture and operation it was made from, and only for generated steps', () => {
    const steps = samples.find((s) => s.length > 0) ?? [];
    expect(modelWalkOf(steps, fixture, spec)).toBeDefined();
    expect(modelWalkOf(steps, { ...fixture }, spec)).toBeUndefined();
    expect(modelWalkOf(steps, fixture, { ...spec })).toBeUndefined();
    expect(modelWalkOf([...steps], fixture, spec)).toBeUndefined();
  });

  it('gives checkRun the verdicts stepping gives: the model’s answers pass, a changed one fails', () => {
    let changed = 0;
    for (const steps of samples) {
      const walk = modelWalkOf(steps, fixture, spec);
      const trace = modelTrace(fixture, spec, steps);
      expect(checkRun({ fixture, spec, steps, trace, ...(walk ? { walk } : {}) })).toEqual({
        verdict: 'ok',
      });
      const first = trace.observations[0];
      if (!first) continue;
      const wrong: Observed = { kind: 'unexpected', message: 'not what the model says' };
      const bad = {
        ...trace,
        observations: [{ ...first, observed: wrong }, ...trace.observations.slice(1)],
      };
      const withWalk = checkRun({ fixture, spec, steps, trace: bad, ...(walk ? { walk } : {}) });
      expect(withWalk).toEqual(checkRun({ fixture, spec, steps, trace: bad }));
      expect(withWalk.verdict).toBe('failed');
      changed++;
    }
    expect(changed).toBeGreaterThan(100);
  });
});
