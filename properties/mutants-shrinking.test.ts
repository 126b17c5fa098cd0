/**
 * Shrinking keeps only what a failure needs. A lost request or response and a race group used
 * to survive shrinking even when one plain call was enough, because `fc.oneof` only shrinks
 * inside the branch it picked; cross-shrinking in `move-arbitrary.ts` fixes that without
 * changing what is generated. These tests fail if either half is lost.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sequenceArbitrary } from '../src/generate/sequence-arbitrary.ts';
import type { Step } from '../src/model/events.ts';
import { setInterval as setIntervalSpec } from '../src/model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../src/model/world.ts';
import { countCoverage, emptyCoverage } from '../src/report/coverage.ts';
import { COVERAGE_KINDS } from '../src/types/coverage.ts';

const sequences = sequenceArbitrary(DEFAULT_FIXTURE, {
  spec: setIntervalSpec,
  stepsMax: 20,
  races: true,
  recreate: true,
});
const hasCall = (steps: readonly Step[]) =>
  steps.some(
    (s) =>
      s.kind === 'call' || (s.kind === 'concurrent' && s.events.some((e) => e.kind === 'call')),
  );

describe('shrinking generated sequences', () => {
  it('shrinks "any call fails" to one plain, delivered call sending r0, for 30 seeds', () => {
    // Before cross-shrinking, 10 of these 30 seeds kept a race group or a lost delivery.
    for (let seed = 1; seed <= 30; seed++) {
      const details = fc.check(
        fc.property(sequences, (steps) => !hasCall(steps)),
        { seed },
      );
      const [shrunk] = details.counterexample ?? [[]];
      expect(shrunk, `seed ${seed}`).toEqual([
        expect.objectContaining({
          kind: 'call',
          delivery: 'delivered',
          // Unusual request ids shrink away too: what is left reads r0.
          request: expect.objectContaining({ requestId: 'r0' }),
        }),
      ]);
    }
  });

  it('still generates varied sequences: every event kind, delivery and a spread of lengths', () => {
    const sample = fc.sample(sequences, { seed: 42, numRuns: 300 });
    const coverage = emptyCoverage();
    for (const steps of sample) countCoverage(steps, coverage);
    for (const kind of COVERAGE_KINDS) expect(coverage[kind], kind).toBeGreaterThan(0);
    const lengths = new Set(sample.map((s) => s.length));
    expect(lengths.size).toBeGreaterThanOrEqual(10);
    expect(Math.max(...lengths)).toBeGreaterThanOrEqual(15);
  });
});
