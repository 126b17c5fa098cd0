/**
 * The summary's event lines: each kind a run exercised with its count, and the kinds it never
 * did, with why where some plugins can never see one.
 */
import { describe, expect, it } from 'vitest';
import { emptyCoverage } from './coverage.ts';
import { formatCoverage } from './format-summary.ts';

describe('formatCoverage', () => {
  it('names the kinds never seen, and says recreate is drawn only for a plugin that can', () => {
    const coverage = { ...emptyCoverage(), 'new intent': 9, retry: 3, delete: 1 };
    const lines = formatCoverage(coverage);
    expect(lines[0]).toBe('  events    new intent 9 · retry 3 · delete 1');
    const unseen = lines.at(-1) ?? '';
    expect(unseen).toMatch(/^ {2}not seen {2}key reuse, invalid input, /);
    expect(unseen).toContain('recreate (drawn only for a plugin with a recreate function)');
    expect(unseen).toContain(', store fails, ');
    expect(formatCoverage(coverage, false)).toEqual([lines[0]]);
  });
});
