/**
 * Which calls may carry the in-flight answer of policy `inFlightDuplicate: 'conflict'` (Stripe,
 * the IETF Idempotency-Key draft): `refused: conflict`, with no effect, for a call that arrived
 * while another call under the same receipt key was still running. The model's `step` cannot
 * know that (it is serial); real time can, so the checker decides it from the history.
 *
 * "Still running" is read generously as "the two intervals overlap" (an unknown completion
 * never closes), since the server-side moments are not recorded: this may accept an in-flight
 * conflict that a finer clock would reject, never the reverse.
 */
import type { CallEvent } from '../../model/events.ts';
import type { History, HistoryEntry } from '../../model/history.ts';
import type { ModelState } from '../../model/state.ts';
import { receiptKey } from '../../model/state.ts';
import { invalidField } from '../../model/validate.ts';

/** Ids of the entries observed as `refused: conflict` that overlap a call under the same key. */
export function inFlightConflicts(initial: ModelState, history: History): Set<number> {
  const eligible = new Set<number>();
  if (initial.policy.inFlightDuplicate !== 'conflict') return eligible;
  const byKey = new Map<string, HistoryEntry[]>();
  for (const entry of history) {
    const key = keyOf(initial, entry.event);
    if (key === undefined) continue;
    const group = byKey.get(key);
    if (group) group.push(entry);
    else byKey.set(key, [entry]);
  }
  for (const group of byKey.values()) {
    group.sort((a, b) => a.invokedAt - b.invokedAt || a.id - b.id);
    let reach = Number.NEGATIVE_INFINITY; // latest completion among calls invoked earlier
    group.forEach((entry, i) => {
      const end = entry.completedAt ?? Number.POSITIVE_INFINITY;
      const later = group[i + 1];
      const overlaps = reach >= entry.invokedAt || (later !== undefined && later.invokedAt <= end);
      const seen = entry.observed;
      if (overlaps && seen?.kind === 'refused' && seen.reason === 'conflict')
        eligible.add(entry.id);
      if (end > reach) reach = end;
    });
  }
  return eligible;
}

/** The receipt key a well-formed, delivered call runs under; undefined for anything else. */
function keyOf(initial: ModelState, event: HistoryEntry['event']): string | undefined {
  if (event.kind !== 'call' || event.delivery === 'lostRequest') return undefined;
  const call: CallEvent = event;
  const principal = initial.principals[call.client];
  if (!principal || invalidField(call.request, initial.operation)) return undefined;
  const tool = initial.operation.tool;
  return receiptKey(principal.workspace, principal.user, tool, call.request.requestId as string);
}
