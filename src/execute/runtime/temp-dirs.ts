/**
 * The one place temp directories are made and removed. Every directory lives under the OS temp
 * directory (`os.tmpdir()`: `TMPDIR`, else `/tmp`), is named `receiptcheck-[kind-]<pid>-XXXXXX`,
 * is removed by its owner's `dispose()`, and, as a last resort, by an `exit` hook (which also runs
 * on Ctrl-C and SIGTERM: see `interrupt.ts`).
 *
 * Nothing runs when a process is killed with SIGKILL (or dies of the OOM killer), so its
 * directories stay. The pid in the name lets the next receiptcheck on the machine remove them:
 * the first directory a process makes under a root sweeps that root for receiptcheck directories
 * whose process is gone.
 */
import {
  accessSync,
  constants,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const live = new Set<string>();
const swept = new Set<string>();
let hooked = false;

const OURS = /^receiptcheck-(?:[a-z]+-)?(\d+)-/;

/**
 * Where a directory goes: the OS temp directory. With `fast`, `/dev/shm` (a RAM file system)
 * instead, but only when `TMPDIR` is unset: scheduled mode resets one database file thousands of
 * times, and on a disk mounted with `discard` file operations had millisecond tails; a user who
 * sets `TMPDIR` gets exactly what they asked for.
 */
export function tempRoot(fast = false): string {
  if (fast && !process.env.TMPDIR)
    try {
      if (statSync('/dev/shm').isDirectory()) {
        accessSync('/dev/shm', constants.W_OK);
        return '/dev/shm';
      }
    } catch {
      // No RAM file system here; the ordinary temp directory works, only slower.
    }
  return tmpdir();
}

/** Creates `receiptcheck-[kind-]<pid>-XXXXXX` under `root`; removed at exit if still there. */
export function makeTempDir(kind: string | undefined, root = tempRoot()): string {
  if (!swept.has(root)) {
    swept.add(root);
    sweepDead(root);
  }
  const dir = mkdtempSync(join(root, `receiptcheck-${kind ? `${kind}-` : ''}${process.pid}-`));
  live.add(dir);
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const d of live) rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}

/** Removes a directory made by `makeTempDir`. Safe to call twice. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  live.delete(dir);
}

/**
 * The file in a directory made by `makeTempDir` that names a process group its owner started (a
 * service): `<pid> <start time>`, so that a sweep after the owner's SIGKILL ends that group too.
 */
const PROCESS_GROUP_FILE = 'process-group';

/**
 * Notes in `dir` (from `makeTempDir`) that its owner started the process group led by `pid`; a
 * later sweep ends the group if the owner died without stopping it (SIGKILL). Recorded with the
 * leader's start time, so a pid reused since is never signalled; only on Linux (`/proc`).
 */
export function noteProcessGroup(dir: string, pid: number): void {
  const started = startTime(pid);
  if (started !== undefined) writeFileSync(join(dir, PROCESS_GROUP_FILE), `${pid} ${started}\n`);
}

/** Ends the process group a dead owner's `dir` names, if its leader is still the same process. */
function endOrphanGroup(dir: string): void {
  let noted: string;
  try {
    noted = readFileSync(join(dir, PROCESS_GROUP_FILE), 'utf8');
  } catch {
    return;
  }
  const [pid, started] = noted.trim().split(' ');
  if (!pid || started === undefined || startTime(Number(pid)) !== started) return;
  try {
    process.kill(-Number(pid), 'SIGKILL');
  } catch {
    // Gone meanwhile, or not ours to signal.
  }
}

/** The start time of process `pid` (clock ticks since boot, from `/proc`), or undefined. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command, which may hold spaces, in parentheses: the start time is the 22nd.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Removes receiptcheck directories under `root` whose process no longer exists. */
export function sweepDead(root: string): void {
  for (const dir of deadOwnerDirs(root)) {
    endOrphanGroup(dir);
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another user's, or already gone: not ours to insist on.
    }
  }
}

/**
 * The directories under `root` whose names `pattern` matches, with the owning pid as its first
 * group, made by a process that no longer exists (never this one's). Nothing when `root` is unreadable.
 */
export function deadOwnerDirs(root: string, pattern: RegExp = OURS): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter((name) => {
      const pid = Number(pattern.exec(name)?.[1]);
      return pid && pid !== process.pid && !isAlive(pid);
    })
    .map((name) => join(root, name));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (thrown) {
    // EPERM: it exists, under another user.
    return (thrown as NodeJS.ErrnoException).code === 'EPERM';
  }
}
