/**
 * Time to kill: how soon a default check finds a catalogued mutant's bug. For each seed, one
 * `checkHandler` at default settings in the mode the catalogue names; the first failing run is
 * timed through `onProgress` (the loop reports every run up to and including the first failure,
 * and none after it, while it shrinks).
 */

import { checkHandler } from '../api/check-handler.ts';
import type { KillTarget } from '../api/mutant-kills.ts';
import { isInterruptedError } from '../errors.ts';
import type { KillAttempt, KillFigure } from './bench-report.ts';
import { unavailableReason } from './harness-throughput.ts';
import { median } from './median.ts';

/**
 * Runs seeds 1..`seeds` against `target`. A mode that is not available yet, or that throws, is
 * reported with its reason instead of thrown, so the other mutants are still measured.
 */
export async function timeToKill(
  target: Pick<KillTarget, 'name' | 'mode'>,
  seeds: number,
  workers: number,
  operation?: string,
): Promise<KillFigure> {
  const attempts: KillAttempt[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const attempt = await attemptKill(target, seed, workers, operation);
    if (typeof attempt === 'string') return unavailable(target, seeds, attempt);
    attempts.push(attempt);
  }
  const survivedAs = Number.POSITIVE_INFINITY;
  const kills = attempts.filter((a) => a.killed);
  const med = (pick: (a: KillAttempt) => number) => {
    const m = median(attempts.map((a) => (a.killed ? pick(a) : survivedAs)));
    return Number.isFinite(m) ? m : null;
  };
  return {
    mutant: target.name,
    mode: target.mode,
    available: true,
    seeds,
    killed: kills.length,
    runsMedian: med((a) => a.runs),
    secondsMedian: med((a) => a.secondsToFailure),
    shrunkStepsMedian: med((a) => a.shrunkSteps ?? 0),
    attempts,
  };
}

async function attemptKill(
  target: Pick<KillTarget, 'name' | 'mode'>,
  seed: number,
  workers: number,
  operation: string | undefined,
): Promise<KillAttempt | string> {
  const started = performance.now();
  let lastRunAt = started;
  try {
    const result = await checkHandler({
      handler: target.name,
      ...(operation !== undefined ? { operation } : {}),
      mode: target.mode,
      seed,
      workers,
      onProgress: () => {
        lastRunAt = performance.now();
      },
    });
    const secondsTotal = (performance.now() - started) / 1000;
    const cx = result.counterexample;
    if (!cx) {
      return {
        seed,
        killed: false,
        runs: result.runs,
        secondsToFailure: secondsTotal,
        secondsTotal,
      };
    }
    return {
      seed,
      killed: true,
      runs: cx.runsToFailure,
      secondsToFailure: (lastRunAt - started) / 1000,
      secondsTotal,
      shrunkSteps: cx.steps.length,
    };
  } catch (thrown) {
    if (isInterruptedError(thrown)) throw thrown;
    return unavailableReason(thrown);
  }
}

function unavailable(
  target: Pick<KillTarget, 'name' | 'mode'>,
  seeds: number,
  reason: string,
): KillFigure {
  return {
    mutant: target.name,
    mode: target.mode,
    available: false,
    reason,
    seeds,
    killed: 0,
    runsMedian: null,
    secondsMedian: null,
    shrunkStepsMedian: null,
    attempts: [],
  };
}
