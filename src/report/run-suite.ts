/**
 * The JUnit suite of one `receiptcheck run`: a single testcase named after the handler, failing
 * with the rendered counterexample, its HTML timeline attached when one was written. Pure;
 * `format-junit.ts` writes the XML.
 */

import type { CheckResult } from '../types/results.ts';
import { explainFailure } from './explain-failure.ts';
import { formatCounterexample } from './format-counterexample.ts';
import type { JunitSuite } from './format-junit.ts';
import { formatSummary, type SummaryContext } from './format-summary.ts';
import type { RenderContext } from './readable-case.ts';

/** The suite for `r`: the run's settings as properties, the counterexample as the failure text. */
export function runSuite(
  r: CheckResult,
  context: SummaryContext & RenderContext & { readonly timelinePath?: string } = {},
): JunitSuite {
  const cx = r.counterexample;
  const first = cx?.failures[0];
  const why = first && cx ? explainFailure(first, cx.spec) : undefined;
  return {
    name: 'receiptcheck',
    properties: {
      handler: r.handler,
      mode: r.modes.join('+'),
      seed: context.baseSeed ?? r.seed,
      runs: r.runs,
      steps: r.steps,
      ...(r.shard ? { shard: `${r.shard.index}/${r.shard.count}` } : {}),
      timedOut: String(r.timedOut),
    },
    cases: [
      {
        name: `${r.handlerName} holds the retry-receipt contract (${r.modes.join(' + ')})`,
        classname: `receiptcheck.run.${r.handlerName}`,
        timeMs: r.elapsedMs,
        ...(cx
          ? {
              failure: {
                message: `counterexample of ${cx.steps.length} step(s): ${why?.rule ? `rule ${why.rule}: ` : ''}${why?.text ?? 'see text'}`,
                text: `${formatCounterexample(cx, context)}\n\n${formatSummary(r, context)}`,
              },
              ...(context.timelinePath
                ? { attachments: [{ name: 'timeline', path: context.timelinePath }] }
                : {}),
            }
          : {}),
      },
    ],
  };
}
