/**
 * Whether the model says a concurrent group's members conflict: whether the order they take can
 * change what one of them answers or what they write. Two calls conflict when one answers
 * otherwise after the other than alone (a replay instead of a fresh answer, a refusal because
 * the other's effect crossed the precondition's edge, a key reuse), or when both, alone, write
 * the same target row. A world event conflicts with a call whose answer it changes. Groups
 * without a conflict race over nothing the contract can tell apart; the generators prefer groups
 * with one (`conflict-values.ts`), and the summary counts them. Pure.
 */
import type { CallEvent, Event } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import type { ModelState } from '../model/state.ts';
import { step, type Transition } from '../model/step.ts';

/** Whether some pair of `events`, all starting from `state`, conflicts. */
export function groupConflicts(state: ModelState, events: readonly Event[]): boolean {
  // Each event's step alone, taken once for every pair it is in (a group is stepped for every
  // race generation draws and retries).
  const alone = events.map((e) => step(state, e));
  for (let i = 0; i < events.length; i++)
    for (let j = i + 1; j < events.length; j++)
      if (pairConflicts(state, events, alone, i, j)) return true;
  return false;
}

/** Whether events `i` and `j`, from `state` (`alone`: each one's step from it), conflict. */
function pairConflicts(
  state: ModelState,
  events: readonly Event[],
  alone: readonly Transition[],
  i: number,
  j: number,
): boolean {
  const a = events[i] as Event;
  const b = events[j] as Event;
  if (a.kind !== 'call' && b.kind !== 'call') return false;
  const afterA = alone[i] as Transition;
  const afterB = alone[j] as Transition;
  if (a.kind === 'call' && answerChanges(afterA, afterB.state, a)) return true;
  if (b.kind === 'call' && answerChanges(afterB, afterA.state, b)) return true;
  return a.kind === 'call' && b.kind === 'call' && sameRowWritten(state, a, b, afterA, afterB);
}

/** Whether `call` answers otherwise from `after` (the state another event left) than `alone`. */
function answerChanges(alone: Transition, after: ModelState, call: CallEvent): boolean {
  return answerKind(alone.outcome) !== answerKind(step(after, call).outcome);
}

/** Whether `a` and `b` each, alone from `state`, change the same target row. */
function sameRowWritten(
  state: ModelState,
  a: CallEvent,
  b: CallEvent,
  afterA: Transition,
  afterB: Transition,
): boolean {
  const target = state.operation.targetField;
  const id = a.request[target];
  if (typeof id !== 'number' || id !== b.request[target]) return false;
  const before = state.rows.get(id);
  return (
    before !== undefined &&
    afterA.state.rows.get(id) !== before &&
    afterB.state.rows.get(id) !== before
  );
}

/** An answer's kind, with a refusal's reason: what a reordering may change. */
export function answerKind(o: Observed | undefined): string {
  if (!o) return 'none';
  if (o.kind === 'ok') return o.replayed ? 'replayed' : 'fresh';
  if (o.kind === 'refused') return `refused:${o.reason}`;
  return o.kind;
}
