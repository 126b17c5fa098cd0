/**
 * Reading the candidates of the search's current level off the event list: the call nodes
 * before the first return node. Kept apart from the search loop, which is long enough.
 */
import type { Event } from '../../model/events.ts';
import type { HistoryEntry } from '../../model/history.ts';
import type { ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import type { Budget } from './budget.ts';
import { fits } from './entry-rules.ts';
import { type EventList, HEAD, isCallNode, NIL, rankOf } from './event-list.ts';

/**
 * The first inert candidate (see `entry-rules.ts`) that fits the current state, or NIL. Throws
 * if the model wrote state for an outcome classified as never writing: the classification
 * would then be unsound, and that is a bug to fix, not a verdict.
 */
export function findInert(
  list: EventList,
  inert: Uint8Array,
  mayFly: Uint8Array,
  state: ModelState,
  budget: Budget,
): number {
  for (
    let node = list.next[HEAD] as number;
    node !== NIL && isCallNode(node);
    node = list.next[node] as number
  ) {
    const rank = rankOf(node);
    if (!inert[rank]) continue;
    budget.steps++;
    const t = step(state, list.events[rank] as Event);
    if (fits(list.expected[rank], t)) {
      if (t.state !== state) {
        const id = (list.required[rank] as HistoryEntry).id;
        throw new Error(
          `the model wrote state for entry ${id}, whose outcome neverWrites() says never writes: update entry-rules.ts`,
        );
      }
      return node;
    }
    if (mayFly[rank]) return node;
  }
  return NIL;
}

/** Ids of the required entries that could come next in the current list. */
export function candidates(list: EventList, required: readonly HistoryEntry[]): number[] {
  const ids: number[] = [];
  for (
    let node = list.next[HEAD] as number;
    node !== NIL && isCallNode(node);
    node = list.next[node] as number
  ) {
    ids.push((required[rankOf(node)] as HistoryEntry).id);
  }
  return ids;
}
