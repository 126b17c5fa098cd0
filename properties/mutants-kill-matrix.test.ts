/**
 * The kill matrix in pass/fail pairs: a run where every mutant died and the reference held must
 * read `ok`; one survivor, or a failing reference, must read `failed` and be named.
 */
import { describe, expect, it } from 'vitest';
import {
  formatMs,
  type KillResult,
  killMatrixRows,
  renderKillMatrix,
  summarizeKills,
} from '../src/report/kill-matrix.ts';

const good: KillResult[] = [
  { name: 'reference', kind: 'reference', mode: 'sequential', killed: false, ms: 640 },
  {
    name: 'payload-unchecked',
    mode: 'sequential',
    killed: true,
    runsToKill: 1,
    ms: 95,
    shrunkLength: 2,
    killedByScenarios: true,
  },
  {
    name: 'key-without-user',
    mode: 'sequential',
    killed: true,
    runsToKill: 2,
    ms: 300,
    shrunkLength: 2,
    killedByScenarios: false,
  },
  {
    name: 'race-loser-error',
    mode: 'concurrent',
    killed: true,
    runsToKill: 7,
    ms: 12_345,
    shrunkLength: 1,
  },
];

describe('kill matrix', () => {
  it('ok: every mutant killed, the reference held', () => {
    const s = summarizeKills(good);
    expect(s).toEqual({
      verdict: 'ok',
      mutants: 3,
      killed: 3,
      survivors: [],
      failedReferences: [],
      scenariosKilled: 1,
      scenariosRun: 2,
    });
    const rows = killMatrixRows(good);
    expect(rows.map((r) => r.status)).toEqual(['held', 'killed', 'killed', 'killed']);
    expect(rows.every((r) => r.asExpected)).toBe(true);
    expect(rows[1]).toMatchObject({
      runsToKill: '1',
      time: '95 ms',
      shrunkLength: '2 steps',
      scenarios: 'killed',
    });
    expect(rows[2]?.scenarios).toBe('missed');
    expect(rows[3]).toMatchObject({ time: '12.3 s', scenarios: '-' });
  });

  it('bad: a surviving mutant fails the matrix and is named', () => {
    const results = good.map((r) =>
      r.name === 'key-without-user' ? { ...r, killed: false, runsToKill: undefined } : r,
    );
    const s = summarizeKills(results);
    expect(s.verdict).toBe('failed');
    expect(s.survivors).toEqual(['key-without-user']);
    const row = killMatrixRows(results)[2];
    expect(row).toMatchObject({
      status: 'survived',
      asExpected: false,
      runsToKill: '-',
      shrunkLength: '-',
    });
    expect(renderKillMatrix(results)).toMatch(/key-without-user\s+sequential\s+SURVIVED !/);
  });

  it('bad: a failing reference fails the matrix and is named', () => {
    const results = good.map((r) =>
      r.kind === 'reference' ? { ...r, killed: true, runsToKill: 3 } : r,
    );
    expect(summarizeKills(results)).toMatchObject({
      verdict: 'failed',
      failedReferences: ['reference'],
    });
    expect(renderKillMatrix(results)).toContain('reference FAILED: reference');
  });

  it('renders aligned columns and a summary line', () => {
    const text = renderKillMatrix(good);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^handler\s+mode\s+result\s+runs to kill\s+time\s+shrunk\s+scenarios$/,
    );
    const resultColumn = lines[0]?.indexOf('result');
    for (const line of lines.slice(2, 6))
      expect(line.indexOf(line.split(/\s{2,}/)[2] ?? '')).toBe(resultColumn);
    expect(lines.at(-1)).toBe('3/3 mutants killed; reference held; scenarios alone kill 1/2');
  });

  it('formats times in ms below ten seconds, in seconds above', () => {
    expect(formatMs(849.6)).toBe('850 ms');
    expect(formatMs(10_000)).toBe('10.0 s');
  });
});
