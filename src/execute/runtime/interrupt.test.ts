/**
 * Every run stops: SIGTERM or SIGINT to `receiptcheck` mid-run, in every mode and command, ends
 * the process with 143 or 130, says "interrupted" (never PASSED or FAILED), and leaves nothing in
 * its TMPDIR, nor anywhere else (/dev/shm, the default temp directory). Each child runs the real
 * CLI on a fresh TMPDIR; the announcing fixture tells the test when calls are under way.
 *
 * The issue asks for an exit within one second; on a loaded 2-core machine the bound here is
 * `EXIT_BOUND_MS`, and the measured times are printed at the end for the record.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { built, builtBin } from '../../../testing/built-package.ts';
import { INTERRUPTED_EXIT_CODE, TERMINATED_EXIT_CODE } from './interrupt.ts';

/** The command as installed (`testing/built-package.ts`), and the fixture's JavaScript there. */
const BIN = builtBin();
const FIXTURE = built(fileURLToPath(new URL('../fixtures/announcing-handler.ts', import.meta.url)));
const EXIT_BOUND_MS = 5_000;
const START_BOUND_MS = 90_000;

/**
 * A command that runs far longer than the test, how to know it is under way, and the signal it
 * gets. Both signals go through one handler (`interrupt.ts`) whatever the command, so each
 * command gets one of them, alternating so that each signal stops a loop on the main thread
 * (sequential, inline lanes) and work on worker threads: the full matrix doubled the spawns and
 * showed nothing more.
 */
interface Case {
  readonly name: string;
  readonly argv: readonly string[];
  readonly signal: 'SIGINT' | 'SIGTERM';
  /** `marker`: the fixture's first call; `tempDir`: the first temp directory (bundled handlers). */
  readonly running: 'marker' | 'tempDir';
}

const LONG = ['--runs', '10000000'];
const CASES: readonly Case[] = [
  {
    name: 'sequential',
    signal: 'SIGINT',
    argv: ['run', '--handler', FIXTURE, '--mode', 'sequential', ...LONG],
    running: 'marker',
  },
  {
    name: 'concurrent',
    signal: 'SIGTERM',
    argv: ['run', '--handler', FIXTURE, '--mode', 'concurrent', '--workers', '2', ...LONG],
    running: 'marker',
  },
  {
    name: 'scheduled, inline lanes',
    signal: 'SIGTERM',
    argv: ['run', '--handler', FIXTURE, '--mode', 'scheduled', '--lanes', 'inline', ...LONG],
    running: 'marker',
  },
  {
    name: 'scheduled, thread lanes',
    signal: 'SIGINT',
    argv: ['run', '--handler', FIXTURE, '--mode', 'scheduled', '--lanes', 'threads', ...LONG],
    running: 'marker',
  },
  {
    name: 'soak',
    signal: 'SIGINT',
    argv: ['soak', '--handler', FIXTURE, '--clients', '2', '--duration', '600'],
    running: 'marker',
  },
  {
    name: 'bench',
    signal: 'SIGTERM',
    argv: ['bench', '--handler', FIXTURE, '--rounds', '1000', '--mutants', 'none'],
    running: 'marker',
  },
  {
    name: 'mutants',
    signal: 'SIGINT',
    argv: ['mutants', '--mode', 'scheduled', '--no-scenarios'],
    running: 'tempDir',
  },
];

const EXIT_CODE = { SIGTERM: TERMINATED_EXIT_CODE, SIGINT: INTERRUPTED_EXIT_CODE } as const;

const measured: string[] = [];
afterAll(() => {
  console.log(`time from signal to exit:\n  ${measured.join('\n  ')}`);
});

/** Entries of `dir` that belong to receiptcheck (tsx keeps its compile cache there too, by design). */
const ours = (dir: string) => readdirSync(dir).filter((f) => !f.startsWith('tsx-'));
/** Entries named after process `pid` (every receiptcheck temp directory is). */
const ofPid = (dir: string, pid: number) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.includes(`-${pid}-`)) : [];

async function waitFor(what: string, ready: () => boolean, child: ChildProcess): Promise<void> {
  const deadline = performance.now() + START_BOUND_MS;
  while (!ready()) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the child exited before ${what}`);
    if (performance.now() > deadline) throw new Error(`no ${what} within ${START_BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What `child` has written so far on stdout and stderr. */
function outputOf(child: ChildProcess): { readonly out: string; readonly err: string } {
  const output = { out: '', err: '' };
  child.stdout?.on('data', (chunk) => {
    output.out += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output.err += String(chunk);
  });
  return output;
}

/** Kills a child that a failed assertion left running (its runs would go on for hours). */
async function stopIfRunning(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe.each(CASES)('$name', ({ argv, running, signal }) => {
  const code = EXIT_CODE[signal];
  it(`${signal}: exits with ${code}, says interrupted, leaves nothing`, async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'rc-signal-tmp-'));
    const side = mkdtempSync(join(tmpdir(), 'rc-signal-marker-'));
    const marker = join(side, 'running');
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, [BIN, ...argv], {
        cwd: side,
        env: { ...process.env, TMPDIR: tmp, RECEIPTCHECK_TEST_MARKER: marker },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = outputOf(child);
      // The signal too: a process that a signal ended, or that crashed, has no exit status.
      const exited = new Promise<{ status: number | null; signal: string | null }>((resolve) =>
        child?.on('exit', (status, signal) => resolve({ status, signal })),
      );
      await waitFor(
        running === 'marker' ? 'first call' : 'first temp directory',
        () => (running === 'marker' ? existsSync(marker) : ours(tmp).length > 0),
        child,
      );
      const pid = child.pid as number;
      // Mid-run, whatever it made is in its TMPDIR, nowhere else.
      expect(ofPid('/dev/shm', pid)).toEqual([]);
      expect(ofPid(tmpdir(), pid)).toEqual([]);
      const signalledAt = performance.now();
      child.kill(signal);
      const { status, signal: endedBy } = await exited;
      const tookMs = performance.now() - signalledAt;
      measured.push(
        `${argv[0]} ${argv.slice(1).join(' ').replace(FIXTURE, 'FIXTURE')}, ${signal}: ${tookMs.toFixed(0)} ms`,
      );
      const { out, err } = output;
      expect({ status, endedBy, err }).toMatchObject({ status: code });
      expect(err).toMatch(new RegExp(`receiptcheck: interrupted by ${signal}`));
      expect(`${out}${err}`).not.toMatch(/PASSED|FAILED/);
      expect(tookMs).toBeLessThan(EXIT_BOUND_MS);
      expect(ours(tmp)).toEqual([]);
      expect(ofPid('/dev/shm', pid)).toEqual([]);
      expect(ofPid(tmpdir(), pid)).toEqual([]);
    } finally {
      await stopIfRunning(child);
      rmSync(tmp, { recursive: true, force: true });
      rmSync(side, { recursive: true, force: true });
    }
  });
});

describe('SIGKILL, which no process can clean up after', () => {
  it('leaves its directory, which the next receiptcheck on the machine removes', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'rc-signal-tmp-'));
    const side = mkdtempSync(join(tmpdir(), 'rc-signal-marker-'));
    const marker = join(side, 'running');
    let child: ChildProcess | undefined;
    try {
      const env = { ...process.env, TMPDIR: tmp, RECEIPTCHECK_TEST_MARKER: marker };
      const argv = ['run', '--handler', FIXTURE, '--mode', 'scheduled', ...LONG];
      child = spawn(process.execPath, [BIN, ...argv], { cwd: side, env, stdio: 'ignore' });
      const exited = new Promise((resolve) => child?.on('exit', resolve));
      await waitFor('first call', () => existsSync(marker), child);
      const pid = child.pid as number;
      expect(ofPid(tmp, pid)).toEqual([expect.stringMatching(/^receiptcheck-scheduled-/)]);
      expect(ofPid('/dev/shm', pid)).toEqual([]);
      child.kill('SIGKILL');
      await exited;
      expect(ofPid(tmp, pid)).toHaveLength(1);
      const next = spawn(process.execPath, [BIN, 'run', '--mode', 'scheduled', '--runs', '1'], {
        cwd: side,
        env: { ...process.env, TMPDIR: tmp },
        stdio: 'ignore',
      });
      expect(await new Promise((resolve) => next.on('exit', resolve))).toBe(0);
      expect(ours(tmp)).toEqual([]);
    } finally {
      await stopIfRunning(child);
      rmSync(tmp, { recursive: true, force: true });
      rmSync(side, { recursive: true, force: true });
    }
  });
});

describe('a program embedding the API that does not catch the InterruptedError', () => {
  it('still exits with 130 by the interrupt, not with 1 by a crash that cuts the cleanups short', async () => {
    const program = built(
      fileURLToPath(new URL('../fixtures/unhandled-interrupt.ts', import.meta.url)),
    );
    const child = spawn(process.execPath, [program], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const output = outputOf(child);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await waitFor('ready', () => output.out.includes('ready'), child);
      child.kill('SIGINT');
      expect(await exited, output.err).toBe(INTERRUPTED_EXIT_CODE);
      expect(output.err).toBe('receiptcheck: interrupted by SIGINT; stopped without a verdict\n');
    } finally {
      await stopIfRunning(child);
    }
  });
});

describe('an all-findings search stopped by SIGINT', () => {
  it('reports and saves the findings shrunk before it, then exits 130 without a verdict', async () => {
    const mutant = built(
      fileURLToPath(new URL('../fixtures/announcing-mutant.ts', import.meta.url)),
    );
    const side = mkdtempSync(join(tmpdir(), 'rc-signal-marker-'));
    const marker = join(side, 'running');
    const out = join(side, 'cx');
    // Seed 1's twenty runs and their shrinking call the mutant about 1,200 times: at the 5,000th
    // call its finding is shrunk and the search is on a later seed of a thousand.
    const argv = ['run', '--handler', mutant, '--mode', 'sequential', '--all-findings'].concat([
      '--seeds',
      '1..1000',
      '--runs',
      '20',
      '--json',
      '--out',
      out,
    ]);
    const env = { RECEIPTCHECK_TEST_MARKER: marker, RECEIPTCHECK_TEST_MARKER_AFTER: '5000' };
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: side,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const output = outputOf(child);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await waitFor('the 5,000th call', () => existsSync(marker), child);
      child.kill('SIGINT');
      expect(await exited, output.err).toBe(INTERRUPTED_EXIT_CODE);
      const report = JSON.parse(output.out);
      expect(report).toMatchObject({ verdict: 'interrupted', signal: 'SIGINT' });
      expect(report.findings.length).toBeGreaterThan(0);
      for (const f of report.findings) expect(existsSync(resolve(side, f.file)), f.file).toBe(true);
      expect(output.err).toMatch(
        /interrupted by SIGINT after \d+ of 20000 runs; stopped without a verdict; the findings of those runs are above\n$/,
      );
      expect(`${output.out}${output.err}`).not.toMatch(/PASSED|FAILED/);
    } finally {
      await stopIfRunning(child);
      rmSync(side, { recursive: true, force: true });
    }
  });
});
