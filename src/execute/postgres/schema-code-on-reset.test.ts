/**
 * Code of the schema's own that fires even in the reset's quiet session: a trigger or a rule
 * `setup` set to fire always or only on replicas (`session_replication_role = replica` fires
 * both). Put back in place, the seed rows would run it: here an audit of every new automation
 * would record them again. The reset copies the template for such a schema instead, and counts
 * the copy; a rule as created stays quiet, and the reset stays in place.
 */

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import reference from '../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { PostgresSession } from './postgres-session.ts';
import { templateCopies } from './run-database.ts';
import { acquirePostgres, stopEmbeddedPostgres } from './server.ts';

afterAll(() => stopEmbeddedPostgres(), 60_000);

const AUDIT = `
  CREATE TABLE audit(automation_id bigint NOT NULL);
  CREATE FUNCTION audit_new() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO audit VALUES (NEW.id); RETURN NEW; END $$`;
const TRIGGER =
  'CREATE TRIGGER audit_new AFTER INSERT ON automations FOR EACH ROW EXECUTE FUNCTION audit_new()';
const RULE =
  'CREATE RULE audit_new AS ON INSERT TO automations DO ALSO INSERT INTO audit VALUES (NEW.id)';

/** The reference with an audit table that `audit` (run after its setup) fills with new automations. */
function audited(name: string, audit: string): PostgresHandlerPlugin {
  return {
    ...reference,
    name,
    async setup(db, fixture) {
      await db.query(AUDIT);
      await reference.setup(db, fixture);
      await db.query(audit);
    },
  };
}

async function auditRows(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM audit');
  return Number(rows[0]?.n);
}

describe.each([
  [
    'a trigger enabled always',
    audited(
      'audited-always',
      `${TRIGGER}; ALTER TABLE automations ENABLE ALWAYS TRIGGER audit_new`,
    ),
  ],
  [
    'a trigger enabled on replicas',
    audited(
      'audited-replica',
      `${TRIGGER}; ALTER TABLE automations ENABLE REPLICA TRIGGER audit_new`,
    ),
  ],
  [
    'a rule enabled always',
    audited('audited-rule', `${RULE}; ALTER TABLE automations ENABLE ALWAYS RULE audit_new`),
  ],
])('a schema with %s', (_, plugin) => {
  it('is reset to the rows setup left, by a copy of the template', async () => {
    const session = await PostgresSession.open(plugin, DEFAULT_FIXTURE, undefined);
    try {
      // The audit came after setup's automations: it starts empty.
      expect(await auditRows(await session.harness())).toBe(0);
      for (let i = 0; i < 2; i++) {
        const copies = templateCopies();
        await (await session.harness()).query("UPDATE automations SET workspace_id = 'w9'");
        await session.reset();
        expect(await auditRows(await session.harness())).toBe(0);
        expect(templateCopies()).toBe(copies + 1);
      }
    } finally {
      await session.close();
    }
  }, 120_000);
});

describe('a schema with a rule as created, quiet in the reset', () => {
  it('is reset in place, to the rows setup left', async () => {
    const session = await PostgresSession.open(
      audited('audited-quiet-rule', RULE),
      DEFAULT_FIXTURE,
      undefined,
    );
    try {
      const copies = templateCopies();
      for (let i = 0; i < 2; i++) {
        await (await session.harness()).query("UPDATE automations SET workspace_id = 'w9'");
        await session.reset();
        expect(await auditRows(await session.harness())).toBe(0);
      }
      expect(templateCopies()).toBe(copies);
    } finally {
      await session.close();
    }
  }, 120_000);
});

describe('a role that is not a superuser', () => {
  /**
   * A role that may make databases (or, `createdb` false, not even that) but not quiet triggers,
   * on the embedded server: its URL.
   */
  async function plainRoleUrl(
    createdb = true,
  ): Promise<{ url: string; done: () => Promise<void> }> {
    const server = await acquirePostgres();
    const config = server.connectionFor('postgres');
    const admin = new pg.Client(config);
    await admin.connect();
    await admin.query(
      `CREATE ROLE plain_resetter LOGIN ${createdb ? 'CREATEDB' : ''} PASSWORD 'plain'`,
    );
    await admin.end();
    // The test run's server is named by a URL (its global set-up), an embedded one by host and port.
    const url = new URL(
      config.connectionString ?? `postgres://${config.host}:${config.port}/postgres`,
    );
    url.username = 'plain_resetter';
    url.password = 'plain';
    return {
      url: url.toString(),
      done: async () => {
        const again = new pg.Client(config);
        await again.connect();
        await again.query('DROP ROLE plain_resetter');
        await again.end();
        await server.release();
      },
    };
  }

  it('without CREATEDB is told so in one line, E_POSTGRES, not an internal error', async () => {
    const { url, done } = await plainRoleUrl(false);
    try {
      const opened = PostgresSession.open(reference, DEFAULT_FIXTURE, url);
      await expect(opened).rejects.toMatchObject({
        code: 'E_POSTGRES',
        message: expect.stringMatching(/may not create databases .*give the role CREATEDB/),
      });
    } finally {
      await done();
    }
  }, 60_000);

  it('resets a schema with a rule as created by a copy (its reset quiets nothing), one without in place', async () => {
    const { url, done } = await plainRoleUrl();
    try {
      for (const [plugin, copied] of [
        [audited('audited-plain-rule', RULE), 1],
        [audited('audited-plain-none', 'SELECT 1'), 0],
      ] as const) {
        const session = await PostgresSession.open(plugin, DEFAULT_FIXTURE, url);
        try {
          const copies = templateCopies();
          await (await session.harness()).query("UPDATE automations SET workspace_id = 'w9'");
          await session.reset();
          expect(await auditRows(await session.harness())).toBe(0);
          expect(templateCopies() - copies).toBe(copied);
        } finally {
          await session.close();
        }
      }
    } finally {
      await done();
    }
  }, 120_000);
});
