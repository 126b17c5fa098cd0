/**
 * Properties over generated histories: linearizable by construction, they must pass (and the
 * witness found must hold up under `witnessProblem`); with one outcome broken beyond any order,
 * they must fail without the broken entry in the prefix. Partitioning must not change verdicts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { run } from '../../model/step.ts';
import { checkHistory } from './check-history.ts';
import { sameState } from './same-state.ts';
import { type SyntheticOptions, syntheticHistory } from './synthetic-history.ts';
import { witnessProblem } from './witness.ts';

const options: fc.Arbitrary<SyntheticOptions> = fc.record({
  seed: fc.integer(),
  entries: fc.integer({ min: 1, max: 1500 }),
  clients: fc.integer({ min: 1, max: 8 }),
  requestIdPool: fc.integer({ min: 1, max: 64 }),
  worldEventPairs: fc.integer({ min: 0, max: 6 }),
  unknownRate: fc.double({ min: 0, max: 0.3, noNaN: true }),
});

/**
 * A clock that never moves: the search is bounded by its step and state budgets alone, which do
 * not depend on how busy the machine is. With the default wall-clock limit, a 1,500-entry history
 * on a loaded machine ran out of time and read as a failure.
 */
const NO_CLOCK = { clock: () => 0 } as const;

describe('synthetic histories', () => {
  it('the generator’s own witness is a linearisation', () => {
    fc.assert(
      fc.property(options, (o) => {
        const { initial, history, witness } = syntheticHistory(o);
        expect(witnessProblem(initial, history, witness)).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it('linearizable histories pass, with a valid witness and its final state, partitioned or not', () => {
    fc.assert(
      fc.property(options, fc.boolean(), fc.constantFrom(1, 8, 512), (o, partition, horizon) => {
        const { initial, history } = syntheticHistory(o);
        const result = checkHistory(initial, history, {
          partition,
          horizonFrames: horizon,
          ...NO_CLOCK,
        });
        expect(result.verdict).toBe('ok');
        if (result.verdict !== 'ok') return;
        expect(witnessProblem(initial, history, result.order)).toBeUndefined();
        const byId = new Map(history.map((e) => [e.id, e.event]));
        const replayed = run(
          initial,
          result.order.map((id) => byId.get(id) ?? { kind: 'storeRestore' }),
        ).state;
        expect(sameState(replayed, result.finalState)).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  it('a history with one impossible outcome is rejected, partitioned or not', () => {
    fc.assert(
      fc.property(options, fc.boolean(), fc.constantFrom(1, 8, 512), (o, partition, horizon) => {
        const { initial, history, corruptedId } = syntheticHistory({ ...o, corrupt: true });
        const result = checkHistory(initial, history, {
          partition,
          horizonFrames: horizon,
          ...NO_CLOCK,
        });
        expect(result.verdict).toBe('illegal');
        if (result.verdict !== 'illegal') return;
        expect(result.longestPrefix).not.toContain(corruptedId);
        expect(result.partition).toContain(corruptedId);
      }),
      { numRuns: 120 },
    );
  });

  it('is deterministic for a seed', () => {
    expect(syntheticHistory({ seed: 3, entries: 200 })).toEqual(
      syntheticHistory({ seed: 3, entries: 200 }),
    );
  });
});
