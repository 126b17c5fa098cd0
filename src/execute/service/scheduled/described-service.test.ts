/**
 * Scheduled mode for a described service on PostgreSQL, through the CLI (`examples/pg-service/`):
 * the example holds; its planted race (lookup and write in two transactions) is killed, and the
 * saved counterexample replays exactly; a service on SQLite is refused with one line. The race
 * is found by the schedule drawn with the seed, never by timing: every statement is a yield point.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/run-cli.ts';
import { servicePids } from '../service-process.ts';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const example = (file: string) => join(REPO, 'examples', file);
const out = mkdtempSync(join(tmpdir(), 'receiptcheck-svcsched-'));

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  expect(servicePids()).toEqual([]);
});

/** `run --service FILE --mode scheduled`, `runs` runs from seed 1, then `more` arguments. */
const scheduled = (file: string, runs: number, ...more: string[]) =>
  runCli(
    'run',
    '--service',
    example(file),
    '--mode',
    'scheduled',
    '--runs',
    String(runs),
    '--seed',
    '1',
    ...more,
  );

describe('run --service X --mode scheduled', () => {
  // Three runs (26 steps): what this shows is the command's path to scheduled mode; how many cases
  // the example holds for is service-scheduled.test.ts's, on the same service without the CLI.
  it('holds for the PostgreSQL example', async () => {
    const r = await scheduled('pg-service/service.json', 3);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('PASSED');
  }, 120_000);

  it('kills its planted race, and the counterexample replays exactly', async () => {
    // Seed 1 meets the race at run 3.
    const r = await scheduled('pg-service/service-race.json', 6, '--out', out);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/expected ok\(replayed[\s\S]*actual +refused\(conflict\)/);
    const [saved] = readdirSync(out).filter((f) => f.endsWith('.json'));
    if (!saved) throw new Error('no case saved');
    const replay = await runCli('replay', join(out, saved));
    expect(replay.code, replay.err).toBe(1);
    expect(replay.out).toContain('replayed exactly');
  }, 120_000);

  it('refuses a service on SQLite with one line', async () => {
    const r = await runCli(
      'run',
      '--service',
      example('python-http/service.json'),
      '--mode',
      'scheduled',
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^receiptcheck: E_SERVICE_MODE: .*SQLite statements in its own process.*\n$/,
    );
  });
});
