/**
 * `checkTargets` judges every target of the performance budget on a report: each one is shown met on a report
 * that meets it and missed on one that misses it, and not judged where the configuration is too
 * small to say. Reports are built by hand; nothing is timed.
 */
import { describe, expect, it } from 'vitest';
import type { BenchReport, SoakCheckFigure, Throughput } from './bench-report.ts';
import { checkTargets } from './targets.ts';

function speed(ratioToRaw: number): Throughput {
  return {
    available: true,
    steps: 100,
    seconds: 1,
    stepsPerSecond: 100,
    perRound: [100],
    cpuSeconds: 1,
    stepsPerCpuSecond: 100,
    perRoundCpu: [100],
    ratioToRaw,
    cpuRatioToRaw: ratioToRaw,
  };
}

const SOAK_MET: SoakCheckFigure = {
  entries: 1_000_000,
  clients: 16,
  seconds: 8,
  generateSeconds: 3,
  maxRssMb: 900,
  verdict: 'ok',
};

function report(
  over: {
    threads?: number;
    asyncSequential?: number;
    asyncScheduled?: number;
    soak?: Partial<SoakCheckFigure>;
  } = {},
): Omit<BenchReport, 'targets'> {
  return {
    machine: { nproc: 2, cpuModel: 'test', node: 'v20', platform: 'linux' },
    config: {
      handler: 'reference',
      quick: false,
      rounds: 1,
      runsPerRound: 1,
      stepsMax: 20,
      workers: 4,
      warmUpSeconds: 1,
      warmUpSteps: 50_000,
      seed: 42,
      killSeeds: 1,
      proveCases: 0,
      operation: 'set-interval',
      engine: 'sqlite',
    },
    throughput: {
      raw: speed(1),
      rawInMemory: speed(1),
      rawScheduledMix: speed(1),
      sequential: speed(0.8),
      concurrent: speed(0.4),
      scheduled: speed(0.35),
      scheduledThreads: speed(over.threads ?? 0.2),
      asyncSequential: speed(over.asyncSequential ?? 0.6),
      asyncScheduled: speed(over.asyncScheduled ?? 0.3),
    },
    kills: [],
    checker: { entries: 100_000, clients: 8, seconds: 1, perRun: [1], verdicts: ['ok'] },
    soakCheck: { ...SOAK_MET, ...over.soak },
    memory: { maxRssMb: 400, peakHeapUsedMb: 100 },
    elapsedSeconds: 1,
  };
}

function met(r: Omit<BenchReport, 'targets'>, prefix: string): boolean | null | undefined {
  return checkTargets(r).find((t) => t.figure.startsWith(prefix))?.met;
}

describe('checkTargets', () => {
  it('judges scheduled mode on thread lanes against 0.15 × raw', () => {
    expect(met(report({ threads: 0.2 }), 'scheduled, thread lanes')).toBe(true);
    expect(met(report({ threads: 0.1 }), 'scheduled, thread lanes')).toBe(false);
    const r = report();
    const unavailable = { available: false as const, reason: 'not here' };
    const without = { ...r, throughput: { ...r.throughput, scheduledThreads: unavailable } };
    expect(met(without, 'scheduled, thread lanes')).toBeNull();
  });

  it('judges the async reference against 0.5 × raw sequential and 0.25 × raw scheduled', () => {
    expect(met(report(), 'async reference, sequential')).toBe(true);
    expect(met(report({ asyncSequential: 0.15 }), 'async reference, sequential')).toBe(false);
    expect(met(report(), 'async reference, scheduled')).toBe(true);
    expect(met(report({ asyncScheduled: 0.12 }), 'async reference, scheduled')).toBe(false);
  });

  it('judges the soak check: 1,000,000 calls from 16 clients, ok, ≤ 10 s and < 1 GB', () => {
    expect(met(report(), 'soak check')).toBe(true);
    expect(met(report({ soak: { seconds: 12 } }), 'soak check')).toBe(false);
    expect(met(report({ soak: { maxRssMb: 1500 } }), 'soak check')).toBe(false);
    expect(met(report({ soak: { verdict: 'unknown' } }), 'soak check')).toBe(false);
  });

  it('does not judge a soak check on a smaller history (quick) or other clients', () => {
    expect(met(report({ soak: { entries: 100_000, seconds: 99 } }), 'soak check')).toBeNull();
    expect(met(report({ soak: { clients: 8 } }), 'soak check')).toBeNull();
  });

  it('shows what it judged: the soak check names its seconds, memory and verdict', () => {
    const row = checkTargets(report({ soak: { seconds: 12.345, maxRssMb: 1499.6 } })).find((t) =>
      t.figure.startsWith('soak check'),
    );
    expect(row?.value).toBe('12.35 s, 1500 MB, ok');
  });

  it('judges a PostgreSQL bench by its own targets: 0.6 / 0.5 / 0.3 × raw, each mutant killed in ≤ 1 s', () => {
    const sqlite = report();
    const pg = (sequential: number, concurrent: number, killSeconds: number) => ({
      ...sqlite,
      config: { ...sqlite.config, engine: 'postgres' as const },
      throughput: {
        ...sqlite.throughput,
        sequential: speed(sequential),
        concurrent: speed(concurrent),
      },
      kills: [
        {
          mutant: 'pg-check-then-act',
          mode: 'scheduled' as const,
          available: true,
          seeds: 1,
          killed: 1,
          runsMedian: 3,
          secondsMedian: killSeconds,
          shrunkStepsMedian: 2,
          attempts: [],
        },
      ],
    });
    // 0.65 misses SQLite's 0.7 but meets PostgreSQL's 0.6; 0.45 meets SQLite's 0.3, not 0.5.
    expect(met({ ...sqlite, throughput: pg(0.65, 0.6, 1).throughput }, 'sequential')).toBe(false);
    expect(met(pg(0.65, 0.6, 0.8), 'sequential')).toBe(true);
    expect(met(pg(0.55, 0.6, 0.8), 'sequential')).toBe(false);
    expect(met(pg(0.65, 0.45, 0.8), 'concurrent')).toBe(false);
    expect(met(pg(0.65, 0.6, 0.8), 'time to kill')).toBe(true);
    expect(met(pg(0.65, 0.6, 1.2), 'time to kill')).toBe(false);
  });
});
