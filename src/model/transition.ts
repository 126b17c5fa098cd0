/** A step of the model: the next state, the outcome the contract demands, and what else it allows. */
import { type Observed, sameOutcome } from './outcome.ts';
import type { ModelState } from './state.ts';

/** One transition: the next state, and the outcome when the event was a call. */
export interface Transition {
  readonly state: ModelState;
  readonly outcome?: Observed;
  /**
   * A second outcome the contract allows for this call in this state, with the same next state:
   * where it lets a library choose the order of two checks, both answers hold. Today only a claim
   * met by another payload gives one (`keyReuse`, or `refused: conflict` from a library that
   * looks at the claim's status first); claims come only from the scheduled checker's reading
   * of a crash (`leaveClaim`), so the other modes never meet a second answer.
   */
  readonly alsoAllowed?: Observed;
}

/**
 * The answer of `t` that `observed` is: its outcome, else its `alsoAllowed`; undefined when it is
 * neither (or `t` gave no outcome). A checker records this as what the model expected, so a
 * report never shows the answer the handler did not give as wanted.
 */
export function allowedAnswer(t: Transition, observed: Observed): Observed | undefined {
  if (t.outcome === undefined) return undefined;
  if (sameOutcome(t.outcome, observed)) return t.outcome;
  return t.alsoAllowed !== undefined && sameOutcome(t.alsoAllowed, observed)
    ? t.alsoAllowed
    : undefined;
}
