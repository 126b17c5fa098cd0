/**
 * A finding as `--json` prints it: its signature ready to paste into a known-findings file
 * (`rule`, `shape`, `id`), its count, whether it is known (and its note), its case file and page, and its
 * counterexample as data with the rule broken in words. Pure.
 */
import type { Finding } from '../types/results.ts';
import { savedCounterexample } from './counterexample-case.ts';
import { explainFailure } from './explain-failure.ts';

/** One finding as a plain object; `file` and `timeline` are where its case file and page went. */
export function findingJson(f: Finding, file?: string, timeline?: string): object {
  const cx = f.counterexample;
  return {
    id: f.id,
    rule: f.rule,
    shape: f.shape,
    count: f.count,
    known: f.known,
    ...(f.note !== undefined ? { note: f.note } : {}),
    ...(file ? { file } : {}),
    ...(timeline ? { timeline } : {}),
    counterexample: {
      ...savedCounterexample(cx),
      explanations: cx.failures.map((x) => explainFailure(x, cx.spec)),
    },
  };
}
