/**
 * The one JSON object `receiptcheck run --json` prints: verdict, counts, coverage (of events and
 * of input classes), seed and, on failure, the counterexample as data plus its rendering, with the
 * case file and HTML timeline written for it. Pure;
 * print it with `encodeJson` so NaN and friends in a counterexample survive.
 */

import type { ReproductionSearch } from '../types/replay.ts';
import type { CheckResult } from '../types/results.ts';
import { savedCounterexample } from './counterexample-case.ts';
import { explainFailure } from './explain-failure.ts';
import { formatCounterexample } from './format-counterexample.ts';
import { triageOf } from './triage.ts';

/** What `--json` adds to the result. */
export interface JsonReportContext {
  readonly baseSeed?: number;
  /** The counterexample file written, if any. */
  readonly savedPath?: string;
  /** The counterexample's HTML timeline written, if any. */
  readonly timelinePath?: string;
  /** For a concurrent counterexample: what the search for its scheduled reproduction found. */
  readonly reproduction?: ReproductionSearch;
}

/** The run's report as one plain object. */
export function toJsonReport(r: CheckResult, context: JsonReportContext = {}): object {
  const cx = r.counterexample;
  return {
    verdict: r.verdict,
    handler: r.handler,
    handlerName: r.handlerName,
    mode: r.mode,
    modes: r.modes,
    seed: context.baseSeed ?? r.seed,
    ...(r.shard ? { shard: r.shard, shardSeed: r.seed } : {}),
    runs: r.runs,
    runsPlanned: r.runsPlanned,
    steps: r.steps,
    elapsedMs: Math.round(r.elapsedMs),
    timedOut: r.timedOut,
    coverage: r.coverage,
    inputCoverage: r.inputCoverage,
    ...(r.operationCoverage ? { operationCoverage: r.operationCoverage } : {}),
    ...(r.split ? { split: r.split } : {}),
    ...(cx
      ? {
          counterexample: {
            ...savedCounterexample(cx),
            explanations: cx.failures.map((f) => explainFailure(f, cx.spec)),
            triage: triageOf(cx),
            ...(context.savedPath ? { file: context.savedPath } : {}),
            ...(context.timelinePath ? { timeline: context.timelinePath } : {}),
            ...(context.reproduction ? { scheduledReproduction: context.reproduction } : {}),
            text: formatCounterexample(
              cx,
              context.savedPath ? { savedPath: context.savedPath } : {},
            ),
          },
        }
      : {}),
  };
}
