/**
 * Soak runs: clients issue operations back to back against one database, then one
 * linearizability check of the whole history. The reference passes and the counts show the
 * traffic the soak is meant to have; a handler whose replays are wrong is caught in the long
 * history. Runs are bounded by an operation count with a duration far beyond it, so how fast the
 * machine is decides nothing (a race bug found by volume would depend on thread timing: races
 * are the scheduler's, see properties/race-mutants.test.ts).
 */

import { describe, expect, it } from 'vitest';
import { soak } from './soak.ts';

describe('soak', () => {
  it('passes the reference handler, with retries, races and world events in the history', async () => {
    const r = await soak({
      clients: 4,
      durationMs: 120_000,
      operationsMax: 400,
      seed: 3,
      keepHistory: true,
    });
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

  it('catches a replay bug in the long history', async () => {
    const r = await soak({
      handler: 'replay-not-flagged',
      clients: 4,
      durationMs: 120_000,
      operationsMax: 300,
      seed: 1,
    });
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({ kind: 'linearizability', verdict: 'illegal' });
  });

  // Lost responses of calls that carry no expected version never go stale for the clients' view,
  // so these histories are decided through the harness's (check/harness-view.ts).
  it.each(['create-once', 'adjust-balance'])(
    'passes the %s reference with 8 clients, lost responses and world events',
    async (operation) => {
      const r = await soak({
        operation,
        clients: 8,
        durationMs: 120_000,
        operationsMax: 800,
        seed: 5,
      });
      expect(r.failures).toEqual([]);
      expect(r.verdict).toBe('passed');
      expect(r.counts.lostResponses).toBeGreaterThan(0);
      expect(r.counts.worldEvents).toBeGreaterThan(0);
    },
  );

  it('catches a double create in a create-once soak', async () => {
    const r = await soak({
      operation: 'create-once',
      handler: 'create-once-receipt-after-insert',
      clients: 8,
      durationMs: 120_000,
      operationsMax: 800,
      seed: 5,
    });
    expect(r.verdict).toBe('failed');
  });

  it('rejects a non-positive duration with a message naming the option', async () => {
    await expect(soak({ durationMs: 0 })).rejects.toMatchObject({
      code: 'E_BAD_OPTION',
      message: expect.stringContaining('durationMs'),
    });
  });
});
