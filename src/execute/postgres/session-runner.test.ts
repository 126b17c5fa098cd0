/**
 * An unscheduled runner on the embedded server runs its sequences on two run databases in turn
 * (`session-runner.ts`), each reset while the other runs; every run must still find its database
 * as `setup` left it and its connection clean of what the last run on it left, and the two go
 * to the next runner together (`idle-database.ts` keeps two).
 */
import { afterAll, describe, expect, it } from 'vitest';
import reference from '../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { CallEvent } from '../../model/events.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { dropIdleDatabase } from './idle-database.ts';
import { postgresSequentialRunner } from './sequential-mode.ts';
import { stopEmbeddedPostgres } from './server.ts';

afterAll(async () => {
  await dropIdleDatabase();
  await stopEmbeddedPostgres();
}, 60_000);

/** What a call saw of its database and session before it left its own dirt there. */
interface Seen {
  readonly database: string;
  readonly app: string;
  readonly version: number;
  readonly lockFree: boolean;
}

const SEE = `
SELECT current_database() AS database, current_setting('application_name') AS app,
  (SELECT version FROM automations WHERE id = 1) AS version,
  NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS "lockFree"`;

/** The reference, with every call first recording what it sees, then leaving a row, a setting and a session lock behind. */
function dirtying(seen: Seen[]): PostgresHandlerPlugin {
  return {
    ...reference,
    name: 'dirtying',
    async call(db, principal, request) {
      seen.push((await db.query<Seen>(SEE)).rows[0] as Seen);
      await db.query('UPDATE automations SET version = version + 10 WHERE id = 1');
      await db.query("SET application_name = 'leaked'");
      await db.query('SELECT pg_advisory_lock(4242)');
      return reference.call(db, principal, request);
    },
  };
}

const call: CallEvent = {
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId: 'r1', automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
};

/** '' asks for the embedded server, where runners keep their databases (a user's server, as the suite's, never). */
const options = { fixture: DEFAULT_FIXTURE, callTimeoutMs: 20_000, databaseUrl: '' };

describe('an unscheduled runner on the embedded server', () => {
  it('runs on two databases in turn, each run on one reset and on a clean session, and hands both on', async () => {
    const seen: Seen[] = [];
    const plugin = dirtying(seen);
    // The first runner makes its second database beside its runs; both are kept when it closes.
    const first = await postgresSequentialRunner(plugin, options);
    for (let i = 0; i < 3; i++) await first.execute([call]);
    await first.close();
    const made = new Set(seen.map((s) => s.database));
    seen.length = 0;
    // The next runner takes both at once: its runs alternate from the first.
    const runner = await postgresSequentialRunner(plugin, options);
    try {
      for (let i = 0; i < 6; i++) await runner.execute([call]);
    } finally {
      await runner.close();
    }
    const [a, b] = [seen[0]?.database, seen[1]?.database];
    expect(a).not.toBe(b);
    expect(seen.map((s) => s.database)).toEqual([a, b, a, b, a, b]);
    expect(new Set([a, b, ...made]).size).toBe(2);
    for (const s of seen) expect(s).toMatchObject({ app: '', version: 1, lockFree: true });
  }, 120_000);
});
