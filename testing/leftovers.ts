/**
 * What the tests that nothing outlives a check look for: receiptcheck's temp directories in a
 * TMPDIR of the test's own, processes by id or by a marker in their environment (Linux's /proc),
 * and a concurrent check run in a child process and stopped by a signal mid-run. The child
 * (`src/execute/fixtures/interrupt-child.ts`) says which service processes it started, so they
 * can be looked for once it has gone.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { built } from './built-package.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** The child's program, as the test run's build of it (`built-package.ts`): no loader to start. */
const CHILD = fileURLToPath(new URL('../src/execute/fixtures/interrupt-child.ts', import.meta.url));

/**
 * A fresh directory, named from `prefix`, that is TMPDIR for the calling `describe`'s tests (so
 * other test files running at once cannot confuse the count of temp directories): set before its
 * first test, and after its last the old TMPDIR is put back and the directory removed.
 */
export function ownTmpdir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const saved = process.env.TMPDIR;
  beforeAll(() => {
    process.env.TMPDIR = dir;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** The receiptcheck temp directories in `dir`. */
export const leftovers = (dir: string): string[] =>
  readdirSync(dir).filter((f) => f.startsWith('receiptcheck-'));

/** Whether a process with this id runs (or is a zombie not yet reaped). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The ids of the processes whose environment holds `name=value`: the services a run started. */
export function processesWithEnv(name: string, value: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`${name}=${value}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A child check under way. */
export interface RunningCheck {
  /** The child's process id: the databases it makes on a server are named after it. */
  readonly pid: number;
  /** The process ids of the services it started: none without a service description. */
  readonly pids: readonly number[];
  /** Sends `signal`; resolves with the child's exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  /** What the child wrote on stderr so far: why it exited, when its code is not the one expected. */
  stderr(): string;
}

/**
 * Starts the child check with `tmpDir` as its TMPDIR, of the service description at `service`
 * (else of the built-in reference handler), in scheduled mode if asked (else concurrent), and
 * resolves once its runs are under way; rejects, with what it wrote on stderr, when it exits
 * before.
 */
export async function startInterruptibleCheck(
  tmpDir: string,
  service?: string,
  mode?: 'scheduled',
): Promise<RunningCheck> {
  const args = [...(service ? [service] : []), ...(mode ? [mode] : [])];
  const child = spawn(process.execPath, [built(CHILD), ...args], {
    cwd: REPO,
    env: { ...process.env, TMPDIR: tmpDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const pids = await new Promise<number[]>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      const m = /running([\d ]*)\n/.exec(stdout);
      if (m) resolve((m[1] ?? '').trim().split(' ').filter(Boolean).map(Number));
    });
    child.on('exit', () => reject(new Error(`child exited before running: ${stderr}`)));
  });
  return {
    pid: child.pid as number,
    pids,
    stop: (signal) => {
      child.kill(signal);
      return exited;
    },
    stderr: () => stderr,
  };
}
