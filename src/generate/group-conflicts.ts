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
import { step } from '../model/step.ts';

/** Whether some pair of `events`, all starting from `state`, conflicts. */
export function groupConflicts(state: ModelState, events: readonly Event[]): boolean {
  for (let i = 0; i < events.length; i++)
    for (let j = i + 1; j < events.length; j++)
      if (pairConflicts(state, events[i] as Event, events[j] as Event)) return true;
  return false;
}

/** Whether `a` and `b`, from `state`, conflict (in either order). */
export function pairConflicts(state: ModelState, a: Event, b: Event): boolean {
  if (a.kind !== 'call' && b.kind !== 'call') return false;
  if (a.kind === 'call' && answerChanges(state, b, a)) return true;
  if (b.kind === 'call' && answerChanges(state, a, b)) return true;
  return a.kind === 'call' && b.kind === 'call' && sameRowWritten(state, a, b);
}

/** Whether `call` answers otherwise after `first` than alone, from `state`. */
function answerChanges(state: ModelState, first: Event, call: CallEvent): boolean {
  const alone = step(state, call).outcome;
  const after = step(step(state, first).state, call).outcome;
  return answerKind(alone) !== answerKind(after);
}

/** Whether `a` and `b` each, alone from `state`, change the same target row. */
function sameRowWritten(state: ModelState, a: CallEvent, b: CallEvent): boolean {
  const target = state.operation.targetField;
  const id = a.request[target];
  if (typeof id !== 'number' || id !== b.request[target]) return false;
  const before = state.rows.get(id);
  return before !== undefined && writes(state, a, id) && writes(state, b, id);
}

function writes(state: ModelState, call: CallEvent, id: number): boolean {
  return step(state, call).state.rows.get(id) !== state.rows.get(id);
}

/** An answer's kind, with a refusal's reason: what a reordering may change. */
export function answerKind(o: Observed | undefined): string {
  if (!o) return 'none';
  if (o.kind === 'ok') return o.replayed ? 'replayed' : 'fresh';
  if (o.kind === 'refused') return `refused:${o.reason}`;
  return o.kind;
}
