/**
 * `benchRounds`: the warm-up round runs every path once and reports none of it; the timed rounds
 * alternate their order; a path unavailable before or during the warm-up is not tried again.
 * Fake paths only: nothing here is timed.
 */
import { describe, expect, it } from 'vitest';
import { benchRounds } from './bench-rounds.ts';
import { emptyTotals, type PathName, type PathTotals } from './throughput-totals.ts';

const o = { rounds: 2, seed: 10, warmUpSeconds: 0, onProgress: () => {} };
const measure = { steps: 1, seconds: 1, cpuSeconds: 1 };

/** Two paths, `raw` and `sequential`, each logging its name and seed and recording one round. */
function paths(log: string[]) {
  return (seed: number, into: Record<PathName, PathTotals>) =>
    (['raw', 'sequential'] as const).map((name) => async () => {
      if (into[name].unavailable !== undefined) return;
      log.push(`${name}@${seed}`);
      into[name].rounds.push(measure);
    });
}

describe('benchRounds', () => {
  it('warms every path once on a seed of its own, then times o.rounds rounds, reversed every other', async () => {
    const log: string[] = [];
    const totals = emptyTotals();
    let samples = 0;
    await benchRounds(o, 'test', totals, () => samples++, paths(log));
    expect(log).toEqual([
      'raw@9',
      'sequential@9',
      'raw@10',
      'sequential@10',
      'sequential@11',
      'raw@11',
    ]);
    // The warm-up's measures went nowhere: only the timed rounds are in the totals.
    expect(totals.raw.rounds).toHaveLength(2);
    expect(totals.sequential.rounds).toHaveLength(2);
    expect(samples).toBe(6);
  });

  it('a path found unavailable in the warm-up, or before it, is not tried again', async () => {
    const log: string[] = [];
    const totals = emptyTotals();
    totals.raw.unavailable = 'does not apply';
    await benchRounds(
      o,
      'test',
      totals,
      () => {},
      (seed, into) => [
        ...paths(log)(seed, into),
        async () => {
          if (into.concurrent.unavailable !== undefined) return;
          log.push(`concurrent@${seed}`);
          into.concurrent.unavailable = 'not available yet';
        },
      ],
    );
    expect(log.filter((l) => l.startsWith('raw'))).toEqual([]);
    expect(log.filter((l) => l.startsWith('concurrent'))).toEqual(['concurrent@9']);
    expect(totals.concurrent.unavailable).toBe('not available yet');
    expect(totals.raw.unavailable).toBe('does not apply');
    expect(totals.sequential.rounds).toHaveLength(2);
  });

  it('repeats each path on earlier seeds until its CPU budget is spent, within a cap', async () => {
    const log: string[] = [];
    const totals = emptyTotals();
    // Fake paths take next to no CPU: a budget of 1,000 s stops only at the cap.
    await benchRounds({ ...o, warmUpSeconds: 1000 }, 'test', totals, () => {}, paths(log));
    const warm = log.slice(0, -4);
    expect(warm.filter((l) => l.startsWith('raw@'))).toHaveLength(30);
    expect(warm.filter((l) => l.startsWith('sequential@'))).toHaveLength(30);
    // One path at a time, each on seeds 9, 8, 7, …: never a timed round's.
    expect(warm.slice(0, 3)).toEqual(['raw@9', 'raw@8', 'raw@7']);
    expect(warm.every((l) => Number(l.split('@')[1]) < o.seed)).toBe(true);
    expect(log.slice(-4)).toEqual(['raw@10', 'sequential@10', 'sequential@11', 'raw@11']);
    expect(totals.raw.rounds).toHaveLength(2);
  });
});
