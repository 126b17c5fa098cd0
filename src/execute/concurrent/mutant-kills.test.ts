/**
 * Issue 3's bar for concurrent mode, at default settings (300 runs, 4 workers; a check stops at
 * its first failure): each race mutant is caught in at least 9 of 10 seeds, and the reference
 * handler passes 10 seeds with no false alarm. Both mutants behave exactly like the reference one
 * call at a time, so sequential mode must let them through: that is the pair that shows the
 * kills come from real overlap, not from some sequential slip.
 */
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../../api/check-handler.ts';

const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

async function kills(handler: string, mode: 'concurrent' | 'sequential', runs?: number) {
  const verdicts = [];
  for (const seed of SEEDS) {
    const r = await checkHandler({ handler, mode, seed, ...(runs ? { runs } : {}) });
    verdicts.push(r.verdict);
    if (r.counterexample) expect(r.counterexample.failures[0]?.kind).toBe('linearizability');
  }
  return verdicts.filter((v) => v === 'failed').length;
}

describe.each(['check-then-act', 'deferred-transaction'])('mutant %s', (handler) => {
  it('is caught in concurrent mode in at least 9 of 10 seeds', async () => {
    expect(await kills(handler, 'concurrent')).toBeGreaterThanOrEqual(9);
  });

  it('passes sequential mode: its bug needs two calls at once', async () => {
    expect(await kills(handler, 'sequential', 100)).toBe(0);
  });
});

describe('the reference handler', () => {
  it('passes concurrent mode over 10 seeds with no false alarm', async () => {
    expect(await kills('reference', 'concurrent', 100)).toBe(0);
  });
});
