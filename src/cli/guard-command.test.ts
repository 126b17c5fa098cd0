/**
 * `receiptcheck guard`: one line per spec and the summary "N specs × M modes × R runs: 0 false
 * verdicts", exit 0; bad flag values are usage errors (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

describe('receiptcheck guard', () => {
  it('prints a line per spec and the summary; exit 0', async () => {
    const r = await runCli(
      'guard',
      '--specs',
      '2',
      '--runs',
      '10',
      '--mode',
      'sequential',
      '--seed',
      '5',
    );
    expect(r.err).toBe('');
    expect(r.out).toMatch(
      /^receiptcheck guard: 2 specs on sqlite, seed 5, sequential, 10 runs each/,
    );
    expect(r.out).toMatch(/\[1\/2\] guard-[0-9a-f]{8}-sqlite-\w+(-expiry\d+)?: sequential ✓ 10/);
    expect(r.out).toMatch(/\[2\/2\] guard-/);
    expect(r.out).toMatch(/2 specs × 1 modes × 10 runs: 0 false verdicts \(sqlite, seed 5, /);
    expect(r.code).toBe(0);
  });

  it.each([
    [['--specs', '0'], /--specs must be 1–10000/],
    [['--engine', 'mysql'], /expected one of sqlite, postgres/],
    [['--specs', '3', '--only', '4'], /--only must be 1–3/],
  ])('refuses %j', async (flags, message) => {
    const r = await runCli('guard', ...flags);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});
