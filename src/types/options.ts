/**
 * What users pass to a check (`CheckOptions`, all optional, defaults documented) and what the code
 * uses (`ResolvedOptions`, every default applied). Types only, at the bottom so that runners and
 * reports can name them; `resolveOptions` in `api/` is the one place that turns one into the other.
 */
import type { OperationSpec } from '../model/operation.ts';
import type { Fixture } from '../model/world.ts';
import type { KnownFindings } from './findings.ts';
import type { InputClass } from './input-coverage.ts';
import type { LaneMode, Mode, ModeChoice } from './mode.ts';

/** The environment variable that sets the default seed. */
export const SEED_ENV = 'RECEIPTCHECK_SEED';

/** The seed used when neither `seed` nor RECEIPTCHECK_SEED is given: runs are reproducible by default. */
export const DEFAULT_SEED = 42;

/** Generated sequences a check runs when `runs` is not given. */
export const DEFAULT_RUNS = 300;

/** What a user may pass to `checkHandler` (and, by flags, to `receiptcheck run`). */
export interface CheckOptions {
  /** A bundled handler name (`reference`, a mutant) or a path to a plugin module. Default `reference`. */
  handler?: string;
  /**
   * The operation to check (`set-interval`, `create-once`, `adjust-balance`, `transfer`, or a spec a plugin
   * registered): picks among the bundled handlers of that operation, and a plugin file must
   * implement it. Default: the operation the handler names.
   */
  operation?: string;
  /** Generated sequences to run. Default 300. */
  runs?: number;
  /** fast-check seed. Default: $RECEIPTCHECK_SEED, else 42. */
  seed?: number;
  /** Stop generating new sequences after this many seconds and report what ran. Default: none. */
  timeLimitSeconds?: number;
  /**
   * The fewest runs that make a pass. A time limit that stops the check before this many runs
   * leaves it incomplete (`E_TOO_FEW_RUNS`, exit 2), never passed. Default 0: any run count.
   */
  minRuns?: number;
  /**
   * Execution mode. Default `auto`: sequential mode, then scheduled mode, each with half the runs
   * (and half the time limit), so the default run finds races deterministically. Concurrent mode
   * (real threads) is the check that real locking agrees; ask for it by name.
   */
  mode?: ModeChoice;
  /** Worker threads for concurrent and scheduled modes. Default 4. */
  workers?: number;
  /**
   * Scheduled mode's lanes: `auto` (default) runs a handler declared `replayable` inline on one
   * thread and any other on worker threads; `inline` or `threads` forces one (same traces).
   */
  lanes?: LaneMode;
  /** Most moves per generated sequence. Default 20. */
  stepsMax?: number;
  /** Run only shard `index` of `count` (1-based), e.g. `{index: 2, count: 4}`. Default: all. */
  shard?: { index: number; count: number };
  /** Per-call timeout in ms: a call running longer is stopped and reported. Default 5000. */
  callTimeoutMs?: number;
  /**
   * For a PostgreSQL plugin: the server to run on, as `postgres://user:password@host:port/db`;
   * the harness creates and drops databases of its own there and touches nothing else. Default:
   * $RECEIPTCHECK_DATABASE_URL, else an embedded server the harness starts and stops itself.
   * SQLite plugins ignore it.
   */
  databaseUrl?: string;
  /** The world every run starts from. Default: the article's fixture and its unusual principals. */
  fixture?: Fixture;
  /**
   * Input classes the generators do not aim at (names as in `inputCoverage`: `set-interval`'s
   * are `InputClass`; an operation of your own names its fields' as `<field> <class>`, such as
   * `memo left out`). Default none. For showing that a class is what catches a bug; a run that
   * leaves classes out warns about them. A name that is none of the operation's classes is
   * refused (`E_BAD_OPTION`).
   */
  excludeInputClasses?: readonly (InputClass | (string & {}))[];
  /**
   * Keep searching after a counterexample: run the whole budget, shrink every failing run, and
   * report each distinct finding once with its count (`result.findings`). Default false.
   */
  allFindings?: boolean;
  /**
   * Findings accepted as known (implies `allFindings`): a known-findings file's path (relative to
   * the working directory) or its parsed content. Known findings are reported but do not fail
   * the check. Default none.
   */
  knownFindings?: string | KnownFindings;
  /**
   * With `allFindings`: search each of these seeds in turn, each with the whole run budget, and
   * report their findings together (equal signatures counted together). Default: `seed` alone.
   */
  seeds?: readonly number[];
  /** Called after every run with counts so far, for progress displays. */
  onProgress?: (progress: Progress) => void;
}

/** Counts reported while a check runs. */
export interface Progress {
  readonly runs: number;
  readonly runsPlanned: number;
  readonly steps: number;
  readonly elapsedMs: number;
  readonly coverage: Readonly<Record<string, number>>;
}

/** Options with every default applied and every value checked. */
export interface ResolvedOptions {
  readonly handler: string;
  readonly operation: string | undefined;
  readonly runs: number;
  readonly seed: number;
  readonly timeLimitSeconds: number | undefined;
  readonly minRuns: number;
  readonly mode: ModeChoice;
  /** The modes the check explores, in order (`auto`: `AUTO_MODES`; else the one mode). */
  readonly modes: readonly Mode[];
  readonly workers: number;
  readonly lanes: LaneMode;
  readonly stepsMax: number;
  readonly shard: { readonly index: number; readonly count: number } | undefined;
  readonly callTimeoutMs: number;
  /** A PostgreSQL plugin's server URL; undefined for the embedded server. */
  readonly databaseUrl: string | undefined;
  readonly fixture: Fixture;
  readonly excludeInputClasses: readonly string[];
  readonly allFindings: boolean;
  readonly knownFindings: KnownFindings | undefined;
  /** The seeds an all-findings check searches, `[seed]` unless `seeds` was given. */
  readonly seeds: readonly number[];
  readonly onProgress: ((progress: Progress) => void) | undefined;
}

/** What a soak run may be given; every field has a default. */
export interface SoakOptions {
  /** Bundled handler name or plugin path. Default `reference`. */
  readonly handler?: string;
  /** The operation, as in `CheckOptions.operation`. */
  readonly operation?: string;
  /** Concurrent clients, each with its own worker and connection (1–64). Default 8. */
  readonly clients?: number;
  /** How long clients keep issuing operations, in ms. Default 2000. */
  readonly durationMs?: number;
  /** Seed of the clients' choices (timing is not seeded, so runs differ). Default 42. */
  readonly seed?: number;
  /** Most operations issued in all, whatever the duration. Default 1,000,000. */
  readonly operationsMax?: number;
  /** Moves, scope changes and receipt-store failures among the calls. Default true. */
  readonly worldEvents?: boolean;
  /** Per-operation limit; a longer one stops the soak with `E_CALL_TIMEOUT`. Default 5000. */
  readonly callTimeoutMs?: number;
  /** Time budget of the linearizability check, in ms. Default 60,000. */
  readonly checkTimeLimitMs?: number;
  readonly fixture?: Fixture;
  /** Return the whole history (large). Default false. */
  readonly keepHistory?: boolean;
}

/** Resolved options for one mode: what a mode runner and `prepareRun` take. */
export type OneModeOptions = ResolvedOptions & { readonly mode: Mode };

/**
 * What a mode runner takes: one mode's options and the operation the run checks, the spec
 * `prepareRun` resolved from the plugin (passed on, never looked up again by name).
 */
export type RunOptions = OneModeOptions & { readonly spec: OperationSpec };
