/**
 * Counts the input classes (`generate/input-classes.ts`) that generated sequences reached, so a
 * summary shows that long, case-twin and look-alike request ids, numeric extremes and unusual
 * principals really were sent, and warns about any class a run never reached. Pure.
 */

import { inputClassesOf } from '../generate/field-classes.ts';
import { principalClasses, requestClasses } from '../generate/input-classes.ts';
import type { Step } from '../model/events.ts';
import { type FixtureWithPolicy, operationOf } from '../model/state.ts';
import { isRequestId } from '../model/validate.ts';
import { afterScopeChange, DEFAULT_FIXTURE } from '../model/world.ts';
import type { InputCoverage } from '../types/input-coverage.ts';

/** An input coverage record for `fixture`'s operation, with every count at zero. */
export function emptyInputCoverage(fixture: FixtureWithPolicy = DEFAULT_FIXTURE): InputCoverage {
  return Object.fromEntries(inputClassesOf(operationOf(fixture)).map((c) => [c, 0]));
}

/**
 * Adds the classes `steps` reached, from `fixture`, to `into`. A call the handler receives
 * counts its principal's classes (with the scopes it holds after earlier revokes and restores);
 * when that principal may write, it also counts its request's classes up to the first invalid
 * field, since rule 1 decides before any field is read and the rules stop at the first bad one.
 * Events of a concurrent group count in lane order.
 */
export function countInputCoverage(
  steps: readonly Step[],
  fixture: FixtureWithPolicy,
  into: InputCoverage,
): void {
  const spec = operationOf(fixture);
  let principals = fixture.principals;
  const earlier = fixture.principals.map((): string[] => []);
  const count = (classes: readonly string[]) => {
    for (const c of classes) into[c] = (into[c] ?? 0) + 1;
  };
  for (const event of steps.flatMap((s) => (s.kind === 'concurrent' ? s.events : [s]))) {
    if (event.kind === 'revoke' || event.kind === 'restore') {
      principals = afterScopeChange(principals, event, spec.scope);
      continue;
    }
    if (event.kind !== 'call') continue;
    const principal = principals[event.client];
    const sent = earlier[event.client];
    if (!principal || !sent) continue;
    if (event.delivery !== 'lostRequest') {
      count(principalClasses(fixture, event.client, principal));
      if (principal.scopes.includes(spec.scope)) count(requestClasses(event.request, sent, spec));
    }
    const id = event.request.requestId;
    if (isRequestId(id) && !sent.includes(id)) sent.push(id);
  }
}

/** The classes `coverage` never reached, in its (the operation's) order. */
export function unreachedInputClasses(coverage: Readonly<InputCoverage>): string[] {
  return Object.keys(coverage).filter((c) => !((coverage[c] ?? 0) > 0));
}
