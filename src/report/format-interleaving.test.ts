/**
 * The scheduled interleaving is shown when a run recorded one, and nothing otherwise; its
 * statements in full only on request, and a pointer to them when a column cut one.
 */
import { describe, expect, it } from 'vitest';
import { formatInterleaving } from './format-interleaving.ts';

describe('formatInterleaving', () => {
  it('indents the lanes and names the serial order checked', () => {
    const lines = formatInterleaving({
      mode: 'scheduled',
      lanes: 'step 1 · 2 lanes\n  1  start',
      order: [
        { step: 0, lane: 1 },
        { step: 0, lane: 0 },
      ],
    });
    expect(lines).toEqual([
      'Interleaving (statement by statement, one column per lane):',
      '  step 1 · 2 lanes',
      '    1  start',
      '',
      'Serial order checked: step 1 lane 2, step 1 lane 1',
      '',
    ]);
  });

  it('lists every statement in full, with its parameters, on request', () => {
    const sql = 'UPDATE automations SET interval_minutes = ?, version = version + 1 WHERE id = ?';
    const detail = {
      mode: 'scheduled',
      lanes: 'step 1 · 1 lane',
      entries: [
        { step: 0, lane: 0, point: 'start', grant: 'run' },
        { step: 0, lane: 0, point: 'statement', grant: 'run', sql, params: ['5', '1'] },
      ],
    };
    expect(formatInterleaving(detail).join('\n')).not.toContain(sql);
    expect(formatInterleaving(detail, { fullSql: true })).toContain(
      `     2  lane 1: ${sql}   -- parameters: 5, 1`,
    );
  });

  it('says where the full text is when a column cut a statement, and only then', () => {
    const entries = [{ step: 0, lane: 0, point: 'statement', grant: 'run', sql: 'SELECT 1' }];
    const hint =
      '  (statements cut to fit a column: --verbose prints each in full, with its parameters)';
    const cut = {
      mode: 'scheduled',
      lanes: 'step 1 · 1 lane\n  1  SELECT payload, response FROM receipts WH…',
      entries,
    };
    expect(formatInterleaving(cut)).toContain(hint);
    expect(formatInterleaving(cut, { fullSql: true })).not.toContain(hint);
    expect(formatInterleaving({ ...cut, lanes: 'step 1 · 1 lane\n  1  SELECT 1' })).not.toContain(
      hint,
    );
  });

  it('shows nothing for a run without an interleaving', () => {
    expect(formatInterleaving(undefined)).toEqual([]);
    expect(formatInterleaving({ mode: 'concurrent', history: [] })).toEqual([]);
  });
});
