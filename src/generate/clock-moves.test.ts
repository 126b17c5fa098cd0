/**
 * Clock advances in generated sequences: drawn only for a policy that declares an expiry, in steps
 * that reach both sides of it (a retry within the lifetime replays, one past it runs again), and
 * never summing to the lifetime itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { resolvePolicy } from '../model/policy.ts';
import { type FixtureWithPolicy, initialState } from '../model/state.ts';
import { step as modelStep } from '../model/step.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { clockStep } from './clock-step.ts';
import { sequenceArbitrary } from './sequence-arbitrary.ts';

const HOUR = 3_600_000;
const OPTIONS = { spec: setIntervalSpec, races: false, recreate: false, stepsMax: 20 };
const events = (steps: readonly Step[]): Event[] =>
  steps.flatMap((s) => (s.kind === 'concurrent' ? s.events : [s]));
const sample = (fixture: FixtureWithPolicy) =>
  fc.sample(sequenceArbitrary(fixture, OPTIONS), { seed: 1, numRuns: 200 });

describe('clock advances', () => {
  it('are never drawn under the contract', () => {
    const drawn = sample(DEFAULT_FIXTURE).flatMap(events);
    expect(drawn.some((e) => e.kind === 'clockAdvance')).toBe(false);
  });

  it('are drawn under a declared expiry, and reach both a replay within it and a retry past it', () => {
    const fixture: FixtureWithPolicy = {
      ...DEFAULT_FIXTURE,
      policy: resolvePolicy({ receiptExpiry: HOUR }),
    };
    let replayedAfterTime = 0;
    let expired = 0;
    const sizes = new Set<number>();
    for (const seq of sample(fixture)) {
      let state = initialState(fixture, setIntervalSpec);
      let advanced = false;
      for (const e of events(seq)) {
        if (e.kind === 'clockAdvance') {
          sizes.add(e.ms);
          advanced = true;
        }
        const before = state.receipts.size;
        const t = modelStep(state, e);
        if (e.kind === 'clockAdvance' && t.state.receipts.size < before) expired++;
        if (advanced && t.outcome?.kind === 'ok' && t.outcome.replayed) replayedAfterTime++;
        state = t.state;
      }
    }
    expect([...sizes].sort()).toEqual([clockStep(HOUR, false), clockStep(HOUR, true)].sort());
    expect(expired).toBeGreaterThan(0);
    expect(replayedAfterTime).toBeGreaterThan(0);
  });

  it('never add up to the lifetime itself', () => {
    for (const lifetime of [1000, HOUR, 86_400_000, 7]) {
      const short = clockStep(lifetime, false);
      const long = clockStep(lifetime, true);
      for (let a = 0; a <= 5; a++)
        for (let b = 0; b <= 2; b++) expect(a * short + b * long).not.toBe(lifetime);
      expect(short * 2).toBeLessThan(lifetime);
      expect(short * 3).toBeGreaterThan(lifetime);
    }
  });
});
