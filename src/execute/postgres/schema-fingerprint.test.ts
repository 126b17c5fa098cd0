/**
 * The reset after a run that changed what the catalogue's fingerprint must see
 * (`schema-fingerprint.ts`), on the embedded server: a column default, an index or a view
 * redefined under its name, a column's collation, a schema made, row security and its policies, a grant, a rule, an enum's labels, a
 * sequence's increment, a refreshed materialized view, an event trigger. Each leaves the tables'
 * rows alone, so only the fingerprint tells the reset that the database is not `setup`'s: each
 * case shows its change made, then the reset putting back what `setup` left.
 */
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import reference from '../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import { resetAfter, withSession } from './fixtures/reset-after.ts';
import { stopEmbeddedPostgres } from './server.ts';

afterAll(() => stopEmbeddedPostgres(), 60_000);

/**
 * The reference with more of a schema: an index, a view, a materialized view, an enum, a
 * sequence, an event trigger's function.
 */
const richer: PostgresHandlerPlugin = {
  ...reference,
  name: 'reference-with-more-schema',
  async setup(db, fixture) {
    await reference.setup(db, fixture);
    await db.query(`
      CREATE INDEX by_version ON automations (version);
      CREATE VIEW busy AS SELECT id FROM automations WHERE interval_minutes < 60;
      CREATE MATERIALIZED VIEW counted AS SELECT count(*) AS n FROM automations;
      CREATE TYPE mood AS ENUM ('calm');
      CREATE SEQUENCE tickets;
      CREATE FUNCTION noted() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN END $$`);
  },
};

/** What each case changes, as one row of text read from the catalogue and the view. */
const PICTURE = `SELECT
  (SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef
     WHERE adrelid = 'automations'::regclass AND adnum = 4) AS version_default,
  pg_get_indexdef('by_version'::regclass) AS index,
  pg_get_viewdef('busy'::regclass) AS view,
  (SELECT relrowsecurity FROM pg_class WHERE oid = 'automations'::regclass) AS row_security,
  (SELECT count(*) FROM pg_policy) AS policies,
  (SELECT relacl::text FROM pg_class WHERE oid = 'receipts'::regclass) AS grants,
  (SELECT count(*) FROM pg_rewrite WHERE rulename <> '_RETURN') AS rules,
  (SELECT string_agg(enumlabel, ',' ORDER BY enumsortorder) FROM pg_enum) AS labels,
  (SELECT seqincrement FROM pg_sequence WHERE seqrelid = 'tickets'::regclass) AS increment,
  (SELECT n FROM counted) AS counted,
  (SELECT count(*) FROM pg_event_trigger WHERE evtname <> 'receiptcheck_count_ddl') AS event_triggers,
  (SELECT attcollation FROM pg_attribute
     WHERE attrelid = 'automations'::regclass AND attname = 'workspace_id') AS collation,
  (SELECT count(*) FROM pg_namespace) AS schemas`;

const picture = async (db: pg.Client) => (await db.query(PICTURE)).rows[0];

const CHANGES: readonly [string, string][] = [
  ['a column default', 'ALTER TABLE automations ALTER COLUMN version SET DEFAULT 7'],
  [
    "a column's collation",
    'ALTER TABLE automations ALTER COLUMN workspace_id TYPE text COLLATE "C"',
  ],
  ['a schema', 'CREATE SCHEMA scratch'],
  [
    'an index made again under its name on another column',
    'DROP INDEX by_version; CREATE INDEX by_version ON automations (interval_minutes)',
  ],
  [
    'a view replaced',
    'CREATE OR REPLACE VIEW busy AS SELECT id FROM automations WHERE interval_minutes < 5',
  ],
  [
    'row security and a policy',
    'ALTER TABLE automations ENABLE ROW LEVEL SECURITY; CREATE POLICY mine ON automations USING (true)',
  ],
  ['a grant', 'GRANT SELECT ON receipts TO PUBLIC'],
  ['a rule', 'CREATE RULE quiet AS ON DELETE TO receipts DO INSTEAD NOTHING'],
  ['an enum label', "ALTER TYPE mood ADD VALUE 'cross'"],
  ['a sequence increment', 'ALTER SEQUENCE tickets INCREMENT BY 5'],
  [
    'a materialized view refreshed over a row since deleted',
    `INSERT INTO automations VALUES (99, 'team-a', 15, 1);
     REFRESH MATERIALIZED VIEW counted;
     DELETE FROM automations WHERE id = 99`,
  ],
  [
    'an event trigger (which no event trigger counts)',
    'CREATE EVENT TRIGGER noted ON ddl_command_start EXECUTE FUNCTION noted()',
  ],
];

describe('the reset after a run changed what only the fingerprint sees', () => {
  it.each(CHANGES)(
    'puts back what setup left after %s',
    (_, sql) =>
      withSession(richer, async (session) => {
        const setup = await picture(await session.harness());
        const reset = await resetAfter(session, async (db) => {
          await db.query(sql);
          expect(await picture(db)).not.toEqual(setup);
        });
        expect(await picture(await session.harness())).toEqual(setup);
        expect(reset.copied).toBe(true);
      }),
    120_000,
  );
});
