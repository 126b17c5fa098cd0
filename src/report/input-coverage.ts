/**
 * Counts the input classes (`generate/input-classes.ts`) that generated sequences reached, so a
 * summary shows that long, case-twin and look-alike request ids, numeric extremes and unusual
 * principals really were sent, and warns about any class a run never reached. Pure.
 */

import {
  type FieldShapes,
  fieldShapes,
  inputClassesOf,
  valueShape,
} from '../generate/field-classes.ts';
import { principalClasses } from '../generate/input-classes.ts';
import {
  type RequestIdShape,
  requestIdShape,
  requestIdTypeClasses,
} from '../generate/request-id-classes.ts';
import type { CallRequest, Event, Step } from '../model/events.ts';
import type { ArgumentField, OperationSpec } from '../model/operation.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { afterScopeChange, type Principal } from '../model/world.ts';
import type { InputClass, InputCoverage } from '../types/input-coverage.ts';

/** An input coverage record for `spec`, with every count at zero. */
export function emptyInputCoverage(spec: OperationSpec): InputCoverage {
  return Object.fromEntries(inputClassesOf(spec).map((c) => [c, 0]));
}

/**
 * Adds the classes `steps` reached, from `fixture`, to `into`. A call the handler receives
 * counts its principal's classes (with the scopes it holds after earlier revokes and restores);
 * when that principal may write, it also counts its request's classes up to the first invalid
 * field, since rule 1 decides before any field is read and the rules stop at the first bad one.
 * Events of a concurrent group count in lane order.
 *
 * Called for every run of every check, so it allocates next to nothing: it walks the steps in
 * place, reads each value's classes from memos kept per distinct value (`requestIdShape`,
 * `valueShape`) and each fixture principal's from a list kept per fixture, and keeps each
 * client's earlier request ids by their lower case, made on its first id. The counts are those
 * of `requestClasses` and `principalClasses`, added in the same order.
 */
export function countInputCoverage(
  steps: readonly Step[],
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
  into: InputCoverage,
): void {
  const run: CoverageRun = {
    fixture,
    spec,
    shapes: fieldShapes(spec),
    principals: fixture.principals,
    fixtureClasses: fixtureClassesOf(fixture, spec),
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
  /** Where `valueShape` keeps the spec's fields' shapes. */
  readonly shapes: FieldShapes;
  /** The principals as earlier revokes and restores left them. */
  principals: readonly Principal[];
  /** `principalClasses` of each fixture principal as the fixture has it. */
  readonly fixtureClasses: readonly (readonly InputClass[])[];
  /**
   * Per client (absent before its first), the valid request ids it sent so far, by lower case:
   * the one spelling sent, or `SPELLINGS` once two spellings were.
   */
  readonly sent: (Map<string, string> | undefined)[];
  readonly into: InputCoverage;
}

/** Marks a lower-case id that a client sent in two spellings or more. */
const SPELLINGS = '\u0000several';

const TWIN: InputClass = 'requestId differs only in case from an earlier one';

/** `principalClasses` of every fixture principal, kept per operation and fixture. */
const fixtureClassesKept = new WeakMap<
  OperationSpec,
  WeakMap<FixtureWithPolicy, readonly (readonly InputClass[])[]>
>();

function fixtureClassesOf(
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
): readonly (readonly InputClass[])[] {
  let kept = fixtureClassesKept.get(spec);
  if (!kept) {
    kept = new WeakMap();
    fixtureClassesKept.set(spec, kept);
  }
  let classes = kept.get(fixture);
  if (!classes) {
    classes = fixture.principals.map((p, i) => principalClasses(fixture, spec, i, p));
    kept.set(fixture, classes);
  }
  return classes;
}

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
  const id = event.request.requestId;
  const shape = typeof id === 'string' ? requestIdShape(id) : undefined;
  if (event.delivery !== 'lostRequest') {
    addAll(
      run.into,
      principal === run.fixture.principals[client]
        ? (run.fixtureClasses[client] as readonly InputClass[])
        : principalClasses(run.fixture, run.spec, client, principal),
    );
    if (principal.scopes.includes(run.spec.scope)) countRequest(run, event.request, shape, sent);
  }
  if (shape?.valid) {
    const lower = shape.lower;
    if (!sent) run.sent[client] = new Map([[lower, id as string]]);
    else {
      const before = sent.get(lower);
      if (before === undefined) sent.set(lower, id as string);
      else if (before !== id) sent.set(lower, SPELLINGS);
    }
  }
}

/** `requestClasses` of `request`, counted into `run.into` without building the list. */
function countRequest(
  run: CoverageRun,
  request: CallRequest,
  shape: RequestIdShape | undefined,
  sent: ReadonlyMap<string, string> | undefined,
): void {
  if (!shape) {
    addAll(run.into, requestIdTypeClasses(request.requestId));
    return;
  }
  addAll(run.into, shape.classes);
  if (!shape.valid) return;
  const before = sent?.get(shape.lower);
  if (before !== undefined && before !== request.requestId) add(run.into, TWIN);
  const fields = run.spec.fields;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as ArgumentField;
    const value = valueShape(run.shapes[i], field, request[field.name]);
    addAll(run.into, value.classes);
    if (!value.holds) break;
  }
}

function addAll(into: InputCoverage, classes: readonly string[]): void {
  for (let i = 0; i < classes.length; i++) add(into, classes[i] as string);
}

function add(into: InputCoverage, c: string): void {
  into[c] = (into[c] ?? 0) + 1;
}

/** The classes `coverage` never reached, in its (the operation's) order. */
export function unreachedInputClasses(coverage: Readonly<InputCoverage>): string[] {
  return Object.keys(coverage).filter((c) => !((coverage[c] ?? 0) > 0));
}
