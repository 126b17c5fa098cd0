/**
 * What `runBench` returns: every figure as plain data, JSON-able as it stands (`--json` prints it
 * whole), rendered as a table by `report/format-bench.ts`. Times are seconds, memory megabytes.
 */
import type { Engine } from '../handlers/engine.ts';
import type { Mode } from '../types/mode.ts';
import type { ResolvedBenchOptions } from './bench-options.ts';

/** Where the figures came from. */
export interface MachineInfo {
  readonly nproc: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly platform: string;
}

/** Steps per second of one measured path, summed over the rounds. */
export interface Throughput {
  readonly available: true;
  readonly steps: number;
  readonly seconds: number;
  readonly stepsPerSecond: number;
  /** Steps per second of each round, in round order: the spread the machine's noise caused. */
  readonly perRound: readonly number[];
  /** This process's CPU time (user + system, worker threads included) over the same work. */
  readonly cpuSeconds: number;
  /** Steps per CPU second: time-slicing on a shared machine does not count against it. */
  readonly stepsPerCpuSecond: number;
  readonly perRoundCpu: readonly number[];
  /** Median over rounds of this path's speed over raw's in the same round; absent for raw. */
  readonly ratioToRaw?: number;
  /** The same ratio per CPU second. */
  readonly cpuRatioToRaw?: number;
  /** The untimed warm-up before the rounds: what the same checks cost in a fresh process. */
  readonly warmUp?: WarmUpFigure;
  /** Set when the measured handler failed a run, which ends a check early and skews the figure. */
  readonly warning?: string;
}

/** A path's untimed warm-up: its checks until its speed stopped rising (`bench-rounds.ts`). */
export interface WarmUpFigure {
  readonly checks: number;
  readonly cpuSeconds: number;
  /** Steps per CPU second of each warm-up check, in order: the first is a cold process's. */
  readonly perCheckCpu: readonly number[];
}

/** A mode whose runner has not landed (or cannot start here). */
export interface Unavailable {
  readonly available: false;
  readonly reason: string;
}

/** The throughput section: the ceiling and the harness in each mode. */
export interface ThroughputSection {
  /**
   * The handler's own calls in a tight loop on a file database opened by `openConnection`; on
   * PostgreSQL, on one connection to a database made from the template.
   */
  readonly raw: Throughput;
  /**
   * The same loop on an in-memory copy of the template, the storage sequential mode runs on;
   * unavailable on PostgreSQL, which has no such copy.
   */
  readonly rawInMemory: Throughput | Unavailable;
  /**
   * The file loop on scheduled mode's own sequences (it draws a schedule with each step, so the
   * same seed gives other sequences): scheduled mode's ratio is to this.
   */
  readonly rawScheduledMix: Throughput;
  readonly sequential: Throughput | Unavailable;
  readonly concurrent: Throughput | Unavailable;
  readonly scheduled: Throughput | Unavailable;
  /**
   * Scheduled mode on worker-thread lanes (`lanes: 'threads'`), as a handler that is not
   * replayable runs (the wrapped libraries, most users' plugins), against the same raw mix.
   */
  readonly scheduledThreads: Throughput | Unavailable;
  /**
   * The SQLite reference awaiting once before it answers (not replayable, so scheduled mode runs
   * it on thread lanes), against the same raw loops: what an awaiting handler costs. Measured only
   * when the bench runs the set-interval SQLite reference.
   */
  readonly asyncSequential: Throughput | Unavailable;
  readonly asyncScheduled: Throughput | Unavailable;
}

/** One seed's attempt to kill a mutant. */
export interface KillAttempt {
  readonly seed: number;
  readonly killed: boolean;
  /** Runs until the first failing one (that one included); the runs made when it survived. */
  readonly runs: number;
  /** From the start of `checkHandler` to the end of the first failing run (plugin load included). */
  readonly secondsToFailure: number;
  /** The whole check, shrinking included. */
  readonly secondsTotal: number;
  /** Steps in the shrunk counterexample. */
  readonly shrunkSteps?: number;
}

/** Time to kill one catalogued mutant, over seeds 1..n. Medians count a survival as infinite. */
export interface KillFigure {
  readonly mutant: string;
  readonly mode: Mode;
  readonly available: boolean;
  readonly reason?: string;
  readonly seeds: number;
  readonly killed: number;
  /** Null when at least half the seeds survived (the median is then unbounded). */
  readonly runsMedian: number | null;
  readonly secondsMedian: number | null;
  readonly shrunkStepsMedian: number | null;
  readonly attempts: readonly KillAttempt[];
}

/** `prove` on one race mutant at the default bound, beside random scheduled mode's time to kill. */
export interface ProveKillFigure {
  readonly mutant: string;
  readonly operation: string | undefined;
  /** `failed`: killed; `incomplete`: a case reached the bench's schedule cap first. */
  readonly verdict: 'held' | 'failed' | 'incomplete';
  /** The whole proof, shrinking included. */
  readonly seconds: number;
  readonly schedules: number;
  /** The counterexample's preemptions, when killed. */
  readonly preemptions: number | null;
  /** Random scheduled mode's median time to kill (null: not killed at half the seeds or more). */
  readonly randomSecondsMedian: number | null;
  readonly randomKilled: number;
  readonly randomSeeds: number;
}

/**
 * The schedules of a few generated cases: what `prove` ran within its bound, and what random
 * sampling reached in the same time on the same cases (trace hashes, so equal runs count once).
 */
export interface CoverageFigure {
  readonly handler: string;
  readonly verdict: 'held' | 'failed' | 'incomplete';
  readonly preemptions: number;
  readonly cases: number;
  readonly proveSeconds: number;
  readonly proveSchedules: number;
  readonly proveDistinct: number;
  readonly sampledRuns: number;
  readonly sampledDistinct: number;
  /** Distinct sampled schedules that are among `prove`'s. */
  readonly sampledOfProve: number;
  /** Distinct sampled schedules past `prove`'s bound (more preemptions). */
  readonly sampledBeyond: number;
}

/** The linearizability checker on a synthetic history. */
export interface CheckerFigure {
  readonly entries: number;
  readonly clients: number;
  /** Median over `perRun`. */
  readonly seconds: number;
  readonly perRun: readonly number[];
  /** Every run's verdict; the synthetic history is linearizable, so anything but `ok` is a bug. */
  readonly verdicts: readonly string[];
}

/**
 * The soak-sized check: a synthetic history of `entries` calls from `clients` clients (fresh
 * request ids, as a soak's traffic), generated and checked in a child process of its own so that
 * its memory is measured apart from the bench's.
 */
export interface SoakCheckFigure {
  readonly entries: number;
  readonly clients: number;
  /** The check alone (generation not included). */
  readonly seconds: number;
  /** Generating the history, in the same child. */
  readonly generateSeconds: number;
  /** The child's maxRSS: generation, the history and the check. */
  readonly maxRssMb: number;
  readonly verdict: string;
}

/** Memory high-water marks of the bench process (worker threads included). */
export interface MemoryFigure {
  /** `process.resourceUsage().maxRSS`. */
  readonly maxRssMb: number;
  /** The highest `heapUsed` seen between sections. */
  readonly peakHeapUsedMb: number;
}

/** One speed or memory target and whether this run met it. */
export interface TargetCheck {
  readonly figure: string;
  readonly target: string;
  readonly value: string;
  /** Null when the figure could not be measured (a mode not available yet). */
  readonly met: boolean | null;
}

/** The whole bench. */
export interface BenchReport {
  readonly machine: MachineInfo;
  readonly config: Pick<
    ResolvedBenchOptions,
    | 'handler'
    | 'quick'
    | 'rounds'
    | 'runsPerRound'
    | 'stepsMax'
    | 'workers'
    | 'seed'
    | 'warmUpSeconds'
    | 'warmUpSteps'
    | 'killSeeds'
    | 'proveCases'
  > & {
    /** The operation measured (`set-interval` by default). */
    readonly operation: string;
    /** The engine the measured plugin runs on. */
    readonly engine: Engine;
  };
  readonly throughput: ThroughputSection;
  readonly kills: readonly KillFigure[];
  /**
   * PostgreSQL only: runs, over the whole bench, whose reset could not put the run database back
   * in place (the run changed the schema) and copied the template instead.
   */
  readonly templateCopies?: number;
  /** `prove` against random sampling (`prove-against-sampling.ts`); absent when `proveCases` is 0. */
  readonly prove?: {
    readonly kills: readonly ProveKillFigure[];
    readonly coverage: CoverageFigure;
  };
  readonly checker: CheckerFigure;
  readonly soakCheck: SoakCheckFigure;
  readonly memory: MemoryFigure;
  readonly targets: readonly TargetCheck[];
  readonly elapsedSeconds: number;
}
