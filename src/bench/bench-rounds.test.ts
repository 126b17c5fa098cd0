/**
 * `benchRounds`: the warm-up round runs every path once and reports none of it; the timed rounds
 * alternate their order; a path unavailable before or during the warm-up is not tried again.
 * Fake paths only: nothing here is timed.
 */
import { describe, expect, it } from 'vitest';
import { benchRounds, steadied } from './bench-rounds.ts';
import {
  emptyTotals,
  type PathName,
  type PathTotals,
  throughputSection,
} from './throughput-totals.ts';

const o = { rounds: 2, seed: 10, warmUpSeconds: 0, warmUpSteps: 0, onProgress: () => {} };
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

/** One path, `sequential`, logging its seed; each check takes `steps()` steps in a CPU second. */
function sequentialOnly(log: string[], steps: () => number) {
  return (seed: number, into: Record<PathName, PathTotals>) => [
    async () => {
      log.push(`sequential@${seed}`);
      into.sequential.rounds.push({ steps: steps(), seconds: 1, cpuSeconds: 1 });
    },
  ];
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
    expect(warm.filter((l) => l.startsWith('raw@'))).toHaveLength(60);
    expect(warm.filter((l) => l.startsWith('sequential@'))).toHaveLength(60);
    // One path at a time, each on seeds 9, 8, 7, …: never a timed round's.
    expect(warm.slice(0, 3)).toEqual(['raw@9', 'raw@8', 'raw@7']);
    expect(warm.every((l) => Number(l.split('@')[1]) < o.seed)).toBe(true);
    expect(log.slice(-4)).toEqual(['raw@10', 'sequential@10', 'sequential@11', 'raw@11']);
    expect(totals.raw.rounds).toHaveLength(2);
  });

  it('warms a path until its speed stops rising, and keeps its warm-up checks apart', async () => {
    const log: string[] = [];
    const totals = emptyTotals();
    totals.raw.unavailable = 'does not apply';
    // A path an earlier phase warmed keeps its warm-up.
    const earlier = [{ steps: 7, seconds: 1, cpuSeconds: 1 }];
    totals.scheduled.warmUp = earlier;
    // Each check of this path is faster than the one before, up to the fifth, then no faster.
    const speeds = [1, 2, 3, 4, 5, 5, 5, 5, 5, 5];
    let checks = 0;
    await benchRounds(
      { ...o, warmUpSeconds: 1e-9 },
      'test',
      totals,
      () => {},
      sequentialOnly(log, () => speeds[Math.min(checks++, speeds.length - 1)] as number),
    );
    // 1, 2, 3, 4, 5 rise; 5, 5, 5 are the three in a row that beat no earlier best.
    expect(log.filter((l) => Number(l.split('@')[1]) < o.seed)).toHaveLength(8);
    expect(totals.sequential.rounds).toHaveLength(2);
    expect(totals.sequential.warmUp?.map((r) => r.steps)).toEqual([1, 2, 3, 4, 5, 5, 5, 5]);
    expect(totals.scheduled.warmUp).toBe(earlier);
    const figure = throughputSection(totals).sequential;
    expect(figure.available && figure.warmUp).toEqual({
      checks: 8,
      cpuSeconds: 8,
      perCheckCpu: [1, 2, 3, 4, 5, 5, 5, 5],
    });
  });

  it('runs a path its least steps though its speed stopped rising long before', async () => {
    const log: string[] = [];
    const totals = emptyTotals();
    totals.raw.unavailable = 'does not apply';
    // Level from the first check: steadied after four, but 3 steps a check need 7 for 20 steps.
    await benchRounds(
      { ...o, warmUpSeconds: 1e-9, warmUpSteps: 20 },
      'test',
      totals,
      () => {},
      sequentialOnly(log, () => 3),
    );
    expect(log.filter((l) => Number(l.split('@')[1]) < o.seed)).toHaveLength(7);
    expect(totals.sequential.warmUp).toHaveLength(7);
  });
});

describe('steadied', () => {
  it('needs three checks in a row no faster than 5% above the best before them', () => {
    expect(steadied([])).toBe(false);
    expect(steadied([10, 10, 10])).toBe(false);
    expect(steadied([10, 10, 10, 10])).toBe(true);
    expect(steadied([1, 2, 3, 4, 5])).toBe(false);
    expect(steadied([10, 20, 21, 19, 20])).toBe(true);
    expect(steadied([10, 20, 22, 20, 20])).toBe(false);
    // A slow check (the machine busy a moment) does not make a path warm or cold by itself.
    expect(steadied([10, 20, 5, 20, 20])).toBe(true);
  });
});
