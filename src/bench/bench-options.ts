/**
 * The bench's options in two forms, as everywhere in receiptcheck: `BenchOptions` is what callers
 * pass (all optional), `ResolvedBenchOptions` what the bench uses. `quick` picks a smaller preset;
 * every other field overrides the preset, which is how the test runs a tiny bench.
 */

import { ReceiptcheckError } from '../errors.ts';
import type { Engine } from '../handlers/engine.ts';
import { DEFAULT_SEED } from '../types/options.ts';

/** What a caller may pass to `runBench`. */
export interface BenchOptions {
  /** Handler measured for throughput: a bundled name or a plugin path. Default `reference`. */
  handler?: string;
  /** The operation measured (its reference by default, its catalogue for time to kill). */
  operation?: string;
  /** The under-a-minute preset instead of the under-five-minutes one. Default false. */
  quick?: boolean;
  /**
   * Interleaved rounds of raw / sequential / concurrent / scheduled. Preset: 5, quick 3; on
   * PostgreSQL 5, quick 2.
   */
  rounds?: number;
  /**
   * Generated sequences per mode per round. Preset: 300, quick 100; on PostgreSQL 100, quick 20
   * (a run there costs ten times a SQLite run; 100 keeps a check's start, paid once a check,
   * as small a share of a round as in the checks users run, 300 runs by default).
   */
  runsPerRound?: number;
  /** Most moves per sequence, as `checkHandler`'s `stepsMax`. Default 20. */
  stepsMax?: number;
  /** Worker threads for concurrent and scheduled modes. Default 4. */
  workers?: number;
  /** First seed; round r uses `seed + r`. Default 42. */
  seed?: number;
  /**
   * CPU seconds each path runs, untimed, before the timed rounds (`bench-rounds.ts`; at least one
   * run of it, whatever this says; 0: exactly one). Default 1.
   */
  warmUpSeconds?: number;
  /**
   * Least steps each path runs, untimed, before the timed rounds (`bench-rounds.ts`): V8 optimizes
   * a function once it has run often enough, so warmth comes with steps, not seconds. Preset:
   * 50,000, quick 20,000; on PostgreSQL 10,000, quick 2,000. Ignored when `warmUpSeconds` is 0.
   */
  warmUpSteps?: number;
  /**
   * Seeds per mutant for time to kill (1..n). Preset: 5, as the performance budget states it; quick 3, since a
   * concurrent mutant's check with its shrinking takes seconds and quick must stay under a minute.
   */
  killSeeds?: number;
  /**
   * Generated cases `prove` searches, then random sampling samples for as long, for the coverage
   * figure; 0 skips the whole `prove` section (its race-mutant kills too). Preset: 10, quick 3;
   * on PostgreSQL 1, quick 0: with no reduction there every schedule within the bound runs, and
   * proving the PostgreSQL race mutants alone takes minutes.
   */
  proveCases?: number;
  /** Most schedules `prove` runs per case in the bench. Preset: 20,000; on PostgreSQL 1,000. */
  proveSchedulesMax?: number;
  /** Only these catalogued mutants (by name). Default: the whole catalogue. */
  mutants?: readonly string[];
  /** Calls in the synthetic history the checker is timed on. Default 100,000. */
  historyEntries?: number;
  /** Clients in that history. Default 8. */
  historyClients?: number;
  /** Times the checker is timed (different seeds; the median is reported). Preset: 3, quick 1. */
  checkerRuns?: number;
  /**
   * Calls in the soak-shaped history (fresh request ids) checked in a child process. Preset:
   * 1,000,000, the soak target's; quick 100,000 (then reported but not judged).
   */
  soakEntries?: number;
  /** Clients in that history. Default 16. */
  soakClients?: number;
  /** Called with one line whenever a section starts, for a progress display on stderr. */
  onProgress?: (line: string) => void;
}

/** Options with the preset and every default applied. */
export interface ResolvedBenchOptions {
  readonly handler: string;
  readonly operation: string | undefined;
  readonly quick: boolean;
  readonly rounds: number;
  readonly runsPerRound: number;
  readonly stepsMax: number;
  readonly workers: number;
  readonly seed: number;
  readonly warmUpSeconds: number;
  readonly warmUpSteps: number;
  readonly killSeeds: number;
  readonly proveCases: number;
  readonly proveSchedulesMax: number;
  readonly mutants: readonly string[] | undefined;
  readonly historyEntries: number;
  readonly historyClients: number;
  readonly checkerRuns: number;
  readonly soakEntries: number;
  readonly soakClients: number;
  readonly onProgress: (line: string) => void;
}

/**
 * Applies the preset for `engine` and the defaults; throws `E_BAD_OPTION` naming the bad value.
 * PostgreSQL's presets are smaller, so that `--quick` stays well under two minutes there too.
 */
export function resolveBenchOptions(
  options: BenchOptions = {},
  engine: Engine = 'sqlite',
): ResolvedBenchOptions {
  const quick = options.quick ?? false;
  const pg = engine === 'postgres';
  const resolved: ResolvedBenchOptions = {
    handler: options.handler ?? 'reference',
    operation: options.operation,
    quick,
    rounds: options.rounds ?? (pg ? (quick ? 2 : 5) : quick ? 3 : 5),
    runsPerRound: options.runsPerRound ?? (pg ? (quick ? 20 : 100) : quick ? 100 : 300),
    stepsMax: options.stepsMax ?? 20,
    workers: options.workers ?? 4,
    seed: options.seed ?? DEFAULT_SEED,
    warmUpSeconds: options.warmUpSeconds ?? 1,
    warmUpSteps: options.warmUpSteps ?? (pg ? (quick ? 2_000 : 10_000) : quick ? 20_000 : 50_000),
    killSeeds: options.killSeeds ?? (quick ? 3 : 5),
    proveCases: options.proveCases ?? (pg ? (quick ? 0 : 1) : quick ? 3 : 10),
    proveSchedulesMax: options.proveSchedulesMax ?? (pg ? 1_000 : 20_000),
    mutants: options.mutants,
    historyEntries: options.historyEntries ?? 100_000,
    historyClients: options.historyClients ?? 8,
    checkerRuns: options.checkerRuns ?? (quick ? 1 : 3),
    soakEntries: options.soakEntries ?? (quick ? 100_000 : 1_000_000),
    soakClients: options.soakClients ?? 16,
    onProgress: options.onProgress ?? (() => {}),
  };
  for (const name of [
    'rounds',
    'runsPerRound',
    'stepsMax',
    'workers',
    'killSeeds',
    'proveSchedulesMax',
    'historyEntries',
    'historyClients',
    'checkerRuns',
    'soakEntries',
    'soakClients',
  ] as const) {
    const value = resolved[name];
    if (!Number.isSafeInteger(value) || value < 1)
      throw new ReceiptcheckError(
        'E_BAD_OPTION',
        `bench option ${name} must be a positive integer (got ${value})`,
      );
  }
  if (!Number.isSafeInteger(resolved.warmUpSteps) || resolved.warmUpSteps < 0)
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `bench option warmUpSteps must be a whole number of steps, 0 or more (got ${resolved.warmUpSteps})`,
    );
  if (!Number.isSafeInteger(resolved.proveCases) || resolved.proveCases < 0)
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `bench option proveCases must be a whole number of cases, 0 to skip (got ${resolved.proveCases})`,
    );
  if (!(Number.isFinite(resolved.warmUpSeconds) && resolved.warmUpSeconds >= 0))
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `bench option warmUpSeconds must be a number of seconds, 0 or more (got ${resolved.warmUpSeconds})`,
    );
  if (!Number.isSafeInteger(resolved.seed))
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `bench seed must be an integer (got ${resolved.seed})`,
    );
  return resolved;
}
