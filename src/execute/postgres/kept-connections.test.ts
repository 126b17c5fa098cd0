/**
 * Kept connections leak nothing from one run to the next. A lane's backend lives for the
 * runner's life; a run leaves it dirty (a transaction open, a session advisory lock, a setting, a
 * temporary table, plugin code with a query it never awaited) and the next run must find it as
 * a fresh one: the same backend, cleaned, or a new one. Each probe is first shown to see the dirt
 * (read before the reset), so a cleaning that missed it would fail here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import reference from '../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PgConnection, PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { CallEvent, Step } from '../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { dropIdleDatabase } from './idle-database.ts';
import { PostgresSession } from './postgres-session.ts';
import { templateCopies } from './run-database.ts';
import { type PgScheduledRunner, postgresScheduledRunner } from './scheduled/scheduled-mode.ts';
import { stopEmbeddedPostgres } from './server.ts';

afterAll(() => stopEmbeddedPostgres(), 60_000);

/** What a session looks like from inside: its backend and everything a run could leave on it. */
interface Seen {
  readonly pid: number;
  readonly app: string;
  readonly deadlockTimeout: string;
  readonly lockFree: boolean;
  readonly temp: boolean;
  readonly version: number;
}

const PROBE = `
SELECT pg_backend_pid() AS pid, current_setting('application_name') AS app,
  current_setting('deadlock_timeout') AS "deadlockTimeout",
  NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242) AS "lockFree",
  to_regclass('pg_temp.leaked') IS NOT NULL AS temp,
  (SELECT max(version) FROM automations)::int AS version`;

async function probe(db: PgConnection): Promise<Seen> {
  return (await db.query<Seen>(PROBE)).rows[0] as Seen;
}

/** Everything a run can leave on its session, the transaction last (left open). */
async function dirty(db: PgConnection): Promise<void> {
  await db.query("SET application_name = 'leaked'");
  await db.query("SET deadlock_timeout = '2s'");
  await db.query('SELECT pg_advisory_lock(4242)');
  await db.query('CREATE TEMP TABLE leaked (x int)');
  await db.query('BEGIN');
  await db.query('UPDATE automations SET version = 77');
}

const clean = (pid: number, deadlockTimeout: string) => ({
  pid,
  app: '',
  deadlockTimeout,
  lockFree: true,
  temp: false,
  version: 1,
});

/** A call of client 0 on automation 1, named by its request id (the probes read it). */
const call = (requestId: string): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
});

/** Two such calls at once, on lanes 1 and 2. */
const group = (a: string, b: string): Step => ({ kind: 'concurrent', events: [call(a), call(b)] });

/**
 * A scheduled runner of the reference in which a call named `dirty` dirties its connection and then
 * does `after`, and one named `probe` records what its connection shows in `seen`.
 */
async function probedRunner(
  name: string,
  seen: Seen[],
  after: (db: PgConnection) => Promise<unknown>,
): Promise<PgScheduledRunner> {
  const plugin: PostgresHandlerPlugin = {
    ...reference,
    name,
    async call(db, principal, request) {
      if (request.requestId === 'dirty') {
        await dirty(db);
        await after(db);
      }
      if (request.requestId === 'probe') seen.push(await probe(db));
      return reference.call(db, principal, request);
    },
  };
  return postgresScheduledRunner(plugin, {
    spec: setIntervalSpec,
    fixture: DEFAULT_FIXTURE,
    callTimeoutMs: 20_000,
  });
}

describe('kept connections', () => {
  it('a reset cleans a lane in place (same backend), and replaces one with a query still out', async () => {
    const session = await PostgresSession.open(reference, DEFAULT_FIXTURE, undefined);
    try {
      const lane = await session.lane(0);
      const before = await probe(lane.db);
      expect(before).toEqual(clean(lane.backend, before.deadlockTimeout));
      await dirty(lane.db);
      // The probe sees every kind of dirt: a cleaning that missed one would fail below.
      expect(await probe(lane.db)).toEqual({
        pid: lane.backend,
        app: 'leaked',
        deadlockTimeout: '2s',
        lockFree: false,
        temp: true,
        version: 77,
      });
      const copies = templateCopies();
      await session.reset();
      await expect(lane.db.query('SELECT 1')).rejects.toThrow(/run that is over/);
      const again = await session.lane(0);
      expect(again.backend).toBe(lane.backend);
      expect(await probe(again.db)).toEqual(before);
      expect(templateCopies()).toBe(copies);

      // The same dirt with no transaction open: a cleaning of its own (`sessionCleaning`).
      await again.db.query("SET application_name = 'leaked'");
      await again.db.query('SELECT pg_advisory_lock(4242)');
      await again.db.query('CREATE TEMP TABLE leaked (x int)');
      expect(await probe(again.db)).toMatchObject({ app: 'leaked', lockFree: false, temp: true });
      await session.reset();
      const idle = await session.lane(0);
      expect(idle.backend).toBe(lane.backend);
      expect(await probe(idle.db)).toEqual(before);

      // Plugin code that never awaited its query: the backend is ended and replaced.
      const stuck = idle.db.query('SELECT pg_sleep(30)');
      stuck.catch(() => {});
      await session.reset();
      const fresh = await session.lane(0);
      expect(fresh.backend).not.toBe(idle.backend);
      expect(await probe(fresh.db)).toEqual(clean(fresh.backend, before.deadlockTimeout));
    } finally {
      await session.close();
    }
  }, 120_000);

  it('scheduled mode: the next run finds its lanes and coordinator as fresh, on the same backends', async () => {
    const seen: Seen[] = [];
    const runner = await probedRunner('leak-probe', seen, () => {
      // Thrown with the transaction open: the harness rolls it back at the reply.
      throw new Error('left dirty');
    });
    try {
      // A group runs on lanes 1 and 2, a plain step on the coordinator's connection.
      const plan = [{ choices: [] }, { choices: [] }];
      const probes: Step[] = [group('probe', 'probe'), call('probe')];
      await runner.executeScheduled(probes, plan);
      const baseline = seen.splice(0);
      expect(baseline).toHaveLength(3);
      expect(new Set(baseline.map((s) => s.pid)).size).toBe(3);
      // The lanes' own setting (`deadlock.ts`), which the cleaning must put back.
      expect(baseline.slice(0, 2).map((s) => s.deadlockTimeout)).toEqual(['1h', '1h']);
      // Each of the three connections left dirty by a run of its own (one advisory lock a run).
      for (const steps of [[group('dirty', 'quiet')], [group('quiet', 'dirty')], [call('dirty')]]) {
        const r = await runner.executeScheduled(steps, plan);
        expect(r.hang).toBeUndefined();
      }
      await runner.executeScheduled(probes, plan);
      expect(seen).toEqual(baseline);
      // The probe sees dirt: the coordinator dirtied and probed in one run.
      await runner.executeScheduled([call('dirty'), call('probe')], plan);
      expect(seen.at(-1)).toMatchObject({ app: 'leaked', lockFree: false, temp: true });
    } finally {
      await runner.close();
    }
  }, 120_000);

  it('scheduled mode: a crash leaves the lane as a new backend would be, on the same backend, within the run', async () => {
    const seen: Seen[] = [];
    // The SELECT after `dirty` is the point the crash takes, the transaction open.
    const runner = await probedRunner('crash-probe', seen, (db) => db.query('SELECT 1'));
    try {
      const probes: Step[] = [group('probe', 'probe'), call('probe')];
      await runner.executeScheduled(probes, [{ choices: [] }, { choices: [] }]);
      const baseline = seen.splice(0);
      // Points of a dirty call: 0 start, 1-6 `dirty`'s statements, 7 the SELECT after them.
      const crash = { choices: [], crash: { lane: 0, at: 7 } };
      const r = await runner.executeScheduled(
        [group('dirty', 'quiet'), ...probes],
        [crash, { choices: [] }, { choices: [] }],
      );
      expect(r.hang).toBeUndefined();
      expect(r.lanes[0]?.end.kind).toBe('crashed');
      expect(r.entries.find((e) => e.grant === 'crash')?.sql).toBe('SELECT 1');
      // In the same run: the crashed lane's backend kept, its transaction rolled back (its 77
      // gone; 2 is the quiet call's update), its session lock, setting and temporary table gone.
      expect(seen).toEqual(baseline.map((s) => ({ ...s, version: 2 })));
    } finally {
      await runner.close();
    }
  }, 120_000);

  it('close waits for a reset asked for directly (a service database), which ends in place', async () => {
    const session = await PostgresSession.open(reference, DEFAULT_FIXTURE, undefined);
    await session.begin();
    await (await session.harness()).query('UPDATE automations SET version = 5');
    const copies = templateCopies();
    // Ctrl-C while a service's runner resets: closing ended the connection under the reset,
    // which then copied the template into a database made after the drops were listed.
    const resetting = session.reset();
    await session.close();
    await expect(resetting).resolves.toBeUndefined();
    expect(templateCopies()).toBe(copies);
  }, 60_000);

  it("finish sends the reset and the idle lanes' cleaning before it returns: the server resets while the run is judged", async () => {
    const session = await PostgresSession.open(reference, DEFAULT_FIXTURE, undefined);
    try {
      await session.begin();
      const harness = await session.harness();
      const lane = await session.lane(1);
      await lane.db.query('UPDATE automations SET version = 9');
      const sent: string[] = [];
      for (const client of [harness, lane.client]) {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        client.query = ((...args: unknown[]) => {
          sent.push(String(args[0]));
          return query(...args);
        }) as typeof client.query;
      }
      session.finish();
      // Nothing awaited yet: a reset that waited for a turn of the event loop first (for its
      // connection, for busy lanes) would start only once the judge and the next draw are done.
      expect(sent.some((text) => text.includes('DELETE FROM'))).toBe(true);
      expect(sent).toContain('DISCARD ALL');
      await session.begin();
      const { rows } = await harness.query('SELECT max(version)::int AS v FROM automations');
      expect(rows[0]).toEqual({ v: 1 });
    } finally {
      await session.close();
    }
  }, 60_000);

  it("a closed runner's databases and connections go to the next runner with the same setup, reset first", async () => {
    const current = async (session: PostgresSession) => {
      const db = await session.harness();
      const { rows } = await db.query(
        'SELECT current_database() AS name, (SELECT max(version) FROM automations)::int AS version',
      );
      return rows[0] as { name: string; version: number };
    };
    // '' asks for the embedded server: a user's server never keeps our databases.
    const first = await PostgresSession.open(reference, DEFAULT_FIXTURE, '');
    await first.begin();
    await (await first.harness()).query('UPDATE automations SET version = 5');
    const made = await current(first);
    expect(made.version).toBe(5);
    // A lane left dirty by the first runner: the second gets its backend, cleaned.
    const lane = await first.lane(0);
    const fresh = await probe(lane.db);
    await dirty(lane.db);
    const harnessPid = first.harnessBackend;
    await first.release();
    await expect(lane.db.query('SELECT 1')).rejects.toThrow(/run that is over/);
    const second = await PostgresSession.open(reference, DEFAULT_FIXTURE, '');
    await second.begin();
    expect(await current(second)).toEqual({ name: made.name, version: 1 });
    expect(second.harnessBackend).toBe(harnessPid);
    const again = await second.lane(0);
    expect(again.backend).toBe(lane.backend);
    expect(await probe(again.db)).toEqual({ ...fresh, version: 1 });
    await second.release();
    // A plugin with the same `setup` (a mutant built on the reference) gets them too.
    const mutant = await PostgresSession.open(
      { ...reference, name: 'mutant' },
      DEFAULT_FIXTURE,
      '',
    );
    await mutant.begin();
    expect((await current(mutant)).name).toBe(made.name);
    await mutant.release();
    // A plugin with a `setup` of its own (even one that does the same) never gets them.
    const setup: typeof reference.setup = (db, fixture) => reference.setup(db, fixture);
    const other = await PostgresSession.open({ ...reference, setup }, DEFAULT_FIXTURE, '');
    try {
      await other.begin();
      expect((await current(other)).name).not.toBe(made.name);
      await dropIdleDatabase();
      const left = await (await other.harness()).query(
        'SELECT 1 FROM pg_database WHERE datname = $1',
        [made.name],
      );
      expect(left.rows).toEqual([]);
    } finally {
      await other.close();
    }
  }, 120_000);
});
