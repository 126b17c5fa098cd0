/**
 * The main job as a function, and it reads as the pipeline: generate sequences (fast-check, with
 * the mode's case arbitrary), execute each in the chosen mode, check it (the judge behind the
 * runner), shrink the first failure, and report everything as data. The CLI's `run`,
 * `assertHandler`, bench and the test suite all go through here.
 */
import fc from 'fast-check';
import { isReceiptcheckError } from '../errors.ts';
import type { Step } from '../model/events.ts';
import { countCoverage, emptyCoverage } from '../report/coverage.ts';
import { countInputCoverage, emptyInputCoverage } from '../report/input-coverage.ts';
import type { CheckOptions } from '../types/options.ts';
import type { CheckResult } from '../types/results.ts';
import type { JudgedRun } from './judged-runner.ts';
import { resolveOptions } from './options.ts';
import { prepareRun } from './prepare-run.ts';

/** Runs the checker; resolves to the result as data. Throws a `ReceiptcheckError` on bad options or a bad plugin. */
export async function checkHandler(options: CheckOptions = {}): Promise<CheckResult> {
  const o = resolveOptions(options);
  const { plugin, fixture, runner, hang } = await prepareRun(o);
  let fatal: unknown;
  const started = performance.now();
  const coverage = emptyCoverage();
  const inputCoverage = emptyInputCoverage();
  const runsPlanned = o.shard ? Math.ceil(o.runs / o.shard.count) : o.runs;
  const seed = o.shard ? shardSeed(o.seed, o.shard.index) : o.seed;
  let runs = 0;
  let steps = 0;
  let firstFailureAt = 0;
  let lastFailed: { steps: readonly Step[]; run: JudgedRun } | undefined;
  try {
    const sequenceOptions = {
      stepsMax: o.stepsMax,
      races: true,
      recreate: typeof plugin.recreate === 'function',
      excludeInputClasses: o.excludeInputClasses,
    };
    const property = fc.asyncProperty(
      // A mode may draw more than the steps (scheduled mode: a schedule), shrunk with them.
      runner.caseArbitrary(sequenceOptions),
      async ({ steps: sequence, replay }) => {
        fatal ??= hang();
        if (fatal) return true;
        let run: JudgedRun;
        try {
          run = await runner.execute(sequence, replay);
        } catch (thrown) {
          if (isReceiptcheckError(thrown)) {
            fatal = thrown;
            return true;
          }
          throw thrown;
        }
        if (!firstFailureAt) {
          runs++;
          steps += countCoverage(sequence, coverage);
          countInputCoverage(sequence, fixture, inputCoverage);
          o.onProgress?.({
            runs,
            runsPlanned,
            steps,
            elapsedMs: performance.now() - started,
            coverage,
          });
        }
        if (run.verdict.verdict === 'failed') {
          firstFailureAt ||= runs;
          lastFailed = { steps: sequence, run };
          return false;
        }
        return true;
      },
    );
    const details = await fc.check(property, {
      numRuns: runsPlanned,
      seed,
      ...(o.timeLimitSeconds
        ? { interruptAfterTimeLimit: o.timeLimitSeconds * 1000, markInterruptAsFailure: false }
        : {}),
    });
    fatal ??= hang();
    if (fatal) throw fatal;
    if (details.failed && details.errorInstance && !lastFailed) throw details.errorInstance;
    const base = {
      handler: o.handler,
      handlerName: plugin.name,
      mode: o.mode,
      seed,
      shard: o.shard,
      runs,
      runsPlanned,
      steps,
      coverage,
      inputCoverage,
      elapsedMs: performance.now() - started,
      timedOut: details.interrupted,
    };
    if (!details.failed || !details.counterexample) return { verdict: 'passed', ...base };
    const [{ steps: shrunk, replay }] = details.counterexample;
    // The shrunk case is re-run once so the report shows its own failures, not a larger one's.
    const final = await runner.execute(shrunk, replay);
    const failed = final.verdict.verdict === 'failed' ? final : (lastFailed?.run ?? final);
    const failures = failed.verdict.verdict === 'failed' ? failed.verdict.failures : [];
    return {
      verdict: 'failed',
      ...base,
      counterexample: {
        handler: o.handler,
        handlerName: plugin.name,
        mode: o.mode,
        seed,
        path: details.counterexamplePath ?? '',
        fixture,
        steps: failed === final ? shrunk : (lastFailed?.steps ?? shrunk),
        failures,
        runsToFailure: firstFailureAt,
        shrinks: details.numShrinks,
        ...(failed.detail !== undefined ? { detail: failed.detail } : {}),
      },
    };
  } finally {
    await runner.close();
  }
}

/** A shard's seed: distinct per shard, the same on every machine. */
export function shardSeed(seed: number, index: number): number {
  return (seed * 31 + index * 1_000_003) | 0;
}
