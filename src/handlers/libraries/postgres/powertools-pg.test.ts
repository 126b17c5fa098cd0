import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquirePostgres,
  type PostgresServer,
  stopEmbeddedPostgres,
} from '../../../execute/postgres/server.ts';
import { outcome } from '../../../model/outcome.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
import { RECORD_LIFETIME_MS } from '../powertools.ts';
import powertoolsPg from './powertools-pg.ts';

const alice = DEFAULT_FIXTURE.principals[0];
if (!alice) throw new Error('the default fixture has no principal');
const call = (requestId: string, expectedVersion: number, intervalMinutes = 30) => ({
  requestId,
  automationId: 1,
  expectedVersion,
  intervalMinutes,
});
const row = (version: number, intervalMinutes = 30) => ({ id: 1, intervalMinutes, version });

describe('powertools on its PostgreSQL persistence layer, one call at a time', () => {
  let server: PostgresServer;
  let db: pg.Client;
  let name: string;
  beforeAll(async () => {
    server = await acquirePostgres();
    name = await server.createDatabase();
    db = new pg.Client(server.connectionFor(name));
    await db.connect();
    await powertoolsPg.setup(db, DEFAULT_FIXTURE);
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    if (name) await server.dropDatabase(name);
    await server?.release();
    await stopEmbeddedPostgres();
  });

  it('writes once, replays from its record, refuses key reuse, and keeps a completed record as the receipt', async () => {
    expect(await powertoolsPg.call(db, alice, call('r1', 1))).toEqual(outcome.fresh(row(2)));
    expect(await powertoolsPg.call(db, alice, call('r1', 1))).toEqual(outcome.replayed(row(2)));
    expect(await powertoolsPg.call(db, alice, call('r1', 1, 45))).toEqual(outcome.keyReuse());
    expect(await powertoolsPg.call(db, alice, call('r2', 1))).toEqual(outcome.refused('conflict'));
    const snap = await powertoolsPg.snapshot(db);
    expect(snap.receipts).toHaveLength(1);
    expect(snap.automations).toContainEqual({ ...row(2), workspace: 'team-a' });
  }, 60_000);

  it('a failing store makes the call an error; once the record expires on the harness clock, a retry runs afresh', async () => {
    await powertoolsPg.failReceipts(db);
    expect((await powertoolsPg.call(db, alice, call('r3', 2))).kind).toBe('error');
    await powertoolsPg.restoreReceipts(db);
    await powertoolsPg.advanceClock?.(db, RECORD_LIFETIME_MS + 1_000);
    expect((await powertoolsPg.snapshot(db)).receipts).toHaveLength(0);
    // r1's record has expired: the same request runs the business write again, now stale.
    expect(await powertoolsPg.call(db, alice, call('r1', 1))).toEqual(outcome.refused('conflict'));
  }, 60_000);
});
