/**
 * `receiptcheck bench --quick --json` prints one object with every figure the bench reports. A
 * tiny configuration keeps it fast; no figure is compared with a time, only checked to be there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchReport } from '../bench/bench-report.ts';
import { stopEmbeddedPostgres } from '../execute/postgres/server.ts';
import { decodeJson } from '../report/encode.ts';
import { memoryIo } from './io.ts';
import { main } from './main.ts';

const TINY = [
  ...['--rounds', '1', '--runs', '4', '--kill-seeds', '1', '--history', '400', '--soak', '400'],
  ...['--warm-up', '0'],
];

describe('receiptcheck bench', () => {
  // The PostgreSQL bench's server lingers a moment for a next runner: stop it with the file.
  afterAll(() => stopEmbeddedPostgres());

  it('--quick --json prints every figure: throughput and ratios, time to kill, checker, memory, targets', async () => {
    const io = memoryIo();
    const mutants = ['--mutants', 'version-before-receipt,check-then-act', '--prove-cases', '1'];
    const code = await main(['bench', '--quick', '--json', ...TINY, ...mutants], io);
    expect(code).toBe(0);
    const r = decodeJson(io.out.join('')) as BenchReport;
    expect(r.config).toMatchObject({
      quick: true,
      rounds: 1,
      runsPerRound: 4,
      killSeeds: 1,
      warmUpSeconds: 0,
    });
    expect(r.machine.nproc).toBeGreaterThan(0);
    expect(r.machine.node).toBe(process.version);

    const t = r.throughput;
    expect(t.rawInMemory).toMatchObject({ available: true, steps: t.raw.steps });
    for (const raw of [t.raw, t.rawScheduledMix]) {
      expect(raw.steps).toBeGreaterThan(0);
      expect(raw.stepsPerSecond).toBeGreaterThan(0);
      expect(raw.stepsPerCpuSecond).toBeGreaterThan(0);
    }
    expect(t.sequential).toMatchObject({ available: true, steps: t.raw.steps });
    // The untimed warm-up round is not among the one timed round.
    for (const path of [t.raw, t.rawInMemory, t.rawScheduledMix, t.sequential])
      if (path.available) expect(path.perRound).toHaveLength(1);
    // Each mode is timed against raw on the very sequences it ran.
    expect(t.scheduled).toMatchObject({ available: true, steps: t.rawScheduledMix.steps });
    // Thread lanes give the same traces as inline ones, so the same steps.
    expect(t.scheduledThreads).toMatchObject({
      available: true,
      steps: t.rawScheduledMix.steps,
    });
    // The async reference answers as the reference does: the same steps, in the same run as raw.
    expect(t.asyncSequential).toMatchObject({ available: true, steps: t.raw.steps });
    expect(t.asyncScheduled).toMatchObject({ available: true, steps: t.rawScheduledMix.steps });
    for (const mode of [t.sequential, t.concurrent, t.scheduled, t.scheduledThreads]) {
      if (mode.available) {
        expect(mode.ratioToRaw).toBeGreaterThan(0);
        expect(mode.cpuRatioToRaw).toBeGreaterThan(0);
      } else expect(mode.reason).toEqual(expect.any(String));
    }

    expect(r.kills.map((k) => k.mutant).sort()).toEqual([
      'check-then-act',
      'version-before-receipt',
    ]);
    const sequential = r.kills.find((k) => k.mutant === 'version-before-receipt');
    expect(sequential).toMatchObject({ mode: 'sequential', available: true, seeds: 1, killed: 1 });
    expect(sequential?.runsMedian).toBeGreaterThan(0);
    expect(sequential?.secondsMedian).toEqual(expect.any(Number));
    expect(sequential?.shrunkStepsMedian).toBeGreaterThan(0);

    // prove on the one race mutant selected, beside random scheduled mode's figure for it.
    expect(r.prove?.kills).toEqual([
      expect.objectContaining({ mutant: 'check-then-act', verdict: 'failed', randomSeeds: 1 }),
    ]);
    expect(r.prove?.kills[0]?.preemptions).toBeLessThanOrEqual(2);
    // The reference holds; sampling on the same case reached some of its schedules, no more.
    const c = r.prove?.coverage;
    expect(c).toMatchObject({ handler: 'reference', verdict: 'held', cases: 1 });
    expect(c?.proveDistinct).toBeGreaterThan(1);
    expect(c?.sampledRuns).toBeGreaterThan(0);
    expect(c?.sampledOfProve).toBeLessThanOrEqual(c?.proveDistinct ?? 0);
    expect((c?.sampledOfProve ?? 0) + (c?.sampledBeyond ?? 0)).toBe(c?.sampledDistinct);

    expect(r.checker).toMatchObject({ entries: 400, clients: 8, verdicts: ['ok'] });
    expect(r.checker.seconds).toEqual(expect.any(Number));
    expect(r.memory.maxRssMb).toBeGreaterThan(0);
    expect(r.memory.peakHeapUsedMb).toBeGreaterThan(0);
    expect(r.soakCheck).toMatchObject({ entries: 400, clients: 16, verdict: 'ok' });
    expect(r.soakCheck.seconds).toEqual(expect.any(Number));
    expect(r.soakCheck.generateSeconds).toEqual(expect.any(Number));
    // The child's own maxRSS: a process of its own has one.
    expect(r.soakCheck.maxRssMb).toBeGreaterThan(0);
    expect(r.targets.map((x) => x.figure)).toEqual([
      'sequential',
      'concurrent',
      'scheduled',
      'scheduled, thread lanes',
      'async reference, sequential',
      'async reference, scheduled',
      'time to kill (worst median)',
      'checker, 400-call history',
      'soak check, 400 calls',
      'peak memory (maxRSS)',
    ]);
    // Tiny histories say nothing about their targets.
    expect(r.targets.find((x) => x.figure.startsWith('soak'))?.met).toBeNull();
    expect(r.elapsedSeconds).toBeGreaterThan(0);

    const table = io.err.join('');
    for (const heading of [
      'throughput',
      'sched., threads',
      'time to kill',
      'race mutant',
      'coverage of',
      'checker',
      'soak check',
      'memory',
      'performance budget',
    ])
      expect(table).toContain(heading);
  });

  it('--handler pg-reference --quick --json measures PostgreSQL raw against every mode, and times a PostgreSQL mutant', async () => {
    const io = memoryIo();
    const code = await main(
      [
        ...['bench', '--handler', 'pg-reference', '--quick', '--json', ...TINY],
        ...['--mutants', 'transfer-pg-legs-in-two-transactions', '--prove-cases', '0'],
      ],
      io,
    );
    expect(code).toBe(0);
    const r = decodeJson(io.out.join('')) as BenchReport;
    expect(r.config).toMatchObject({
      engine: 'postgres',
      handler: 'pg-reference',
      rounds: 1,
      runsPerRound: 4,
    });

    const t = r.throughput;
    for (const raw of [t.raw, t.rawScheduledMix]) {
      expect(raw.steps).toBeGreaterThan(0);
      expect(raw.stepsPerSecond).toBeGreaterThan(0);
      expect(raw.stepsPerCpuSecond).toBeGreaterThan(0);
    }
    expect(t.rawInMemory).toMatchObject({
      available: false,
      reason: expect.stringContaining('PostgreSQL'),
    });
    // Each mode ran on PostgreSQL, on the very sequences raw replayed.
    expect(t.sequential).toMatchObject({ available: true, steps: t.raw.steps });
    expect(t.concurrent).toMatchObject({ available: true, steps: t.raw.steps });
    expect(t.scheduled).toMatchObject({ available: true, steps: t.rawScheduledMix.steps });
    expect(t.scheduledThreads).toMatchObject({
      available: false,
      reason: expect.stringContaining('PostgreSQL'),
    });
    // The async reference is compared with the SQLite reference's raw loop only.
    for (const path of [t.asyncSequential, t.asyncScheduled])
      expect(path).toMatchObject({ available: false, reason: expect.stringContaining('SQLite') });
    for (const mode of [t.sequential, t.concurrent, t.scheduled]) {
      if (!mode.available) throw new Error(mode.reason);
      expect(mode.ratioToRaw).toBeGreaterThan(0);
      expect(mode.cpuRatioToRaw).toBeGreaterThan(0);
      expect(mode.warning).toBeUndefined();
    }

    // Another operation's PostgreSQL mutant, killed in its catalogue's mode.
    expect(r.kills).toEqual([
      expect.objectContaining({
        mutant: 'transfer-pg-legs-in-two-transactions',
        mode: 'scheduled',
        killed: 1,
      }),
    ]);
    // The bench's runs change no schema: every reset was in place.
    expect(r.templateCopies).toBe(0);
    // --prove-cases 0 skips the prove section.
    expect(r.prove).toBeUndefined();

    expect(r.checker).toMatchObject({ entries: 400, verdicts: ['ok'] });
    expect(r.soakCheck).toMatchObject({ entries: 400, verdict: 'ok' });
    const table = io.err.join('');
    expect(table).toContain('PostgreSQL');
    expect(table).toContain('fell back to a new copy of the template');
    expect(table).toContain('≤ 1 s for every mutant');
  });

  it('rejects a name outside the catalogue with exit code 2 and what to pass instead', async () => {
    const io = memoryIo();
    const code = await main(['bench', '--mutants', 'no-such-mutant'], io);
    expect(code).toBe(2);
    expect(io.err.join('')).toContain('receiptcheck mutants --list');
  });
});
