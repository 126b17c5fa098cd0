/**
 * Ctrl-C mid-run on PostgreSQL: `receiptcheck run --handler pg-reference` is sent SIGINT once its
 * runs are under way (its run database exists on its embedded server). It must exit 130 and
 * leave neither the server process nor its data directory behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { builtBin } from '../../../testing/built-package.ts';
import { INTERRUPTED_EXIT_CODE } from '../runtime/interrupt.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** The command as installed (`testing/built-package.ts`). */
const BIN = builtBin();
const START_BOUND_MS = 120_000;

const dirsOf = (pid: number) =>
  readdirSync(tmpdir()).filter((n) => n.startsWith(`receiptcheck-pg-${pid}-`));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the child's server holds its run database yet (the runs have started). */
async function runsStarted(dir: string, pid: number): Promise<boolean> {
  try {
    const port = readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[3];
    const password = readFileSync(join(dir, 'pwfile'), 'utf8').trim();
    const client = new pg.Client({
      host: '127.0.0.1',
      port: Number(port),
      user: 'postgres',
      password,
      database: 'postgres',
    });
    client.on('error', () => {});
    await client.connect();
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        `receiptcheck_${pid}_2`,
      ]);
      return rows.length > 0;
    } finally {
      await client.end();
    }
  } catch {
    return false;
  }
}

describe('Ctrl-C on a PostgreSQL run', () => {
  it('exits 130 and leaves no server process and no data directory', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'run', '--handler', 'pg-reference', '--mode', 'sequential', '--runs', '10000000'],
      { cwd: REPO, env: { ...process.env, RECEIPTCHECK_DATABASE_URL: '' }, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const pid = child.pid as number;
    try {
      await interruptMidRun(child, pid, exited);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 180_000);
});

async function interruptMidRun(
  child: ChildProcess,
  pid: number,
  exited: Promise<number | null>,
): Promise<void> {
  const deadline = performance.now() + START_BOUND_MS;
  let dir: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the run ended before it was interrupted');
    if (performance.now() > deadline) throw new Error('the runs did not start in time');
    const found = dirsOf(pid)[0];
    if (found && (await runsStarted(join(tmpdir(), found), pid))) {
      dir = join(tmpdir(), found);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const server = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  expect(alive(server)).toBe(true);
  child.kill('SIGINT');
  expect(await exited).toBe(INTERRUPTED_EXIT_CODE);
  expect(alive(server)).toBe(false);
  expect(existsSync(dir)).toBe(false);
  expect(dirsOf(pid)).toEqual([]);
}
