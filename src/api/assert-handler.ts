/**
 * `checkHandler` for test runners: resolves when the handler held the contract, throws a
 * `CounterexampleError` whose message is the rendered counterexample (numbered steps, expected vs
 * actual, the rule broken, the seed) when it did not, after saving the case file and its HTML
 * timeline. Same options and defaults as the CLI.
 */

import { formatCounterexample } from '../report/format-counterexample.ts';
import { timelineLine } from '../report/reproduce.ts';
import type { CheckOptions } from '../types/options.ts';
import type { CheckResult, Counterexample } from '../types/results.ts';
import { checkHandler } from './check-handler.ts';
import { DEFAULT_OUT_DIR, saveCounterexample } from './counterexample-store.ts';
import { renderTimeline, timelinePathFor, writePage } from './timeline-page.ts';

/** What `assertHandler` takes: the check's options, and where a counterexample is saved. */
export interface AssertOptions extends CheckOptions {
  /**
   * The folder the counterexample's case file is written to (`receiptcheck replay FILE` re-runs
   * it), with its HTML timeline beside it, relative to the working directory; `false` writes
   * nothing. Default `counterexamples`.
   */
  out?: string | false;
}

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

/**
 * Runs the checker and throws `CounterexampleError` on a counterexample; resolves to the passing
 * result otherwise. Bad options and unfit plugins throw `ReceiptcheckError` as `checkHandler` does.
 */
export async function assertHandler(options: AssertOptions = {}): Promise<CheckResult> {
  const { out = DEFAULT_OUT_DIR, ...check } = options;
  const result = await checkHandler(check);
  const cx = result.counterexample;
  if (result.verdict === 'failed' && cx) {
    const saved = out === false ? undefined : await saveCounterexample(cx, out);
    const page = saved ? timelinePathFor(saved.path) : undefined;
    if (saved && page) writePage(page, renderTimeline(cx, { savedPath: saved.path }));
    throw new CounterexampleError(result, cx, saved?.path, page);
  }
  return result;
}
