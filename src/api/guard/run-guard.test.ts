/**
 * A guard run: on the correct generic handler it reports no false verdict and saves nothing; on
 * a broken one (a replay answered as fresh) every spec fails, and each failing spec's plugin
 * module and case file are saved together, so `receiptcheck replay` reproduces the failure.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../../cli/run-cli.ts';
import { runGuard } from './run-guard.ts';

function outDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rc-guard-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'out');
}

const base = {
  specs: 2,
  runs: 30,
  seed: 1,
  engine: 'sqlite',
  modes: ['sequential'],
  zod: true,
} as const;

describe('runGuard', () => {
  it('finds no false verdict on the correct handler and saves nothing', async () => {
    const out = outDir();
    const r = await runGuard({ ...base, out });
    expect(r.cases).toHaveLength(2);
    expect(r.falseVerdicts).toBe(0);
    expect(r.cases.every((c) => c.saved.length === 0)).toBe(true);
    expect(existsSync(out)).toBe(false);
  });

  it('reports a broken handler on every spec, with files that replay', async () => {
    const out = outDir();
    const r = await runGuard({
      ...base,
      out,
      factory: {
        module: new URL('../../../testing/guard/broken-drawn-plugins.ts', import.meta.url),
        exportName: 'replayAsFresh',
      },
    });
    expect(r.falseVerdicts).toBe(2);
    for (const c of r.cases) {
      const [plugin, caseFile] = c.saved;
      expect(plugin && existsSync(plugin)).toBe(true);
      expect(c.modes[0]?.counterexample?.handler).toBe(plugin);
      const replay = await runCli('replay', caseFile as string);
      expect(replay.out).toMatch(/reproduced/);
      expect(replay.code).toBe(1);
    }
  });

  it('checks only the spec asked for', async () => {
    const r = await runGuard({ ...base, only: 2, out: outDir() });
    expect(r.cases.map((c) => c.index)).toEqual([2]);
  });
});
