/**
 * The race mutants at default settings (300 runs; a check stops at its first failure): each is
 * caught in scheduled mode on every one of 10 seeds, where the scheduler decides every
 * interleaving itself, so the kill does not depend on how threads happen to be scheduled. Each
 * behaves exactly like the reference one call at a time, so sequential mode must let it
 * through: that pair shows the kills come from the interleaving, not from a sequential slip. The
 * reference passes both racing modes over 10 seeds with no false alarm (a correct handler
 * passes whatever the timing, so real threads may be asked that much).
 */
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import type { Mode } from '../src/types/mode.ts';

const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

async function kills(handler: string, mode: Mode, runs?: number) {
  const verdicts = [];
  for (const seed of SEEDS) {
    const r = await checkHandler({ handler, mode, seed, ...(runs ? { runs } : {}) });
    verdicts.push(r.verdict);
  }
  return verdicts.filter((v) => v === 'failed').length;
}

describe.each(['check-then-act', 'deferred-transaction', 'race-loser-error'])(
  'mutant %s',
  (handler) => {
    it('is caught in scheduled mode on all 10 seeds', async () => {
      expect(await kills(handler, 'scheduled')).toBe(10);
    });

    it('passes sequential mode: its bug needs two calls at once', async () => {
      expect(await kills(handler, 'sequential', 100)).toBe(0);
    });
  },
);

describe('a default check (no mode: sequential, then scheduled)', () => {
  it('catches check-then-act on seeds 1–10, shrunk to at most 3 steps', async () => {
    for (const seed of SEEDS) {
      const r = await checkHandler({ handler: 'check-then-act', seed });
      expect(r.verdict, `seed ${seed}`).toBe('failed');
      expect(r.modes).toEqual(['sequential', 'scheduled']);
      expect(r.counterexample?.mode).toBe('scheduled');
      expect(r.counterexample?.steps.length, `seed ${seed}`).toBeLessThanOrEqual(3);
    }
  });
});

describe('the reference handler', () => {
  it.each(['scheduled', 'concurrent'] as const)(
    'passes %s mode over 10 seeds with no false alarm',
    async (mode) => {
      expect(await kills('reference', mode, 100)).toBe(0);
    },
  );
});
