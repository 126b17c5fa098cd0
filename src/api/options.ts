/**
 * Options in two forms, resolved in one place: `CheckOptions` is what users pass (all optional,
 * defaults documented), `ResolvedOptions` is what the code uses. The CLI and the API both call
 * `resolveOptions`, so they share every default and every validation message.
 */
import { ReceiptcheckError } from '../errors.ts';
import { LANE_MODES, type LaneMode } from '../execute/scheduled/lane-choice.ts';
import { DEFAULT_FIXTURE, type Fixture } from '../model/world.ts';

/** How calls are executed. */
export type Mode = 'sequential' | 'concurrent' | 'scheduled';

/** Every mode, for validation and help text. */
export const MODES: readonly Mode[] = ['sequential', 'concurrent', 'scheduled'];

/** The environment variable that sets the default seed. */
export const SEED_ENV = 'RECEIPTCHECK_SEED';

/** The seed used when neither `seed` nor RECEIPTCHECK_SEED is given: runs are reproducible by default. */
export const DEFAULT_SEED = 42;

/** What a user may pass to `checkHandler` (and, by flags, to `receiptcheck run`). */
export interface CheckOptions {
  /** A bundled handler name (`reference`, a mutant) or a path to a plugin module. Default `reference`. */
  handler?: string;
  /** Generated sequences to run. Default 300. */
  runs?: number;
  /** fast-check seed. Default: $RECEIPTCHECK_SEED, else 42. */
  seed?: number;
  /** Stop generating new sequences after this many seconds and report what ran. Default: none. */
  timeLimitSeconds?: number;
  /** Execution mode. Default `sequential`. */
  mode?: Mode;
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
  /** The world every run starts from. Default: the article's fixture. */
  fixture?: Fixture;
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
  readonly runs: number;
  readonly seed: number;
  readonly timeLimitSeconds: number | undefined;
  readonly mode: Mode;
  readonly workers: number;
  readonly lanes: LaneMode;
  readonly stepsMax: number;
  readonly shard: { readonly index: number; readonly count: number } | undefined;
  readonly callTimeoutMs: number;
  readonly fixture: Fixture;
  readonly onProgress: ((progress: Progress) => void) | undefined;
}

/** Applies defaults and validates; throws `E_BAD_OPTION` with a message that says what to pass. */
export function resolveOptions(
  options: CheckOptions = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedOptions {
  const seed = options.seed ?? (env[SEED_ENV] !== undefined ? Number(env[SEED_ENV]) : DEFAULT_SEED);
  const resolved: ResolvedOptions = {
    handler: options.handler ?? 'reference',
    runs: options.runs ?? 300,
    seed,
    timeLimitSeconds: options.timeLimitSeconds,
    mode: options.mode ?? 'sequential',
    workers: options.workers ?? 4,
    lanes: options.lanes ?? 'auto',
    stepsMax: options.stepsMax ?? 20,
    shard: options.shard,
    callTimeoutMs: options.callTimeoutMs ?? 5_000,
    fixture: options.fixture ?? DEFAULT_FIXTURE,
    onProgress: options.onProgress,
  };
  positiveInteger('runs', resolved.runs);
  if (!Number.isSafeInteger(resolved.seed))
    bad(
      `seed must be an integer (got ${options.seed ?? env[SEED_ENV]}); set it with --seed or ${SEED_ENV}`,
    );
  if (resolved.timeLimitSeconds !== undefined && !(resolved.timeLimitSeconds > 0))
    bad(`time limit must be a positive number of seconds (got ${resolved.timeLimitSeconds})`);
  if (!MODES.includes(resolved.mode))
    bad(`mode must be one of ${MODES.join(', ')} (got ${resolved.mode})`);
  positiveInteger('workers', resolved.workers);
  if (!LANE_MODES.includes(resolved.lanes))
    bad(`lanes must be one of ${LANE_MODES.join(', ')} (got ${resolved.lanes})`);
  if (resolved.workers > 64) bad(`workers must be at most 64 (got ${resolved.workers})`);
  positiveInteger('stepsMax', resolved.stepsMax);
  positiveInteger('callTimeoutMs', resolved.callTimeoutMs);
  if (resolved.shard) {
    const { index, count } = resolved.shard;
    if (
      !Number.isSafeInteger(count) ||
      count < 1 ||
      !Number.isSafeInteger(index) ||
      index < 1 ||
      index > count
    ) {
      bad(`shard must be i/n with 1 ≤ i ≤ n (got ${index}/${count})`);
    }
  }
  return resolved;
}

function positiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1)
    bad(`${name} must be a positive integer (got ${value})`);
}

function bad(message: string): never {
  throw new ReceiptcheckError('E_BAD_OPTION', message);
}
