/**
 * The harness end to end in one mode: `checkHandler` exactly as users call it (generation,
 * execution, model, checks, fresh databases), timed from the call to its return.
 */

import { fileURLToPath } from 'node:url';
import { checkHandler } from '../api/check-handler.ts';
import { isInterruptedError, isReceiptcheckError, messageOf } from '../errors.ts';
import { siblingModuleUrl } from '../sibling-module-url.ts';
import type { LaneMode, Mode } from '../types/mode.ts';
import type { ResolvedBenchOptions } from './bench-options.ts';
import type { PathName, PathTotals } from './throughput-totals.ts';

/** One harness path of the throughput rounds: a mode, and for scheduled mode its lanes. */
export interface HarnessPath {
  readonly name: PathName;
  readonly mode: Mode;
  /** `checkHandler`'s `lanes`; absent for its default (`auto`). */
  readonly lanes?: LaneMode;
  /** A handler of its own instead of the bench's (the async reference's paths). */
  readonly handler?: string;
}

/**
 * The SQLite reference awaiting once before it answers: what an awaiting handler costs in the
 * harness, measured against the reference's raw loop (the await itself costs raw next to nothing).
 */
export const ASYNC_REFERENCE = fileURLToPath(
  siblingModuleUrl(
    '../handlers/operations/set-interval/sqlite/set-interval-async-reference.ts',
    import.meta.url,
  ),
);

/** Why the async reference's paths are not measured for another handler than the reference. */
export const ASYNC_ONLY_WITH_REFERENCE =
  'measured only beside the set-interval SQLite reference, whose raw loop it is compared with';

/** The harness modes measured against raw, in round order. */
export const MODES: readonly Mode[] = ['sequential', 'concurrent', 'scheduled'];

/**
 * Every harness path, in round order: each mode at its defaults, then scheduled mode forced onto
 * worker-thread lanes, the carrier of every handler that is not declared replayable (the
 * performance budget asks 0.15 × raw of it; the reference, replayable, runs inline at its default).
 */
export const HARNESS_PATHS: readonly HarnessPath[] = [
  ...MODES.map((mode) => ({ name: mode as PathName, mode })),
  { name: 'scheduledThreads', mode: 'scheduled', lanes: 'threads' },
  { name: 'asyncSequential', mode: 'sequential', handler: ASYNC_REFERENCE },
  { name: 'asyncScheduled', mode: 'scheduled', handler: ASYNC_REFERENCE },
];

/** One measured check, or why the mode could not run. */
export type HarnessMeasure =
  | {
      readonly available: true;
      readonly steps: number;
      readonly seconds: number;
      /** The process's CPU time over the check, worker threads included. */
      readonly cpuSeconds: number;
      /** Set when the handler failed: the check then stopped early and shrank. */
      readonly failedAtRun?: number;
    }
  | { readonly available: false; readonly reason: string };

/** What one measured check runs. */
export interface HarnessRun {
  readonly handler: string;
  readonly operation?: string | undefined;
  readonly mode: Mode;
  readonly lanes?: LaneMode | undefined;
  readonly seed: number;
  readonly runs: number;
  readonly stepsMax: number;
  readonly workers: number;
}

/**
 * Runs one check and times it. A mode whose runner has not landed answers `E_BAD_OPTION` from
 * `createRunner`; a mode that throws anything else is reported with the error, so one broken
 * mode never hides the other figures.
 */
export async function measureHarness(run: HarnessRun): Promise<HarnessMeasure> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    const result = await checkHandler({
      handler: run.handler,
      ...(run.operation !== undefined ? { operation: run.operation } : {}),
      mode: run.mode,
      ...(run.lanes !== undefined ? { lanes: run.lanes } : {}),
      seed: run.seed,
      runs: run.runs,
      stepsMax: run.stepsMax,
      workers: run.workers,
    });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      available: true,
      steps: result.steps,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      ...(result.counterexample ? { failedAtRun: result.counterexample.runsToFailure } : {}),
    };
  } catch (thrown) {
    // Ctrl-C is not a mode that could not run: it stops the whole bench.
    if (isInterruptedError(thrown)) throw thrown;
    return { available: false, reason: unavailableReason(thrown) };
  }
}

/** Why a check could not be measured: "not available yet", or the error it threw. */
export function unavailableReason(thrown: unknown): string {
  if (isReceiptcheckError(thrown))
    return thrown.code === 'E_BAD_OPTION' ? thrown.message : `${thrown.code}: ${thrown.message}`;
  return `error: ${messageOf(thrown)}`;
}

/**
 * One round of `path` at `seed` into `entry`; once a path turned out unavailable it is not tried
 * again. The same for every engine: `checkHandler` picks the runner from the plugin.
 */
export async function modePath(
  entry: PathTotals,
  path: HarnessPath,
  o: ResolvedBenchOptions,
  seed: number,
): Promise<void> {
  if (entry.unavailable) return;
  if (path.handler !== undefined && !benchesTheReference(o)) {
    entry.unavailable = ASYNC_ONLY_WITH_REFERENCE;
    return;
  }
  const measured = await measureHarness({
    handler: path.handler ?? o.handler,
    operation: o.operation,
    mode: path.mode,
    lanes: path.lanes,
    seed,
    runs: o.runsPerRound,
    stepsMax: o.stepsMax,
    workers: o.workers,
  });
  if (!measured.available) entry.unavailable = measured.reason;
  else entry.rounds.push(measured);
}

/** True when the bench runs the set-interval SQLite reference, the async reference's raw. */
function benchesTheReference(o: ResolvedBenchOptions): boolean {
  return o.handler === 'reference' && (o.operation ?? 'set-interval') === 'set-interval';
}
