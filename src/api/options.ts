/**
 * Options in two forms, resolved in one place: `CheckOptions` is what users pass (all optional,
 * defaults documented), `ResolvedOptions` is what the code uses. The CLI and the API both call
 * `resolveOptions`, so they share every default and every validation message.
 */

import { ReceiptcheckError } from '../errors.ts';
import { DATABASE_URL_ENV } from '../execute/postgres/database-url-env.ts';
import { isServicePath } from '../execute/service/service-path.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import {
  AUTO_MODES,
  LANE_MODES,
  MODE_CHOICES,
  type Mode,
  SERVICE_AUTO_MODES,
} from '../types/mode.ts';
import {
  type CheckOptions,
  DEFAULT_RUNS,
  DEFAULT_SEED,
  type OneModeOptions,
  type ResolvedOptions,
  SEED_ENV,
} from '../types/options.ts';
import { loadKnownFindings } from './load-known-findings.ts';

/** The longest sequence a check generates: past this, shrinking and the model's checks stop being quick. */
export const STEPS_MAX_LIMIT = 1_000;

/** The most seeds one all-findings check searches. */
export const SEEDS_MAX = 1_000;

/** Applies defaults and validates; throws `E_BAD_OPTION` with a message that says what to pass. */
export function resolveOptions(
  options: CheckOptions = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedOptions {
  const fromEnv = env[SEED_ENV];
  // An empty variable is a mistake (a CI template left blank), not seed 0.
  const seed =
    options.seed ?? (fromEnv !== undefined ? Number(fromEnv.trim() || Number.NaN) : DEFAULT_SEED);
  const resolved: ResolvedOptions = {
    handler: options.handler ?? 'reference',
    operation: options.operation,
    runs: options.runs ?? DEFAULT_RUNS,
    seed,
    timeLimitSeconds: options.timeLimitSeconds,
    minRuns: options.minRuns ?? 0,
    mode: options.mode ?? 'auto',
    modes: [],
    workers: options.workers ?? 4,
    lanes: options.lanes ?? 'auto',
    stepsMax: options.stepsMax ?? 20,
    shard: options.shard,
    callTimeoutMs: options.callTimeoutMs ?? 5_000,
    // An empty variable means none, as a CI template left blank should.
    databaseUrl: options.databaseUrl || env[DATABASE_URL_ENV] || undefined,
    fixture: options.fixture ?? DEFAULT_FIXTURE,
    excludeInputClasses: options.excludeInputClasses ?? [],
    // Known findings and several seeds only mean something when the search goes on.
    allFindings:
      options.allFindings ?? (options.knownFindings !== undefined || options.seeds !== undefined),
    knownFindings:
      typeof options.knownFindings === 'string'
        ? loadKnownFindings(options.knownFindings)
        : options.knownFindings,
    seeds: options.seeds ?? [seed],
    onProgress: options.onProgress,
  };
  positiveInteger('runs', resolved.runs);
  if (!Number.isSafeInteger(resolved.seed))
    bad(
      `seed must be an integer (got ${options.seed ?? (fromEnv?.trim() ? fromEnv : `an empty ${SEED_ENV}`)}); set it with --seed or ${SEED_ENV}`,
    );
  if (!Number.isSafeInteger(resolved.minRuns) || resolved.minRuns < 0)
    bad(`minRuns must be a whole number of runs (got ${resolved.minRuns})`);
  if (resolved.minRuns > resolved.runs)
    bad(`minRuns (${resolved.minRuns}) cannot exceed runs (${resolved.runs})`);
  if (resolved.timeLimitSeconds !== undefined && !(resolved.timeLimitSeconds > 0))
    bad(`time limit must be a positive number of seconds (got ${resolved.timeLimitSeconds})`);
  if (!MODE_CHOICES.includes(resolved.mode))
    bad(`mode must be one of ${MODE_CHOICES.join(', ')} (got ${resolved.mode})`);
  positiveInteger('workers', resolved.workers);
  if (!LANE_MODES.includes(resolved.lanes))
    bad(`lanes must be one of ${LANE_MODES.join(', ')} (got ${resolved.lanes})`);
  if (resolved.workers > 64) bad(`workers must be at most 64 (got ${resolved.workers})`);
  positiveInteger('stepsMax', resolved.stepsMax);
  if (resolved.stepsMax > STEPS_MAX_LIMIT)
    bad(
      `stepsMax must be at most ${STEPS_MAX_LIMIT} (got ${resolved.stepsMax}); for longer histories use receiptcheck soak`,
    );
  positiveInteger('callTimeoutMs', resolved.callTimeoutMs);
  if (resolved.seeds.length < 1 || resolved.seeds.length > SEEDS_MAX)
    bad(`seeds must list 1 to ${SEEDS_MAX} seeds (got ${resolved.seeds.length})`);
  const badSeed = resolved.seeds.find((s) => !Number.isSafeInteger(s));
  if (badSeed !== undefined) bad(`seeds must be integers (got ${badSeed})`);
  if (!resolved.allFindings && (options.seeds !== undefined || options.knownFindings !== undefined))
    bad('seeds and knownFindings go with allFindings: leave allFindings on');
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
  return {
    ...resolved,
    modes: resolved.mode === 'auto' ? autoModes(resolved.handler) : [resolved.mode],
  };
}

/**
 * What `auto` explores for `handler`: `AUTO_MODES`, but sequential then concurrent mode for a
 * described service, whose statements the scheduler cannot reach.
 */
function autoModes(handler: string): readonly Mode[] {
  return isServicePath(handler) ? SERVICE_AUTO_MODES : AUTO_MODES;
}

function positiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1)
    bad(`${name} must be a positive integer (got ${value})`);
}

function bad(message: string): never {
  throw new ReceiptcheckError('E_BAD_OPTION', message);
}

/** `o` narrowed to one of its modes. */
export function inMode(o: ResolvedOptions, mode: Mode): OneModeOptions {
  return { ...o, mode, modes: [mode] };
}
