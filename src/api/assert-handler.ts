/**
 * `checkHandler` for test runners: resolves when the handler held the contract, throws a
 * `CounterexampleError` whose message is the rendered counterexample (numbered steps, expected vs
 * actual, the rule broken, the seed) when it did not. Same options and defaults as the CLI.
 */

import { formatCounterexample } from '../report/format-counterexample.ts';
import type { CheckOptions } from '../types/options.ts';
import type { CheckResult, Counterexample } from '../types/results.ts';
import { checkHandler } from './check-handler.ts';

/** Thrown by `assertHandler` when a counterexample is found; carries the whole result as data. */
export class CounterexampleError extends Error {
  readonly result: CheckResult;
  readonly counterexample: Counterexample;

  constructor(result: CheckResult, counterexample: Counterexample) {
    super(
      `receiptcheck found a counterexample for handler ${counterexample.handlerName}\n\n${formatCounterexample(
        counterexample,
        {
          commands: false,
          hints: [
            `to reproduce: pass { seed: ${counterexample.seed} } (or set RECEIPTCHECK_SEED=${counterexample.seed})`,
          ],
        },
      )}`,
    );
    this.name = 'CounterexampleError';
    this.result = result;
    this.counterexample = counterexample;
  }
}

/**
 * Runs the checker and throws `CounterexampleError` on a counterexample; resolves to the passing
 * result otherwise. Bad options and unfit plugins throw `ReceiptcheckError` as `checkHandler` does.
 */
export async function assertHandler(options: CheckOptions = {}): Promise<CheckResult> {
  const result = await checkHandler(options);
  if (result.verdict === 'failed' && result.counterexample)
    throw new CounterexampleError(result, result.counterexample);
  return result;
}
