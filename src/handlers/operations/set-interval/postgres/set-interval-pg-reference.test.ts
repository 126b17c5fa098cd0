import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquirePostgres,
  type PostgresServer,
  stopEmbeddedPostgres,
} from '../../../../execute/postgres/server.ts';
import { outcome } from '../../../../model/outcome.ts';
import { DEFAULT_FIXTURE } from '../../../../model/world.ts';
import reference from './set-interval-pg-reference.ts';

const alice = DEFAULT_FIXTURE.principals[0];
if (!alice) throw new Error('the default fixture has no principal');
const call = (requestId: string, expectedVersion: number, intervalMinutes = 30) => ({
  requestId,
  automationId: 1,
  expectedVersion,
  intervalMinutes,
});

describe('the PostgreSQL reference handler, one call at a time', () => {
  let server: PostgresServer;
  let db: pg.Client;
  let name: string;
  beforeAll(async () => {
    server = await acquirePostgres();
    name = await server.createDatabase();
    db = new pg.Client(server.connectionFor(name));
    await db.connect();
    await reference.setup(db, DEFAULT_FIXTURE);
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    if (name) await server.dropDatabase(name);
    await server?.release();
    await stopEmbeddedPostgres();
  });

  it('writes once, replays, refuses key reuse and stale versions, and rolls back a failed receipt', async () => {
    const fresh = await reference.call(db, alice, call('r1', 1));
    expect(fresh).toEqual(outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 }));
    expect(await reference.call(db, alice, call('r1', 1))).toEqual(
      outcome.replayed({ id: 1, intervalMinutes: 30, version: 2 }),
    );
    expect(await reference.call(db, alice, call('r1', 1, 45))).toEqual(outcome.keyReuse());
    expect(await reference.call(db, alice, call('r2', 1))).toEqual(outcome.refused('conflict'));
    await reference.move(db, 1, 'team-b');
    expect(await reference.call(db, alice, call('r3', 2))).toEqual(outcome.refused('unavailable'));
    await reference.move(db, 1, 'team-a');
    await reference.failReceipts(db);
    expect((await reference.call(db, alice, call('r4', 2))).kind).toBe('error');
    await reference.restoreReceipts(db);
    const snap = await reference.snapshot(db);
    expect(snap.automations).toContainEqual({
      id: 1,
      workspace: 'team-a',
      intervalMinutes: 30,
      version: 2,
    });
    expect(snap.receipts).toHaveLength(1);
  }, 60_000);
});
