/**
 * A concurrent run whose outcomes no serial order explains, as data: the longest order of
 * operations that does fit, and the operations that could not come next, each with its place in
 * the sequence and, after that prefix, what the model would have answered instead. Pure.
 */

import type { HistoryEntry } from '../model/history.ts';
import { type Observed, sameOutcome } from '../model/outcome.ts';
import { step } from '../model/step.ts';
import type { LinearizabilityFailure, PlacedOperation } from '../types/verdict.ts';
import type { IllegalResult, UnknownResult } from './linearizability/result.ts';

/** Builds the failure from the checker's verdict; `places[id]` says where entry `id` stood. */
export function linearizabilityFailure(
  result: IllegalResult | UnknownResult,
  history: readonly HistoryEntry[],
  places: readonly { readonly step: number; readonly lane: number }[],
): LinearizabilityFailure {
  if (result.verdict === 'unknown')
    return {
      kind: 'linearizability',
      verdict: 'unknown',
      longestPrefix: [],
      stuck: [],
      reason: result.reason,
    };
  const byId = new Map(history.map((e) => [e.id, e]));
  const place = (id: number, expected?: Observed): PlacedOperation => {
    const e = byId.get(id);
    const at = places[id];
    if (!e || !at) throw new RangeError(`the checker named entry ${id}, which the history lacks`);
    return {
      id,
      step: at.step,
      lane: at.lane,
      event: e.event,
      ...(e.observed ? { observed: e.observed } : {}),
      invokedAt: e.invokedAt,
      ...(e.completedAt !== undefined ? { completedAt: e.completedAt } : {}),
      ...(expected ? { expected } : {}),
    };
  };
  // The search's own state: stepping the prefix again would undo a declared in-flight answer.
  const state = result.stateAfterPrefix;
  const stuck = result.stuck.map((id) => {
    const e = byId.get(id);
    return place(id, e?.event.kind === 'call' ? step(state, e.event).outcome : undefined);
  });
  // Calls that contradict the model first: they are the ones a reader should look at.
  stuck.sort((a, b) => Number(fitsExpected(a)) - Number(fitsExpected(b)) || a.id - b.id);
  return {
    kind: 'linearizability',
    verdict: 'illegal',
    longestPrefix: result.longestPrefix.map((id) => place(id)),
    stuck,
  };
}

function fitsExpected(op: PlacedOperation): boolean {
  return (
    op.expected === undefined || op.observed === undefined || sameOutcome(op.expected, op.observed)
  );
}
