/**
 * The race mutants at default settings (300 runs; a check stops at its first failure): each is
 * caught in scheduled mode on every one of 10 seeds, where the scheduler decides every
 * interleaving itself, so the kill does not depend on how threads happen to be scheduled. Each
 * behaves exactly like the reference one call at a time, so sequential mode must let it
 * through: that pair shows the kills come from the interleaving, not from a sequential slip. The
 * reference passes both racing modes over 10 seeds with no false alarm (a correct handler
 * passes whatever the timing, so real threads may be asked that much). A correct handler that
 * backs off on a timer between retries of a lock error (SQLITE_BUSY; PostgreSQL's 55P03) passes
 * scheduled mode (a lane that sleeps yields, so the lane holding the lock commits), while the
 * same SQLite handler retrying at once, a real bug, is still caught.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import { stopEmbeddedPostgres } from '../src/execute/postgres/server.ts';
import type { Mode } from '../src/types/mode.ts';

afterAll(() => stopEmbeddedPostgres());

const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

async function kills(
  handler: string,
  mode: Mode,
  runs?: number,
  seeds = SEEDS,
  callTimeoutMs?: number,
) {
  const verdicts = [];
  for (const seed of seeds) {
    const r = await checkHandler({
      handler,
      mode,
      seed,
      ...(runs ? { runs } : {}),
      ...(callTimeoutMs ? { callTimeoutMs } : {}),
    });
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

describe('retrying a lock error in scheduled mode, seeds 1–3', () => {
  const fixture = (name: string) =>
    fileURLToPath(new URL(`../src/execute/sqlite/scheduled/fixtures/${name}`, import.meta.url));
  // A short call budget: 50 retries with their pauses (6.4 s) would outlast it, were the
  // retrying lane to keep every grant while the lane holding the lock waits.
  it('a handler that backs off on a timer between retries holds: a lane that sleeps yields', async () => {
    expect(await kills(fixture('busy-backoff.ts'), 'scheduled', 100, [1, 2, 3], 2_000)).toBe(0);
  });

  it('the same handler retrying at once, 50 times, is caught', async () => {
    expect(await kills(fixture('busy-bounded.ts'), 'scheduled', 100, [1, 2, 3], 2_000)).toBe(3);
  });

  it('on PostgreSQL, a handler that backs off after 55P03 (FOR UPDATE NOWAIT) holds', async () => {
    const handler = fileURLToPath(
      new URL(
        '../src/handlers/operations/set-interval/postgres/fixtures/nowait-backoff.ts',
        import.meta.url,
      ),
    );
    expect(await kills(handler, 'scheduled', 60, [1, 2, 3], 2_000)).toBe(0);
  });
});
