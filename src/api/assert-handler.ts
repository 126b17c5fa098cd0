/**
 * `checkHandler` for test runners: resolves when the handler held the contract, throws a
 * `CounterexampleError` whose message is the rendered counterexample (numbered steps, expected vs
 * actual, the rule broken, the seed) when it did not, after saving the case file and its HTML
 * timeline. Same options and defaults as the CLI.
 */

import type { CheckOptions } from '../types/options.ts';
import type { CheckResult } from '../types/results.ts';
import { checkHandler } from './check-handler.ts';
import { CounterexampleError } from './counterexample-error.ts';
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

/** The public `assertHandler`, which `on-first-call.ts` documents and loads this for. */
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
