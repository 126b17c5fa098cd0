/**
 * Which calls may carry an in-flight answer, one given at once, with no effect, to a call that
 * arrived while another call under the same receipt key was still running:
 * - `refused: conflict`, under policy `inFlightDuplicate: 'conflict'` (Stripe, the IETF
 *   Idempotency-Key draft: the duplicate is told the first call is in progress);
 * - `keyReuse`, where the other call has another payload, under a policy that lets a call meet
 *   another's claim (`declaresVisibleClaims`): a library that compares the payload with the
 *   claim before it looks at the claim's status says so, and the contract allows it whether the
 *   claim's owner then stores an answer, fails, or has crashed.
 * The model's `step` cannot know either (it is serial); real time can, so the checker decides it
 * from the history.
 *
 * "Still running" is read generously as "the two intervals overlap" (an unknown completion
 * never closes), since the server-side moments are not recorded: this may accept an in-flight
 * answer that a finer clock would reject, never the reverse.
 */
import type { CallEvent } from '../../model/events.ts';
import type { History, HistoryEntry } from '../../model/history.ts';
import type { Args, Payload } from '../../model/operation.ts';
import { declaresVisibleClaims } from '../../model/policy.ts';
import type { ModelState } from '../../model/state.ts';
import { receiptKey } from '../../model/state.ts';
import { samePayload } from '../../model/step.ts';
import { invalidField } from '../../model/validate.ts';

/** A keyed entry: the call and its interval's end. */
interface Keyed {
  readonly entry: HistoryEntry;
  readonly end: number;
}

/**
 * Ids of the entries that may carry an in-flight answer (see the file comment): observed as
 * `refused: conflict` and overlapping a call under the same key, or observed as `keyReuse` and
 * overlapping a call under the same key with another payload. Empty unless the policy declares
 * visible claims (`declaresVisibleClaims`).
 */
export function inFlightAnswers(initial: ModelState, history: History): Set<number> {
  const eligible = new Set<number>();
  // Without visible claims (which `inFlightDuplicate: 'conflict'` implies) no answer is in flight.
  if (!declaresVisibleClaims(initial.policy)) return eligible;
  const conflicts = initial.policy.inFlightDuplicate === 'conflict';
  const byKey = new Map<string, Keyed[]>();
  for (const entry of history) {
    const keyed = keyOf(initial, entry);
    if (keyed === undefined) continue;
    const group = byKey.get(keyed.key);
    if (group) group.push(keyed);
    else byKey.set(keyed.key, [keyed]);
  }
  for (const group of byKey.values()) {
    group.sort((a, b) => a.entry.invokedAt - b.entry.invokedAt || a.entry.id - b.entry.id);
    let reach = Number.NEGATIVE_INFINITY; // latest completion among calls invoked earlier
    group.forEach(({ entry, end }, i) => {
      const later = group[i + 1];
      const seen = entry.observed;
      if (conflicts && seen?.kind === 'refused' && seen.reason === 'conflict') {
        const overlaps =
          reach >= entry.invokedAt || (later !== undefined && later.entry.invokedAt <= end);
        if (overlaps) eligible.add(entry.id);
      }
      if (seen?.kind === 'keyReuse' && meetsOtherPayload(initial, group, i)) eligible.add(entry.id);
      if (end > reach) reach = end;
    });
  }
  return eligible;
}

/**
 * Whether the call at `i` of `group` (sorted by invocation) overlaps a call with another payload.
 * Only `keyReuse` answers ask, so the scan, quadratic in a key's calls at worst, and the payloads
 * it reads stay rare.
 */
function meetsOtherPayload(initial: ModelState, group: readonly Keyed[], i: number): boolean {
  const { entry, end } = group[i] as Keyed;
  const payload = payloadOf(initial, entry);
  for (let j = 0; j < group.length; j++) {
    const other = group[j] as Keyed;
    if (j === i) continue;
    if (j > i && other.entry.invokedAt > end) break; // invoked after this call completed
    if (j < i && other.end < entry.invokedAt) continue; // completed before this call began
    if (!samePayload(payloadOf(initial, other.entry), payload)) return true;
  }
  return false;
}

/** The receipt key a well-formed, delivered call runs under; else undefined. */
function keyOf(
  initial: ModelState,
  entry: HistoryEntry,
): (Keyed & { readonly key: string }) | undefined {
  const event = entry.event;
  if (event.kind !== 'call' || event.delivery === 'lostRequest') return undefined;
  const call: CallEvent = event;
  const principal = initial.principals[call.client];
  if (!principal || invalidField(call.request, initial.operation)) return undefined;
  const tool = initial.operation.tool;
  return {
    key: receiptKey(principal.workspace, principal.user, tool, call.request.requestId as string),
    entry,
    end: entry.completedAt ?? Number.POSITIVE_INFINITY,
  };
}

/** The canonical payload of a keyed (so well-formed) call. */
function payloadOf(initial: ModelState, entry: HistoryEntry): Payload {
  const call = entry.event as CallEvent;
  return initial.operation.payload(call.request as unknown as Args);
}
