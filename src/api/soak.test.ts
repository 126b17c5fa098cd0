/**
 * Soak runs: clients issue operations back to back against one database, then one
 * linearizability check of the whole history. The reference passes and the counts show the
 * traffic the soak is meant to have; check-then-act, whose bug needs two first attempts at once,
 * is caught from volume alone, without any barrier lining calls up.
 */

import { describe, expect, it } from 'vitest';
import { soak } from './soak.ts';

describe('soak', () => {
  it('passes the reference handler, with retries, races and world events in the history', async () => {
    const r = await soak({ clients: 4, durationMs: 800, seed: 3, keepHistory: true });
    expect(r.verdict).toBe('passed');
    expect(r.failures).toEqual([]);
    expect(r.counts.calls).toBeGreaterThan(100);
    expect(r.counts.worldEvents).toBeGreaterThan(0);
    expect(r.counts.lostResponses).toBeGreaterThan(0);
    expect(r.counts.outcomes.fresh).toBeGreaterThan(0);
    expect(r.counts.outcomes.replayed).toBeGreaterThan(0);
    expect(r.history).toHaveLength(r.counts.operations);
    expect(new Set(r.history?.map((e) => e.client))).toEqual(new Set([-1, 0, 1, 2, 3]));
  });

  it('catches check-then-act from volume alone', async () => {
    let verdict = 'passed';
    for (let seed = 1; seed <= 3 && verdict === 'passed'; seed++) {
      const r = await soak({ handler: 'check-then-act', clients: 4, durationMs: 1_500, seed });
      verdict = r.verdict;
      if (r.verdict === 'failed')
        expect(r.failures[0]).toMatchObject({ kind: 'linearizability', verdict: 'illegal' });
    }
    expect(verdict).toBe('failed');
  });

  it('rejects a non-positive duration with a message naming the option', async () => {
    await expect(soak({ durationMs: 0 })).rejects.toMatchObject({
      code: 'E_BAD_OPTION',
      message: expect.stringContaining('durationMs'),
    });
  });
});
