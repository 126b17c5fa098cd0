/**
 * The linearizability checker's entry point: is there one serial order of a concurrent history,
 * consistent with real time, in which the reference model gives exactly the observed outcomes?
 */
import type { Event } from '../../model/events.ts';
import type { History, HistoryEntry } from '../../model/history.ts';
import type { ModelState } from '../../model/state.ts';
import { startBudget } from './budget.ts';
import { inFlightAnswers } from './in-flight.ts';
import { mergeOrders, type PartOrder } from './merge-orders.ts';
import { mergeStates } from './merge-states.ts';
import { type LinearizabilityOptions, resolveLinearizabilityOptions } from './options.ts';
import { partitionHistory } from './partition.ts';
import type { LinearizabilityResult } from './result.ts';
import { searchPart } from './search.ts';

/**
 * Checks `history` against the model from `initial`.
 *
 * - `ok`: `order` is a witness over all parts (calls that may have been lost and were not needed
 *   are left out) and `finalState` is the model after stepping through it;
 * - `illegal`: the first part, smallest first, with no linearisation, its longest fitting prefix
 *   and the entries stuck after it;
 * - `unknown`: a limit from `options` was reached first.
 *
 * Throws a RangeError for malformed input (duplicate ids, times that are not numbers, an entry
 * completing before it was invoked, an option out of range): those are harness bugs, not findings.
 */
export function checkHistory(
  initial: ModelState,
  history: History,
  options?: LinearizabilityOptions,
): LinearizabilityResult {
  const resolved = resolveLinearizabilityOptions(options);
  validateHistory(history);
  const parts =
    resolved.partition && resolved.acceptFinal === undefined
      ? partitionHistory(initial, history)
      : [[...history]];
  // Small parts first: an illegal one is found before a large one can use up the time.
  parts.sort((a, b) => a.length - b.length);
  const inFlight = inFlightAnswers(initial, history);
  const budget = startBudget(resolved);
  const orders: PartOrder[] = [];
  const finals: ModelState[] = [];
  for (const part of parts) {
    let result = searchPart(initial, part, budget, inFlight, resolved.horizonFrames);
    // Backtracking went past the states kept: the same part, every state kept, same budget.
    if (result.verdict === 'beyondHorizon') result = searchPart(initial, part, budget, inFlight);
    if (result.verdict === 'beyondHorizon')
      throw new Error('a search with no horizon went past it');
    if (result.verdict === 'unknown') return result;
    if (result.verdict === 'illegal') {
      const ids = part.map((e) => e.id).sort((a, b) => a - b);
      return {
        verdict: 'illegal',
        longestPrefix: result.longestPrefix,
        stuck: result.stuck,
        stateAfterPrefix: result.stateAfterPrefix,
        partition: ids,
      };
    }
    orders.push(result);
    finals.push(result.finalState);
  }
  if (orders.length <= 1)
    return { verdict: 'ok', order: orders[0]?.order ?? [], finalState: finals[0] ?? initial };
  const order = mergeOrders(orders);
  const events = () => {
    const byId = new Map(history.map((entry) => [entry.id, entry.event]));
    return order.map((id) => byId.get(id) as Event);
  };
  return { verdict: 'ok', order, finalState: mergeStates(initial, finals, events) };
}

/**
 * Rejects malformed input. Ids are by convention indices, so they are told apart in a bitmap
 * when they are small integers (a million-entry history then costs no Map); any others in a Set.
 */
function validateHistory(history: History): void {
  const seen = new Uint8Array(history.length);
  const others = new Set<number>();
  // By index: a `for…of` over a million entries, run once and so never optimised, allocates an
  // iterator result per entry.
  for (let i = 0; i < history.length; i++) {
    const entry = history[i] as HistoryEntry;
    const id = entry.id;
    const small = Number.isInteger(id) && id >= 0 && id < seen.length;
    if (small ? seen[id] === 1 : others.has(id))
      throw new RangeError(`Expected unique history ids, got ${entry.id} twice`);
    if (small) seen[id] = 1;
    else others.add(id);
    if (!Number.isFinite(entry.invokedAt)) {
      throw new RangeError(
        `Expected entry ${entry.id} to have a finite "invokedAt", got ${String(entry.invokedAt)}`,
      );
    }
    const done = entry.completedAt;
    if (done !== undefined && !(done >= entry.invokedAt)) {
      throw new RangeError(
        `Expected entry ${entry.id} to complete no earlier than it was invoked, got ${entry.invokedAt}..${String(done)}`,
      );
    }
  }
}
