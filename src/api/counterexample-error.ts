/**
 * The error `assertHandler` throws on a counterexample, apart from the check itself so that
 * importing the package (as every plugin does, in every worker thread) does not load the harness.
 */
import { formatCounterexample } from '../report/format-counterexample.ts';
import { timelineLine } from '../report/reproduce.ts';
import type { CheckResult, Counterexample } from '../types/results.ts';

/** Thrown by `assertHandler` when a counterexample is found; carries the whole result as data. */
export class CounterexampleError extends Error {
  readonly result: CheckResult;
  readonly counterexample: Counterexample;
  /** The case file written for it, when one was. */
  readonly savedPath: string | undefined;
  /** Its HTML timeline, written beside the case file, when one was. */
  readonly timelinePath: string | undefined;

  constructor(
    result: CheckResult,
    counterexample: Counterexample,
    savedPath?: string,
    timelinePath?: string,
  ) {
    super(
      `receiptcheck found a counterexample for handler ${counterexample.handlerName}\n\n${formatCounterexample(
        counterexample,
        {
          commands: false,
          hints: [
            `to reproduce: pass { seed: ${counterexample.seed} } (or set RECEIPTCHECK_SEED=${counterexample.seed})`,
            ...(savedPath
              ? [`saved as ${savedPath}: npx receiptcheck replay ${savedPath} re-runs it`]
              : []),
            ...(timelinePath ? [timelineLine(timelinePath)] : []),
          ],
        },
      )}`,
    );
    this.name = 'CounterexampleError';
    this.result = result;
    this.counterexample = counterexample;
    this.savedPath = savedPath;
    this.timelinePath = timelinePath;
  }
}
