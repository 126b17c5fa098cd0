/**
 * The colour class of what a client saw (`timeline.ts`'s `OutcomeClass`), so the page colours a
 * fresh write, a replay, a refusal and an error apart. Pure.
 */
import type { Observed } from '../../model/outcome.ts';
import type { OutcomeClass } from './timeline.ts';

/** The class of an outcome the client saw. */
export function outcomeClass(o: Observed): OutcomeClass {
  switch (o.kind) {
    case 'ok':
      return o.replayed ? 'replayed' : 'fresh';
    case 'refused':
    case 'keyReuse':
    case 'invalid':
    case 'error':
    case 'unexpected':
    case 'notSent':
      return o.kind;
  }
}
