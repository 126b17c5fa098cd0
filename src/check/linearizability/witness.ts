/**
 * An independent check of a witness order, far simpler than the search: the checker's own
 * tests use it as an oracle, and a report can use it to show why an order explains a run.
 */
import type { History, HistoryEntry } from '../../model/history.ts';
import { describeOutcome, sameOutcome } from '../../model/outcome.ts';
import type { ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { inFlightAnswers } from './in-flight.ts';

/**
 * Why `order` is not a linearisation of `history` from `initial`, or undefined when it is: every
 * entry that must take effect appears once (calls with unknown completion and outcome may be
 * missing), no entry comes after one that was invoked after it completed, and stepping the model
 * in this order gives every observed outcome (or an allowed in-flight answer).
 */
export function witnessProblem(
  initial: ModelState,
  history: History,
  order: readonly number[],
): string | undefined {
  const byId = new Map(history.map((e) => [e.id, e]));
  const inFlight = inFlightAnswers(initial, history);
  const seen = new Set<number>();
  let state = initial;
  let latestInvoked = Number.NEGATIVE_INFINITY;
  let latestId = -1;
  // Real time holds iff no entry completed before the latest invocation placed so far.
  for (const id of order) {
    const entry = byId.get(id);
    if (!entry) return `order names entry ${id}, which the history lacks`;
    if (seen.has(id)) return `order names entry ${id} twice`;
    seen.add(id);
    if (entry.completedAt !== undefined && entry.completedAt < latestInvoked) {
      return `entry ${id} completed before entry ${latestId} was invoked, yet comes after it`;
    }
    if (entry.invokedAt > latestInvoked) {
      latestInvoked = entry.invokedAt;
      latestId = id;
    }
    const t = step(state, entry.event);
    const expected = entry.event.kind === 'call' ? entry.observed : undefined;
    if (expected && !(t.outcome && sameOutcome(t.outcome, expected))) {
      if (!inFlight.has(id)) {
        return `entry ${id} observed ${describeOutcome(expected)}, the model gives ${t.outcome ? describeOutcome(t.outcome) : 'nothing'}`;
      }
      continue; // an in-flight answer changes nothing
    }
    state = t.state;
  }
  const missing = history.find((e) => !seen.has(e.id) && !mayBeMissing(e));
  return missing ? `entry ${missing.id} must take effect but is not in the order` : undefined;
}

function mayBeMissing(entry: HistoryEntry): boolean {
  return (
    entry.event.kind === 'call' && entry.completedAt === undefined && entry.observed === undefined
  );
}
