/**
 * One triage line for a failure report: what the user can change if they believe the handler is
 * right. Real libraries depart from the contract in documented ways, which a plugin declares
 * (`model/policy.ts`); a failure that such a declaration would explain names that switch, one a
 * created id would explain names the spec's `created.ids`, and anything else points to the rule in
 * docs/contract.md, which no switch changes. Data first (`triageOf`), text second (`triageLine`).
 * Pure.
 *
 * A new switch is one more entry in `TRIAGE_RULES`: the switch, the condition under which a
 * handler is right, and which failing calls it explains, read from `TriageCall`'s signals.
 */
import type { OperationSpec } from '../model/operation.ts';
import { isLeftOpen, type Observed } from '../model/outcome.ts';
import { CONTRACT_POLICY } from '../model/policy.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { explainFailure } from './explain-failure.ts';
import type { ReadableCase } from './readable-case.ts';
import { type TriageCall, triageCalls } from './triage-calls.ts';

/** What to change: a policy switch, a field of the operation spec, or nothing (the contract's rule). */
export type TriageChange =
  | {
      readonly kind: 'policy';
      readonly name: string;
      readonly value: string | boolean;
      /** Another value that would do as well, in words (`or the record's lifetime in ms`). */
      readonly or?: string;
    }
  | { readonly kind: 'spec'; readonly field: string; readonly value: string }
  | { readonly kind: 'contract'; readonly rule?: string }
  /** A call returned with its transaction open: no switch allows it, the handler must end it. */
  | { readonly kind: 'transaction' };

/** The triage of a failure: what to change, and when the handler would be right to need it. */
export interface Triage {
  readonly change: TriageChange;
  /** The condition, as a clause ("your library …"); absent for the contract's pointer. */
  readonly when?: string;
  /** The failing call the change explains, 0-based; absent for the contract's pointer. */
  readonly at?: { readonly step: number; readonly lane: number };
}

/** A change that explains some failing calls, and when a handler is right to need it. */
export interface TriageRule {
  readonly change: Exclude<TriageChange, { kind: 'contract' }>;
  readonly when: string;
  readonly explains: (call: TriageCall, spec: OperationSpec) => boolean;
}

const policy = (name: string, value: string | boolean, or?: string): TriageRule['change'] => ({
  kind: 'policy',
  name,
  value,
  ...(or ? { or } : {}),
});
const refused = (o: Observed, reason?: string) =>
  o.kind === 'refused' && (reason === undefined || o.reason === reason);
/** An answer a library gives from what it stored under the key. */
const fromStore = (o: Observed) => (o.kind === 'ok' && o.replayed) || o.kind === 'keyReuse';

/** The switches and spec fields that change a verdict, first match first. */
export const TRIAGE_RULES: readonly TriageRule[] = [
  {
    change: policy('idempotencyFirst', true),
    when: 'your library answers stored keys (and claims new ones) before checking access',
    explains: (c) =>
      (refused(c.expected, 'unavailable') && fromStore(c.actual)) ||
      (c.storeFailing && c.actual.kind === 'error' && refused(c.expected)),
  },
  {
    change: policy('storesRefusals', true),
    when: 'your library stores a refusal under its key and replays it',
    explains: (c) =>
      c.before.some(
        (o) =>
          o.kind === 'refused' &&
          ((refused(c.actual, o.reason) && !refused(c.expected, o.reason)) ||
            (c.actual.kind === 'keyReuse' && c.expected.kind !== 'keyReuse')),
      ),
  },
  {
    change: policy('inFlightDuplicate', 'conflict'),
    when: 'your library refuses a duplicate of a call still running with a conflict (HTTP 409)',
    explains: (c) => c.raced === 'identical' && refused(c.actual, 'conflict'),
  },
  {
    change: policy('storesErrors', true),
    when: 'your library stores an error (a 500 included) under its key and replays it',
    explains: (c) =>
      c.actual.kind === 'error' &&
      c.expected.kind !== 'error' &&
      c.before.some((o) => o.kind === 'error'),
  },
  {
    change: policy('claimExpiry', 'never', "the record's lifetime in ms"),
    when: "a crashed call leaves your library's in-progress record behind",
    explains: (c) =>
      c.crashedBefore && (refused(c.actual, 'conflict') || c.actual.kind === 'keyReuse'),
  },
  {
    change: { kind: 'spec', field: 'created.ids', value: 'opaque' },
    when: 'your server assigns created ids by a rule of its own',
    explains: (c, spec) => createdIdOnly(c.expected, c.actual, spec),
  },
];

/** What the user can change if they believe the handler that failed `c` is right. */
export function triageOf(c: ReadableCase, rules: readonly TriageRule[] = TRIAGE_RULES): Triage {
  const { spec } = c;
  const calls = triageCalls(c);
  const open = calls.find((call) => isLeftOpen(call.actual));
  if (open) return { change: { kind: 'transaction' }, at: { step: open.step, lane: open.lane } };
  for (const call of calls)
    for (const rule of rules)
      if (!declared(c.fixture, rule.change) && rule.explains(call, spec))
        return {
          change: rule.change,
          when: rule.when,
          at: { step: call.step, lane: call.lane },
        };
  const first = c.failures[0];
  const rule = first ? explainFailure(first, spec).rule : undefined;
  return { change: { kind: 'contract', ...(rule ? { rule } : {}) } };
}

/** The triage as the last line of a failure report. */
export function triageLine(t: Triage): string {
  const change = t.change;
  switch (change.kind) {
    case 'policy':
      return `If you believe the handler is right: if ${t.when}, declare policy.${change.name}: ${literal(change.value)}${change.or ? ` (or ${change.or})` : ''} in its plugin (docs/contract.md, Declared policies).`;
    case 'spec':
      return `If you believe the handler is right: if ${t.when}, set the operation spec's ${change.field} to ${literal(change.value)}.`;
    case 'contract':
      return `If you believe the handler is right: no policy switch explains this failure; ${change.rule ? `rule ${change.rule}` : 'the invariants'} in docs/contract.md say${change.rule ? 's' : ''} what the contract asks and why.`;
    case 'transaction':
      return 'If you believe the handler is right: no policy switch allows a call to return with its transaction open; end it (COMMIT or ROLLBACK) on every path, refusals and caught errors included (docs/contract.md, the outcomes).';
  }
}

/**
 * Whether the fixture's policy already departs from the contract on `change`'s switch (then
 * declaring it explains nothing new: a claim lifetime in ms counts as well as `'never'`).
 */
function declared(fixture: FixtureWithPolicy, change: TriageRule['change']): boolean {
  if (change.kind !== 'policy') return false;
  const value = (fixture.policy as Record<string, unknown> | undefined)?.[change.name];
  return (
    value !== undefined &&
    value !== (CONTRACT_POLICY as unknown as Record<string, unknown>)[change.name]
  );
}

/** Two fresh results that differ in the created row's id alone, under ids the spec predicts. */
function createdIdOnly(expected: Observed, actual: Observed, spec: OperationSpec): boolean {
  const created = spec.created;
  if (created?.ids !== 'rowid') return false;
  if (expected.kind !== 'ok' || actual.kind !== 'ok' || expected.replayed !== actual.replayed)
    return false;
  const { [created.resultId]: want, ...restWant } = expected.result;
  const { [created.resultId]: got, ...restGot } = actual.result;
  return want !== got && JSON.stringify(sorted(restWant)) === JSON.stringify(sorted(restGot));
}

function sorted(o: Readonly<Record<string, unknown>>): [string, unknown][] {
  return Object.entries(o).sort(([a], [b]) => a.localeCompare(b));
}

function literal(value: string | boolean): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
