/**
 * Options in two forms, resolved in one place: `CheckOptions` is what users pass (all optional,
 * defaults documented), `ResolvedOptions` is what the code uses. The CLI and the API both call
 * `resolveOptions`, so they share every default and every validation message.
 */
import { ReceiptcheckError } from '../errors.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { INPUT_CLASSES } from '../types/input-coverage.ts';
import { LANE_MODES, MODES } from '../types/mode.ts';
import {
  type CheckOptions,
  DEFAULT_SEED,
  type ResolvedOptions,
  SEED_ENV,
} from '../types/options.ts';

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
    excludeInputClasses: options.excludeInputClasses ?? [],
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
  const unknown = resolved.excludeInputClasses.filter((c) => !INPUT_CLASSES.includes(c));
  if (unknown.length > 0)
    bad(
      `excludeInputClasses names no input class: ${unknown.map((c) => JSON.stringify(c)).join(', ')} (see inputCoverage in a result for the names)`,
    );
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
