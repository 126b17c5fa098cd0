/**
 * The PostgreSQL runners on a real (embedded) server: lanes that really overlap, hung calls
 * whose backends are ended, the per-run reset, and nothing left on the server after `close`.
 * No timing assumption: overlap is shown by two calls that each wait for the other to arrive,
 * which a serial run can never satisfy.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import reference from '../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PgConnection, PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { CallEvent, Step } from '../../model/events.ts';
import { outcome } from '../../model/outcome.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { ConcurrentExecution, SequentialExecution } from '../../types/execution.ts';
import { postgresConcurrentRunner } from './concurrent-mode.ts';
import { PostgresSession } from './postgres-session.ts';
import { templateCopies } from './run-database.ts';
import { postgresSequentialRunner } from './sequential-mode.ts';
import { acquirePostgres, stopEmbeddedPostgres } from './server.ts';

const options = { fixture: DEFAULT_FIXTURE, callTimeoutMs: 2_000, databaseUrl: undefined };

const call = (client: number, requestId: string, automationId = 1): CallEvent => ({
  kind: 'call',
  client,
  request: { requestId, automationId, expectedVersion: 1, intervalMinutes: 30 },
  delivery: 'delivered',
});

/** The reference, with `call` replaced for requests whose id starts with `special`. */
function variant(
  special: string,
  call: PostgresHandlerPlugin['call'],
  setup?: (db: PgConnection) => Promise<void>,
): PostgresHandlerPlugin {
  return {
    ...reference,
    name: `variant-${special}`,
    async setup(db, fixture) {
      await reference.setup(db, fixture);
      await setup?.(db);
    },
    call: (db, principal, request) =>
      String(request.requestId).startsWith(special)
        ? call(db, principal, request)
        : reference.call(db, principal, request),
  };
}

/** Each call records its arrival, then waits (at most ~3 s) until another call has arrived. */
const rendezvous = variant(
  'meet',
  async (db, principal, request) => {
    await db.query('INSERT INTO arrivals VALUES ($1)', [request.requestId]);
    for (let i = 0; i < 300; i++) {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM arrivals');
      if ((rows[0]?.n ?? 0) >= 2) return reference.call(db, principal, request);
      await db.query('SELECT pg_sleep(0.01)');
    }
    return outcome.error('no other call arrived');
  },
  async (db) => {
    await db.query('CREATE TABLE arrivals(request_id TEXT)');
  },
);

async function ourDatabases(): Promise<string[]> {
  const server = await acquirePostgres();
  try {
    const client = new pg.Client(server.connectionFor('postgres'));
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1 ORDER BY 1',
        [`receiptcheck_${process.pid}_%`],
      );
      return rows.map((r) => r.datname);
    } finally {
      await client.end();
    }
  } finally {
    await server.release();
  }
}

describe('the PostgreSQL runners', () => {
  afterAll(() => stopEmbeddedPostgres());

  it('run the calls of a group at the same time on separate backends (sequential mode cannot)', async () => {
    const group: Step[] = [
      { kind: 'concurrent', events: [call(0, 'meet-1', 1), call(1, 'meet-2', 2)] },
    ];
    const concurrent = await postgresConcurrentRunner(rendezvous, {
      ...options,
      callTimeoutMs: 20_000,
    });
    try {
      const run = (await concurrent.execute(group)) as ConcurrentExecution;
      expect(run.trace.observations.map((o) => o.observed.kind)).toEqual(['ok', 'ok']);
      expect(run.history).toHaveLength(2);
      const [a, b] = run.history;
      // Each returned only after the other had started: the intervals overlap.
      expect(a?.invokedAt).toBeLessThan(b?.completedAt as number);
      expect(b?.invokedAt).toBeLessThan(a?.completedAt as number);
    } finally {
      await concurrent.close();
    }
    const sequential = await postgresSequentialRunner(rendezvous, {
      ...options,
      callTimeoutMs: 20_000,
    });
    try {
      const run = (await sequential.execute(group)) as SequentialExecution;
      expect(run.trace.observations[0]?.observed).toEqual(outcome.error('no other call arrived'));
    } finally {
      await sequential.close();
    }
  }, 120_000);

  it('end the backend of a call that never returns, report the hang, and go on with the next run', async () => {
    const sleeper = variant('sleep', async (db) => {
      await db.query('SELECT pg_sleep(3600)');
      return outcome.error('woke up');
    });
    const runner = await postgresSequentialRunner(sleeper, options);
    try {
      const run = (await runner.execute([
        call(0, 'r1'),
        call(0, 'sleep-1', 2),
      ])) as SequentialExecution;
      expect(run.hang).toMatchObject({ step: 1, lane: 0, how: 'unsettled', limitMs: 2_000 });
      expect(run.trace.observations).toHaveLength(1);
      expect(run.trace.snapshot.automations).toContainEqual({
        id: 1,
        workspace: 'team-a',
        intervalMinutes: 30,
        version: 2,
      });
      const harness = new pg.Client((await acquirePostgres()).connectionFor('postgres'));
      await harness.connect();
      const { rows } = await harness.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(3600)'",
      );
      await harness.end();
      expect(rows[0]?.n).toBe(0);
      const next = (await runner.execute([call(0, 'r1')])) as SequentialExecution;
      expect(next.hang).toBeUndefined();
      expect(next.trace.observations[0]?.observed).toEqual(
        outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 }),
      );
    } finally {
      await runner.close();
    }
  }, 120_000);

  it('end a call that holds a lock and never returns, freeing the lane that waits on it', async () => {
    const holder = variant('hold', async (db) => {
      await db.query('BEGIN');
      await db.query('SELECT 1 FROM automations WHERE id = 1 FOR UPDATE');
      return new Promise<never>(() => {});
    });
    const runner = await postgresConcurrentRunner(holder, options);
    try {
      const group: Step[] = [{ kind: 'concurrent', events: [call(0, 'hold-1'), call(1, 'r2')] }];
      const run = (await runner.execute(group)) as ConcurrentExecution;
      expect(run.hang).toMatchObject({ step: 0, lane: 0, how: 'unsettled' });
      expect(run.history).toEqual([]);
      const next = (await runner.execute([call(1, 'r2')])) as ConcurrentExecution;
      expect(next.hang).toBeUndefined();
      expect(next.trace.observations[0]?.observed.kind).toBe('ok');
    } finally {
      await runner.close();
    }
  }, 120_000);

  it('reset the run database in place, and from the template after a schema change (counted)', async () => {
    const before = await ourDatabases();
    const session = await PostgresSession.open(reference, DEFAULT_FIXTURE, undefined);
    try {
      const db = await session.harness();
      await db.query('UPDATE automations SET version = 9');
      await reference.failReceipts({ query: (t, v) => db.query(t, v as unknown[]) as never });
      const name = (await db.query<{ d: string }>('SELECT current_database() AS d')).rows[0]?.d;
      const copies = templateCopies();
      await session.reset();
      expect(templateCopies()).toBe(copies);
      const again = await session.harness();
      expect((await again.query('SELECT current_database() AS d')).rows[0]?.d).toBe(name);
      expect((await again.query('SELECT max(version) AS v FROM automations')).rows[0]?.v).toBe(1);
      expect(
        (await again.query('SELECT count(*)::int AS n FROM pg_trigger WHERE NOT tgisinternal'))
          .rows[0]?.n,
      ).toBe(0);
      await again.query('ALTER TABLE automations ADD COLUMN extra INTEGER');
      await session.reset();
      expect(templateCopies()).toBe(copies + 1);
      const copied = await session.harness();
      expect((await copied.query('SELECT current_database() AS d')).rows[0]?.d).not.toBe(name);
      const columns = await copied.query(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'automations' AND column_name = 'extra'",
      );
      expect(columns.rows).toEqual([]);
      expect((await ourDatabases()).length).toBe(before.length + 2);
    } finally {
      await session.close();
    }
    expect(await ourDatabases()).toEqual(before);
  }, 120_000);
});
