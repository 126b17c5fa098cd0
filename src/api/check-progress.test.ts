/**
 * Progress over a check made of parts (several seeds, or several modes under `auto`): each part's
 * runs and steps are reported on top of the parts already done, out of the whole plan, so a
 * progress line never goes back.
 */
import { describe, expect, it } from 'vitest';
import type { Progress } from '../types/options.ts';
import { checkHandler } from './check-handler.ts';

async function progressOf(options: Parameters<typeof checkHandler>[0]) {
  const seen: Progress[] = [];
  const r = await checkHandler({ ...options, onProgress: (p) => seen.push(p) });
  return { r, seen };
}

describe('progress of a check in parts', () => {
  it('adds the seeds already done, out of every seed’s runs', async () => {
    const { r, seen } = await progressOf({
      handler: 'reference',
      mode: 'sequential',
      runs: 12,
      seeds: [1, 2],
      allFindings: true,
    });
    expect(r.runs).toBe(24);
    expect(seen.length).toBeGreaterThan(1);
    expect(new Set(seen.map((p) => p.runsPlanned))).toEqual(new Set([24]));
    const runs = seen.map((p) => p.runs);
    expect(runs).toEqual([...runs].sort((a, b) => a - b));
    expect(Math.max(...runs)).toBeGreaterThan(12);
  });
});
