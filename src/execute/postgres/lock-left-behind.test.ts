/**
 * A lock left behind on PostgreSQL: `pg-leaked-advisory-lock` takes its key lock with
 * `pg_advisory_lock` and releases it only after a fresh ok, so a refused call leaves the key
 * locked by its connection for the rest of the run. A later call of that key on another
 * connection waits for ever; every mode must report it as a hang, at once (`locked`, found from
 * the server's lock table, never from a clock: the call budget here is far above any call), and
 * every run must end with a verdict. Before, scheduled mode waited for ever on a plain step's
 * connection, and sequential mode, with one connection for every call, could not see the lock.
 * Each case is paired with the reference, which holds on the same steps.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../../api/check-handler.ts';
import { judgedRunner } from '../../api/judged-runner.ts';
import leaked from '../../handlers/operations/set-interval/postgres/fixtures/leaked-advisory-lock.ts';
import reference from '../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { CallEvent, Step } from '../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { Failure } from '../../types/verdict.ts';
import type { ModeRunner } from '../mode-runner.ts';
import { postgresConcurrentRunner } from './concurrent-mode.ts';
import { isLocked, untilSettled } from './lock-left-behind.ts';
import { postgresScheduledRunner } from './scheduled/scheduled-mode.ts';
import { postgresSequentialRunner } from './sequential-mode.ts';
import { stopEmbeddedPostgres } from './server.ts';

const LEAKED = 'src/handlers/operations/set-interval/postgres/fixtures/leaked-advisory-lock.ts';
/** Far above any call's time: a `locked` hang is found without waiting it out. */
const CALL_TIMEOUT_MS = 60_000;
/** Longest shrunk counterexample accepted, in steps (as for every catalogued mutant). */
const SHRUNK_STEPS_MAX = 4;
const options = {
  fixture: DEFAULT_FIXTURE,
  spec: setIntervalSpec,
  callTimeoutMs: CALL_TIMEOUT_MS,
  databaseUrl: undefined,
};

/** Alice sets automation 1 expecting `version`: 2 is a conflict, which leaks the key's lock. */
const call = (requestId: string, version: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: version, intervalMinutes: 30 },
});

type Open = (plugin: PostgresHandlerPlugin) => Promise<ModeRunner>;
const MODES: Record<'sequential' | 'concurrent' | 'scheduled', Open> = {
  sequential: (plugin) => postgresSequentialRunner(plugin, options),
  concurrent: (plugin) => postgresConcurrentRunner(plugin, options),
  scheduled: (plugin) => postgresScheduledRunner(plugin, options),
};

/** Runs `steps` once on a fresh runner of `mode` for `plugin`, judged. */
async function runOnce(mode: keyof typeof MODES, plugin: PostgresHandlerPlugin, steps: Step[]) {
  const runner = await MODES[mode](plugin);
  try {
    return await judgedRunner(runner, DEFAULT_FIXTURE, setIntervalSpec).execute(steps, {
      schedule: [],
    });
  } finally {
    await runner.close();
  }
}

const hangOf = (failures: readonly Failure[]) => failures.find((f) => f.kind === 'hang');

afterAll(() => stopEmbeddedPostgres(), 60_000);

describe('untilSettled', () => {
  const never = new Promise<never>(() => {});
  it('gives the value of work that settles, without asking about locks', async () => {
    let asked = 0;
    const r = await untilSettled(Promise.resolve(7), 60_000, async () => ++asked > 0);
    expect(r).toEqual({ settled: true, value: 7 });
    expect(asked).toBe(0);
  });

  it('stops work that waits on a lock left behind at once, and other work at the budget', async () => {
    const locked = await untilSettled(never, 60_000, async () => true);
    expect(isLocked(locked)).toBe(true);
    const unsettled = await untilSettled(never, 120, async () => false);
    expect(unsettled).toEqual({ settled: false });
    expect(isLocked(unsettled)).toBe(false);
  });

  it('passes a rejection on', async () => {
    await expect(
      untilSettled(Promise.reject(new Error('no')), 60_000, async () => false),
    ).rejects.toThrow('no');
  });
});

describe('a lock a call left behind, met by a call on another connection', () => {
  // [mode, steps, where the hang is]: the refused call leaks the lock, the later one waits.
  const cases: [keyof typeof MODES, string, Step[], { step: number; lane: number }][] = [
    [
      // One after another, each on its lane's connection, as a pool would hand them out.
      'sequential',
      'a group: its second call waits on the first one’s lock',
      [{ kind: 'concurrent', events: [call('a', 2), call('a', 2)] }],
      { step: 0, lane: 1 },
    ],
    [
      'concurrent',
      'a group’s second lane waits on the lock lane 1 kept from the step before',
      [call('a', 2), { kind: 'concurrent', events: [call('b', 1), call('a', 2)] }],
      { step: 1, lane: 1 },
    ],
    [
      // What ran for ever: the coordinator's connection waited, and a ROLLBACK queued behind it.
      'scheduled',
      'a plain step waits on the lock a lane of the group before kept',
      [{ kind: 'concurrent', events: [call('a', 2), call('b', 1)] }, call('a', 2)],
      { step: 1, lane: 0 },
    ],
    [
      'scheduled',
      'a lane waits on the lock the plain step before kept',
      [call('a', 2), { kind: 'concurrent', events: [call('a', 2), call('b', 1)] }],
      { step: 1, lane: 0 },
    ],
  ];

  it.each(cases)(
    '%s mode, %s: a hang, at once',
    async (mode, _what, steps, at) => {
      const r = await runOnce(mode, leaked, steps);
      expect(r.verdict.verdict).toBe('failed');
      const failures = r.verdict.verdict === 'failed' ? r.verdict.failures : [];
      expect(hangOf(failures)).toMatchObject({ ...at, how: 'locked', limitMs: CALL_TIMEOUT_MS });
      // The reference's key lock is the transaction's: the same steps hold.
      expect((await runOnce(mode, reference, steps)).verdict).toEqual({ verdict: 'ok' });
    },
    120_000,
  );
});

describe('checkHandler on the handler that leaks its lock', () => {
  // Few runs: each mode meets the leak within them (sequential and concurrent at run 14 of seed 3
  // since the edge-seeking groups, scheduled at run 2 of seed 3, a two-step case, where seed 2
  // met it at run 5 with a longer case to shrink); the shrink is what takes the time. A shrunk case is at most
  // SHRUNK_STEPS_MAX steps, the readable bound every shrunk counterexample is held to: which
  // smallest case the shrink lands on (a one-step group, or a leak and the call after it) is the
  // seed's, not what this is about.
  it.each([
    ['sequential', 3, 30],
    ['concurrent', 3, 30],
    ['scheduled', 3, 10],
  ] as const)(
    '%s mode (seed %i): a shrunk counterexample whose hang is the lock left behind',
    async (mode, seed, runs) => {
      const r = await checkHandler({
        handler: LEAKED,
        mode,
        runs,
        seed,
        callTimeoutMs: CALL_TIMEOUT_MS,
      });
      expect(r.verdict).toBe('failed');
      const cx = r.counterexample;
      expect(cx?.shrinkCut).toBeUndefined();
      expect(hangOf(cx?.failures ?? [])).toMatchObject({ how: 'locked' });
      expect(cx?.steps.length).toBeLessThanOrEqual(SHRUNK_STEPS_MAX);
    },
    300_000,
  );
});
