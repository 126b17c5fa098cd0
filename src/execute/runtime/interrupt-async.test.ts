/**
 * SIGTERM and SIGINT stop a check of an async handler mid-run as they stop a synchronous one:
 * exit 143 or 130, "interrupted", no verdict, nothing left in TMPDIR. Its awaits settle inside
 * the call budget's stretch (no event-loop turn per call), so this holds only because the run
 * still lets the loop turn on its own schedule. The time each took is printed, not asserted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { built, builtBin } from '../../../testing/built-package.ts';
import { INTERRUPTED_EXIT_CODE, TERMINATED_EXIT_CODE } from './interrupt.ts';

/** The command as installed (`testing/built-package.ts`), and the fixture's JavaScript there. */
const BIN = builtBin();
const FIXTURE = built(
  fileURLToPath(new URL('../fixtures/announcing-async-handler.ts', import.meta.url)),
);
const START_BOUND_MS = 90_000;
const LONG = ['--runs', '10000000'];

const measured: string[] = [];
afterAll(() => {
  console.log(`time from signal to exit (async handler):\n  ${measured.join('\n  ')}`);
});

/** Entries of `dir` that belong to receiptcheck (tsx keeps its compile cache there too). */
const ours = (dir: string) => readdirSync(dir).filter((f) => !f.startsWith('tsx-'));

async function waitFor(ready: () => boolean, child: ChildProcess): Promise<void> {
  const deadline = performance.now() + START_BOUND_MS;
  while (!ready()) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error('the child exited before its first call');
    if (performance.now() > deadline) throw new Error(`no first call within ${START_BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each([
  ['sequential', ['--mode', 'sequential']],
  ['scheduled', ['--mode', 'scheduled', '--workers', '2']],
] as const)('an async handler in %s mode', (_name, mode) => {
  it.each([
    ['SIGTERM', TERMINATED_EXIT_CODE],
    ['SIGINT', INTERRUPTED_EXIT_CODE],
  ] as const)('%s: exits with %i, says interrupted, leaves nothing', async (signal, code) => {
    const tmp = mkdtempSync(join(tmpdir(), 'rc-signal-async-tmp-'));
    const side = mkdtempSync(join(tmpdir(), 'rc-signal-async-marker-'));
    const marker = join(side, 'running');
    const child = spawn(process.execPath, [BIN, 'run', '--handler', FIXTURE, ...mode, ...LONG], {
      cwd: side,
      env: { ...process.env, TMPDIR: tmp, RECEIPTCHECK_TEST_MARKER: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += String(chunk);
      });
      child.stderr.on('data', (chunk) => {
        out += String(chunk);
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await waitFor(() => existsSync(marker), child);
      const signalledAt = performance.now();
      child.kill(signal);
      const status = await exited;
      measured.push(
        `${mode.join(' ')}, ${signal}: ${(performance.now() - signalledAt).toFixed(0)} ms`,
      );
      expect({ status, out }).toMatchObject({ status: code });
      expect(out).toMatch(new RegExp(`receiptcheck: interrupted by ${signal}`));
      expect(out).not.toMatch(/PASSED|FAILED/);
      expect(ours(tmp)).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(tmp, { recursive: true, force: true });
      rmSync(side, { recursive: true, force: true });
    }
  });
});
