/**
 * Ctrl-C while a PostgreSQL plugin's `setup` holds its connection open: the embedded server is
 * stopped under that connection, which then emits PostgreSQL's `57P01` (terminating connection)
 * as an `error` event. Unheard, the event ended the process with exit 1 and a raw stack, the code
 * of a counterexample, instead of the interrupt's 130 and one line. The fixture's setup makes its
 * tables, says so in a marker file, and waits: the signal always comes with the connection idle.
 * The child starts an embedded server of its own (no database URL), as a user's first run does.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { built, builtBin } from '../../../testing/built-package.ts';
import { INTERRUPTED_EXIT_CODE } from '../runtime/interrupt.ts';
import { DATABASE_URL_ENV } from './database-url-env.ts';

const BIN = builtBin();
const FIXTURE = built(
  fileURLToPath(new URL('../fixtures/pg-announcing-setup.ts', import.meta.url)),
);

describe('SIGINT while a PostgreSQL setup holds its connection', () => {
  it('exits 130 with the one interrupted line, not 1 with the connection error', async () => {
    const side = mkdtempSync(join(tmpdir(), 'rc-pg-setup-signal-'));
    const marker = join(side, 'set-up');
    const env: NodeJS.ProcessEnv = { ...process.env, RECEIPTCHECK_TEST_MARKER: marker };
    delete env[DATABASE_URL_ENV];
    const argv = ['run', '--handler', FIXTURE, '--mode', 'sequential', '--runs', '5'];
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: side,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      for (let waited = 0; !existsSync(marker); waited += 50) {
        if (waited > 90_000 || child.exitCode !== null) throw new Error(`no setup: ${err}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGINT');
      expect(await exited, err).toBe(INTERRUPTED_EXIT_CODE);
      expect(err).toBe('receiptcheck: interrupted by SIGINT; stopped without a verdict\n');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(side, { recursive: true, force: true });
    }
  }, 120_000);
});
