/**
 * Counts the input classes (`generate/input-classes.ts`) that generated sequences reached, so a
 * summary shows that long, case-twin and look-alike request ids, numeric extremes and unusual
 * principals really were sent, and warns about any class a run never reached. Pure.
 */

import { inputClassesOf } from '../generate/field-classes.ts';
import { principalClasses, requestClasses } from '../generate/input-classes.ts';
import type { Event, Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import { type FixtureWithPolicy, operationOf } from '../model/state.ts';
import { isRequestId } from '../model/validate.ts';
import { afterScopeChange, DEFAULT_FIXTURE, type Principal } from '../model/world.ts';
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
 *
 * Called for every run of every check: it walks the steps in place (no flattened copy, no
 * closure per run) and keeps each client's earlier request ids in a `Set`, made on its first id.
 */
export function countInputCoverage(
  steps: readonly Step[],
  fixture: FixtureWithPolicy,
  into: InputCoverage,
): void {
  const run: CoverageRun = {
    fixture,
    spec: operationOf(fixture),
    principals: fixture.principals,
    sent: new Array(fixture.principals.length),
    into,
  };
  for (const step of steps) {
    if (step.kind !== 'concurrent') countEvent(run, step);
    else for (const event of step.events) countEvent(run, event);
  }
}

/** What `countInputCoverage` carries from one event of a run to the next. */
interface CoverageRun {
  readonly fixture: FixtureWithPolicy;
  readonly spec: OperationSpec;
  /** The principals as earlier revokes and restores left them. */
  principals: readonly Principal[];
  /** Per client, the valid request ids it sent so far (absent before its first). */
  readonly sent: (Set<string> | undefined)[];
  readonly into: InputCoverage;
}

const NOTHING_SENT: ReadonlySet<string> = new Set();

function countEvent(run: CoverageRun, event: Event): void {
  if (event.kind === 'revoke' || event.kind === 'restore') {
    run.principals = afterScopeChange(run.principals, event, run.spec.scope);
    return;
  }
  if (event.kind !== 'call') return;
  const client = event.client;
  const principal = run.principals[client];
  // Only the fixture's clients are counted (the principals keep the fixture's length).
  if (!principal || !(client >= 0 && client < run.sent.length)) return;
  const sent = run.sent[client];
  if (event.delivery !== 'lostRequest') {
    addAll(run.into, principalClasses(run.fixture, client, principal));
    if (principal.scopes.includes(run.spec.scope))
      addAll(run.into, requestClasses(event.request, sent ?? NOTHING_SENT, run.spec));
  }
  const id = event.request.requestId;
  if (isRequestId(id)) {
    if (sent) sent.add(id);
    else run.sent[client] = new Set([id]);
  }
}

function addAll(into: InputCoverage, classes: readonly string[]): void {
  for (let i = 0; i < classes.length; i++) {
    const c = classes[i] as string;
    into[c] = (into[c] ?? 0) + 1;
  }
}

/** The classes `coverage` never reached, in its (the operation's) order. */
export function unreachedInputClasses(coverage: Readonly<InputCoverage>): string[] {
  return Object.keys(coverage).filter((c) => !((coverage[c] ?? 0) > 0));
}
