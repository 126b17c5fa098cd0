/**
 * Turns a counterexample into a case file (`case-file.ts`), the same format as a named scenario:
 * copied into `scenarios/`, it becomes a regression test; `receiptcheck replay` re-runs it. Pure;
 * `api/counterexample-store.ts` writes it.
 */

import type { CaseFile } from '../types/case-file.ts';
import type { Counterexample } from '../types/results.ts';
import { explainFailure } from './explain-failure.ts';

/** The case file for a counterexample; the handler stays as the user gave it (a name or a path). */
export function counterexampleToCase(cx: Counterexample): CaseFile {
  const first = cx.failures[0];
  const why = first ? explainFailure(first) : undefined;
  return {
    name: `${cx.handlerName}: counterexample (seed ${cx.seed})`,
    description: why
      ? `${why.rule ? `breaks rule ${why.rule}: ` : ''}${why.text}`
      : 'a shrunk failing sequence',
    handler: cx.handler,
    mode: cx.mode,
    fixture: cx.fixture,
    steps: cx.steps,
    expectations: [],
    extra: {
      seed: cx.seed,
      path: cx.path,
      runsToFailure: cx.runsToFailure,
      shrinks: cx.shrinks,
      ...(cx.shrinkCut ? { shrinkCut: cx.shrinkCut } : {}),
      failures: cx.failures,
      ...(cx.detail !== undefined ? { detail: cx.detail } : {}),
    },
  };
}

/** A stable file name: the same handler, mode and seed give the same name. */
export function counterexampleFileName(cx: Counterexample): string {
  const safe = cx.handlerName.replace(/[^A-Za-z0-9_-]+/g, '-');
  return `${safe}-${cx.mode}-seed${cx.seed}.json`;
}
