/**
 * How the search treats each entry, decided once before it starts: which observed outcomes can
 * never have changed the state, and when a step's outcome counts as the one observed.
 */
import { type Observed, sameOutcome } from '../../model/outcome.ts';
import type { Policy } from '../../model/policy.ts';
import type { ModelState } from '../../model/state.ts';
import type { Transition } from '../../model/step.ts';

/**
 * Whether the model never changes its state when it gives this outcome, in any state, under
 * `policy`: it writes only on a fresh success, and under `storesRefusals` when it refuses as
 * unavailable or conflict. The search relies on this (see `search.ts`) and checks it as it goes.
 * `storesErrors` does not make `error` write: the model's own errors come from the store failing,
 * which records nothing; only the scheduled checker's reading of a faulted call stores one.
 */
export function neverWrites(observed: Observed, policy: Policy): boolean {
  if (observed.kind === 'ok') return observed.replayed;
  if (observed.kind === 'refused' && observed.reason !== 'forbidden') return !policy.storesRefusals;
  return true;
}

/**
 * Whether a required entry is inert, given the outcome it must match (`EventList.expected`):
 * a call whose every acceptable placement leaves the state as it was (an observed outcome that
 * never writes; an in-flight conflict under a policy that does not store refusals, where both
 * readings change nothing).
 */
export function isInert(
  expected: Observed | undefined,
  policy: Policy,
  inFlight: boolean,
): boolean {
  if (expected === undefined) return false;
  return neverWrites(expected, policy) && (!inFlight || !policy.storesRefusals);
}

/** Whether a step gives the expected outcome; nothing expected (world events, unobserved calls) always fits. */
export function fits(expected: Observed | undefined, t: Transition): boolean {
  return expected === undefined || (t.outcome !== undefined && sameOutcome(t.outcome, expected));
}

/** The transition of an in-flight conflict: the call is answered at once and changes nothing. */
export function inFlightTransition(state: ModelState): Transition {
  return { state, outcome: { kind: 'refused', reason: 'conflict' } };
}
