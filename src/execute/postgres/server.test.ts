import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { acquirePostgres, stopEmbeddedPostgres } from './server.ts';

/** receiptcheck's PostgreSQL temp directories of this process. */
function ourDirs(): string[] {
  return readdirSync(tmpdir()).filter((n) => n.startsWith(`receiptcheck-pg-${process.pid}-`));
}

async function oneValue(config: pg.ClientConfig, sql: string): Promise<unknown> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return Object.values((await client.query(sql)).rows[0] ?? {})[0];
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL server', () => {
  afterAll(() => stopEmbeddedPostgres());

  it('drops a database asked for while it was still being made (Ctrl-C mid-create)', async () => {
    const server = await acquirePostgres('');
    const drops: Promise<void>[] = [];
    const name = await server.createDatabase(undefined, (n) => drops.push(server.dropDatabase(n)));
    await Promise.all(drops);
    const left = await oneValue(
      server.connectionFor('postgres'),
      `SELECT count(*)::int FROM pg_database WHERE datname = '${name}'`,
    );
    expect(left).toBe(0);
    // Released, not stopped: the next test finds the same server (one start fewer).
    await server.release();
  }, 60_000);

  it('starts with no PostgreSQL installed, makes databases from a template, and leaves nothing behind', async () => {
    const server = await acquirePostgres('');
    expect(server.description).toMatch(/^embedded PostgreSQL \d+/);
    const template = await server.createDatabase();
    const t = server.connectionFor(template);
    const client = new pg.Client(t);
    await client.connect();
    await client.query('CREATE TABLE t(x int); INSERT INTO t VALUES (7)');
    await client.end();
    const copy = await server.createDatabase(template);
    expect(await oneValue(server.connectionFor(copy), 'SELECT x FROM t')).toBe(7);
    expect(await oneValue(t, 'SHOW fsync')).toBe('off');
    await server.dropDatabase(copy);
    await server.dropDatabase(template);
    expect(ourDirs()).toHaveLength(1);
    await server.release();
    await stopEmbeddedPostgres();
    expect(ourDirs()).toEqual([]);
  }, 60_000);

  it('uses an existing server by URL, and leaves only its own databases there', async () => {
    // The test run's server (testing/global-postgres.ts), shared with other files running now:
    // only this process's databases are counted.
    const url = inject('postgresUrl');
    const ours = `SELECT count(*)::int FROM pg_database WHERE datname LIKE 'receiptcheck\\_${process.pid}\\_%'`;
    const before = await oneValue({ connectionString: url }, ours);
    const server = await acquirePostgres(url);
    expect(server.description).toContain('***');
    expect(server.description).not.toContain(new URL(url).password);
    const name = await server.createDatabase();
    expect(name).toMatch(new RegExp(`^receiptcheck_${process.pid}_\\d+$`));
    expect(await oneValue({ connectionString: url }, ours)).toBe(Number(before) + 1);
    await server.dropDatabase(name);
    await server.release();
    expect(await oneValue({ connectionString: url }, ours)).toBe(before);
    expect(ourDirs()).toEqual([]);
  }, 60_000);

  it('says what is wrong with a URL that is not PostgreSQL', async () => {
    await expect(acquirePostgres('mysql://x@y/z')).rejects.toThrow(/is not a PostgreSQL URL/);
  });

  it("reports an unreachable server with the driver's words", async () => {
    const server = await acquirePostgres('postgres://u:p@127.0.0.1:1/db');
    await expect(server.createDatabase()).rejects.toThrow(
      /cannot connect to PostgreSQL at .*ECONNREFUSED/,
    );
  });
});
