/**
 * The reset after a run's DDL (`run-database.ts`, `ddl-count.ts`), on the embedded server: trigger
 * DDL alone is undone in the reset's one round trip, in place; anything it cannot prove undone
 * (a trigger of `setup`'s replaced or dropped, other DDL beside the trigger DDL) goes to the
 * catalogue's fingerprint, and to a new copy of the template when that differs. Each case reads
 * the changed trigger before the reset, so a reset that left it would fail here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import reference from '../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import { as, resetAfter, triggers, withSession } from './fixtures/reset-after.ts';
import { stopEmbeddedPostgres } from './server.ts';

afterAll(() => stopEmbeddedPostgres(), 60_000);

/** The reference with a trigger of its own: every new receipt's payload is stored upper-cased. */
const withTrigger: PostgresHandlerPlugin = {
  ...reference,
  name: 'reference-with-trigger',
  async setup(db, fixture) {
    await reference.setup(db, fixture);
    await db.query(`
      CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.payload := upper(NEW.payload); RETURN NEW; END $$;
      CREATE TRIGGER shout BEFORE INSERT ON receipts FOR EACH ROW EXECUTE FUNCTION shout()`);
  },
};

describe('the reset after DDL', () => {
  it(
    'undoes trigger DDL alone in its one round trip, in place (the store-failure event)',
    () =>
      withSession(reference, async (session) => {
        const store = reference;
        const failed = await resetAfter(session, async (db) => {
          await store.failReceipts(as(db));
          expect(await triggers(db)).toHaveLength(1);
        });
        expect(failed).toEqual({ queries: 1, copied: false });
        expect(await triggers(await session.harness())).toEqual([]);
        // Made and dropped again within a run: also trigger DDL alone.
        const both = await resetAfter(session, async (db) => {
          await store.failReceipts(as(db));
          await store.restoreReceipts(as(db));
          await store.failReceipts(as(db));
        });
        expect(both).toEqual({ queries: 1, copied: false });
        expect(await triggers(await session.harness())).toEqual([]);
        // No DDL at all: the same one round trip.
        expect(await resetAfter(session, async () => {})).toEqual({ queries: 1, copied: false });
      }),
    120_000,
  );

  it(
    'keeps the triggers setup made, and copies the template when a run replaced or dropped one',
    () =>
      withSession(withTrigger, async (session) => {
        const setup = await triggers(await session.harness());
        expect(setup).toHaveLength(1);
        const added = await resetAfter(session, (db) => reference.failReceipts(as(db)));
        expect(added.copied).toBe(false);
        expect(await triggers(await session.harness())).toEqual(setup);
        // The same name and function, another event: only the whole definition tells them apart.
        const replaced = await resetAfter(session, async (db) => {
          await db.query(
            'CREATE OR REPLACE TRIGGER shout BEFORE UPDATE ON receipts FOR EACH ROW EXECUTE FUNCTION shout()',
          );
          expect(await triggers(db)).not.toEqual(setup);
        });
        expect(replaced.copied).toBe(true);
        expect(await triggers(await session.harness())).toEqual(setup);
        const dropped = await resetAfter(session, async (db) => {
          await db.query('DROP TRIGGER shout ON receipts');
        });
        expect(dropped.copied).toBe(true);
        expect(await triggers(await session.harness())).toEqual(setup);
        // After a copy the count is the template's: trigger DDL alone is undone in place again.
        const again = await resetAfter(session, (db) => reference.failReceipts(as(db)));
        expect(again).toEqual({ queries: 1, copied: false });
      }),
    120_000,
  );

  it(
    'watches a table a run made again the same on its new oid: a trigger added to it later is dropped',
    () =>
      withSession(reference, async (session) => {
        // The same table again passes the fingerprint, in place, but with another oid.
        const remade = await resetAfter(session, async (db) => {
          await db.query(`DROP TABLE receipts;
            CREATE TABLE receipts(
              workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
              request_id TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
              PRIMARY KEY(workspace_id, user_id, tool, request_id))`);
        });
        expect(remade.copied).toBe(false);
        // Trigger DDL alone next: the reset must find the trigger on the table as it is now.
        const failed = await resetAfter(session, async (db) => {
          await reference.failReceipts(as(db));
          expect(await triggers(db)).toHaveLength(1);
        });
        expect(failed).toEqual({ queries: 1, copied: false });
        expect(await triggers(await session.harness())).toEqual([]);
      }),
    120_000,
  );

  it(
    'sends other DDL beside trigger DDL to the fingerprint and the template',
    () =>
      withSession(reference, async (session) => {
        // The triggers end as setup's (none): only the counts tell that more than triggers changed.
        const mixed = await resetAfter(session, async (db) => {
          await reference.failReceipts(as(db));
          await db.query('CREATE INDEX leaked ON automations (version)');
          await reference.restoreReceipts(as(db));
        });
        expect(mixed.copied).toBe(true);
        const db = await session.harness();
        expect((await db.query("SELECT to_regclass('leaked') AS r")).rows[0]?.r).toBeNull();
        const left = await resetAfter(session, async (db) => {
          await db.query('CREATE INDEX leaked ON automations (version)');
          await reference.failReceipts(as(db));
        });
        expect(left.copied).toBe(true);
        expect(await triggers(await session.harness())).toEqual([]);
      }),
    120_000,
  );
});
