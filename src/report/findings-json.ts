/**
 * A finding as `--json` prints it: its signature ready to paste into a known-findings file
 * (`rule`, `shape`, `id`), its count, whether it is known (and its note), its case file, and its
 * counterexample as data with the rule broken in words. Pure.
 */
import { operationOf } from '../model/state.ts';
import type { Finding } from '../types/results.ts';
import { explainFailure } from './explain-failure.ts';

/** One finding as a plain object; `file` is where its case file was written. */
export function findingJson(f: Finding, file?: string): object {
  const cx = f.counterexample;
  return {
    id: f.id,
    rule: f.rule,
    shape: f.shape,
    count: f.count,
    known: f.known,
    ...(f.note !== undefined ? { note: f.note } : {}),
    ...(file ? { file } : {}),
    counterexample: {
      ...cx,
      explanations: cx.failures.map((x) => explainFailure(x, operationOf(cx.fixture))),
    },
  };
}
