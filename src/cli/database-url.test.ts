/**
 * `--database-url` against a server started separately (as a CI service container would be):
 * `receiptcheck run` checks a PostgreSQL handler there, starts no embedded server of its own,
 * and leaves the server as it found it: no database and no connection of its own left. The server
 * is the test run's (testing/global-postgres.ts), which other files use at the same time, so what
 * is compared is the command's own: databases named after its pid, sessions by its application
 * name (PGAPPNAME, which the pg driver reads).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { builtBin } from '../../testing/built-package.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The command as installed (`testing/built-package.ts`). */
const BIN = builtBin();

/** The databases named after process `pid` on the server, and the sessions named `app`. */
async function leftBy(
  url: string,
  pid: number,
  app: string,
): Promise<{ databases: string[]; sessions: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const databases = (
      await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1 ORDER BY 1',
        [`receiptcheck\\_${pid}\\_%`],
      )
    ).rows.map((r) => r.datname);
    const sessions = (
      await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [app],
      )
    ).rows[0]?.n as number;
    return { databases, sessions };
  } finally {
    await client.end();
  }
}

/** The application name the command's connections carry. */
const APP = `receiptcheck-database-url-test-${process.pid}`;
/** The command's environment: only the flag names the server, not the test run's variable. */
const ENV = { ...process.env, PGAPPNAME: APP, RECEIPTCHECK_DATABASE_URL: '' };

function runCli(
  argv: readonly string[],
): Promise<{ code: number | null; out: string; pid: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: REPO,
      env: ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (c) => {
      out += String(c);
    });
    child.stderr?.on('data', (c) => {
      out += String(c);
    });
    child.on('exit', (code) => resolve({ code, out, pid: child.pid as number }));
  });
}

describe('--database-url', () => {
  const url = inject('postgresUrl');

  for (const mode of ['sequential', 'concurrent'])
    it(`runs pg-reference in ${mode} mode there and leaves the server as it was`, async () => {
      const run = await runCli([
        'run',
        '--handler',
        'pg-reference',
        '--mode',
        mode,
        '--runs',
        '20',
        '--database-url',
        url,
      ]);
      expect(run.out).toContain('PASSED');
      expect(run.code).toBe(0);
      expect(await leftBy(url, run.pid, APP)).toEqual({ databases: [], sessions: 0 });
      // It used the server it was given: no embedded server of its own.
      expect(
        readdirSync(tmpdir()).filter((n) => n.startsWith(`receiptcheck-pg-${run.pid}-`)),
      ).toEqual([]);
    }, 180_000);

  it('drops its databases there when stopped by Ctrl-C mid-run', async () => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'run',
        '--handler',
        'pg-reference',
        '--mode',
        'concurrent',
        '--runs',
        '10000000',
        '--database-url',
        url,
      ],
      { cwd: REPO, env: ENV, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const runDatabase = `receiptcheck_${child.pid}_2`;
      const deadline = performance.now() + 120_000;
      while (!(await leftBy(url, child.pid as number, APP)).databases.includes(runDatabase)) {
        if (child.exitCode !== null) throw new Error('the run ended before it was interrupted');
        if (performance.now() > deadline) throw new Error('the runs did not start in time');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      child.kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    expect(await leftBy(url, child.pid as number, APP)).toEqual({ databases: [], sessions: 0 });
  }, 180_000);

  it('says what is wrong with a URL that reaches no server', async () => {
    const run = await runCli([
      'run',
      '--handler',
      'pg-reference',
      '--mode',
      'sequential',
      '--runs',
      '1',
      '--database-url',
      'postgres://u:secret@127.0.0.1:1/db',
    ]);
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/cannot connect to PostgreSQL at .*ECONNREFUSED/);
    expect(run.out).not.toContain('secret');
  }, 60_000);
});
