/**
 * Explains a concurrent run that no serial order explains: which calls fit an order consistent
 * with real time, which call could not come next, what it got and what the contract gives at
 * that point. Pure; `explainFailure` and the step renderer use it.
 */

import type { OperationSpec } from '../model/operation.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import { describeOutcome, sameOutcome } from '../model/outcome.ts';
import type { LinearizabilityFailure, PlacedOperation } from '../types/verdict.ts';
import type { Explanation } from './explanation.ts';
import { ruleFor } from './rule-for.ts';

/** `step 2 lane 1`: where an operation stood in the sequence. */
export function placeOf(op: { readonly step: number; readonly lane: number }): string {
  return `step ${op.step + 1} lane ${op.lane + 1}`;
}

/** The stuck call to blame: the first whose outcome contradicts the model after the fitting order. */
export function blamedOperation(f: LinearizabilityFailure): PlacedOperation | undefined {
  return f.stuck.find(
    (op) =>
      op.expected !== undefined &&
      op.observed !== undefined &&
      !sameOutcome(op.expected, op.observed),
  );
}

/** The rule broken and the order that fitted, in words. */
export function explainLinearizability(
  f: LinearizabilityFailure,
  spec: OperationSpec = setInterval,
): Explanation {
  if (f.verdict === 'unknown')
    return {
      text: `the linearizability check stopped before a verdict (${f.reason ?? 'a limit was reached'}); raise the limit or shorten the sequence`,
    };
  const fitted =
    f.longestPrefix.length > 0
      ? `the longest order that fits is ${f.longestPrefix.map(placeOf).join(', then ')}`
      : 'not even the first operation fits';
  const blamed = blamedOperation(f);
  const base = `the concurrent calls' outcomes match no serial order consistent with real time; ${fitted}`;
  if (!blamed?.expected || !blamed.observed)
    return {
      text: `${base}; after it, none of ${f.stuck.map(placeOf).join(', ')} can come next`,
    };
  const rule = ruleFor(blamed.expected, spec);
  return {
    ...(rule.rule ? { rule: rule.rule } : {}),
    text: `${base}; after it, ${placeOf(blamed)} got ${describeOutcome(blamed.observed)} where the contract gives ${describeOutcome(blamed.expected)}: ${rule.text}`,
  };
}
