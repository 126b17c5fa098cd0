/**
 * A command is one check: what its runners kept for a next runner (the idle PostgreSQL database,
 * the embedded server) is let go before `main` returns, so the process exits with its verdict
 * instead of living on until those keeps time out. Here on this process's own embedded server:
 * once `main` has returned, its server has stopped and its files are gone.
 */
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL_ENV } from '../execute/postgres/database-url-env.ts';
import { stopEmbeddedPostgres } from '../execute/postgres/server.ts';
import { memoryIo } from './io.ts';
import { main } from './main.ts';

/** This process's embedded servers' directories (`receiptcheck-pg-<pid>-…`). */
const ownServers = () =>
  readdirSync(tmpdir()).filter((n) => n.startsWith(`receiptcheck-pg-${process.pid}-`));

describe('the end of a command', () => {
  const given = process.env[DATABASE_URL_ENV];
  afterAll(async () => {
    await stopEmbeddedPostgres();
    if (given !== undefined) process.env[DATABASE_URL_ENV] = given;
  });

  it('stops the embedded server and drops what was kept, before main returns', async () => {
    // The test run's shared server stands aside: this command starts an embedded one.
    delete process.env[DATABASE_URL_ENV];
    const before = ownServers();
    const io = memoryIo();
    const code = await main(
      ['run', '--handler', 'pg-reference', '--mode', 'sequential', '--runs', '2'],
      io,
    );
    expect(code, io.err.join('')).toBe(0);
    expect(io.out.join('')).toContain('PASSED');
    const left = ownServers().filter((n) => !before.includes(n));
    expect(left.filter((n) => existsSync(join(tmpdir(), n)))).toEqual([]);
  });
});
