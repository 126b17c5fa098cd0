/**
 * Test-only: a fast-check arbitrary of event sequences for an operation, built so that retries,
 * key reuse, moves, deletes and store failures meet often. Each call is a new intent (mostly by
 * the fixture's first three principals, with valid arguments), a retry of an earlier call, or
 * an earlier call's key reused with other arguments; world events come between.
 */
import fc from 'fast-check';
import type { CallEvent, CallRequest, Delivery, Event } from '../../../model/events.ts';
import type { OperationSpec } from '../../../model/operation.ts';
import { targetFieldsOf, targetRows } from '../../../model/operation.ts';

/** One generated step before earlier calls are resolved: `earlier` picks a call to repeat. */
type Draft =
  | { readonly kind: 'new'; readonly call: CallEvent }
  | {
      readonly kind: 'retry' | 'reuse';
      readonly earlier: number;
      readonly call: CallEvent;
      /** Which reuse: every argument new (even), or only one (odd; see `reused`). */
      readonly one?: number;
    }
  | { readonly kind: 'world'; readonly event: Event };

/** Sequences of up to `lengthMax` events for `spec`. */
export function eventsArbitrary(spec: OperationSpec, lengthMax = 30): fc.Arbitrary<Event[]> {
  const { principals, workspaces } = spec.fixture;
  const client = fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 2 }), weight: 6 },
    { arbitrary: fc.integer({ min: 0, max: principals.length - 1 }), weight: 1 },
  );
  const id = fc.constantFrom(...targetRows(spec.fixture, spec).map((r) => r.id), 3);
  const workspace = fc.constantFrom(...workspaces);
  const value = (typical: readonly unknown[] | undefined) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...(typical ?? [1])), weight: 8 },
      { arbitrary: fc.constantFrom(0, 2.5, '7'), weight: 1 },
    );
  // Further targets (a transfer's payee) mostly in the first workspace, where most callers are:
  // drawn like the first, few calls would name two rows a caller may use.
  const home = targetRows(spec.fixture, spec).filter((r) => r.workspace === workspaces[0]);
  const other =
    home.length > 0
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...home.map((r) => r.id)), weight: 4 },
          { arbitrary: id, weight: 1 },
        )
      : id;
  const args = fc.record(
    Object.fromEntries(
      spec.fields.map((f) => [
        f.name,
        f.name === spec.targetField
          ? id
          : targetFieldsOf(spec).includes(f.name)
            ? other
            : value(f.typical),
      ]),
    ),
  );
  const requestId = fc.oneof(
    { arbitrary: fc.constantFrom('r1', 'r2', 'r3', 'r4'), weight: 12 },
    { arbitrary: fc.constant('bad id'), weight: 1 },
  );
  const delivery = fc.constantFrom<Delivery>('delivered', 'lostResponse', 'lostRequest');
  const call = fc.record({ client, requestId, args, delivery }).map(
    (c): CallEvent => ({
      kind: 'call',
      client: c.client,
      request: { requestId: c.requestId, ...c.args },
      delivery: c.delivery,
    }),
  );
  const world = fc.oneof(
    client.map((c): Event => ({ kind: 'revoke', client: c })),
    client.map((c): Event => ({ kind: 'restore', client: c })),
    fc.record({ resourceId: id, workspace }).map((e): Event => ({ kind: 'move', ...e })),
    id.map((resourceId): Event => ({ kind: 'delete', resourceId })),
    fc.record({ resourceId: id, workspace }).map((e): Event => ({ kind: 'recreate', ...e })),
    fc.constant<Event>({ kind: 'storeFail' }),
    fc.constant<Event>({ kind: 'storeRestore' }),
  );
  const draft: fc.Arbitrary<Draft> = fc.oneof(
    { arbitrary: call.map((c): Draft => ({ kind: 'new', call: c })), weight: 4 },
    {
      arbitrary: fc.record({ earlier: fc.nat(), call, reuse: fc.boolean(), one: fc.nat() }).map(
        (d): Draft => ({
          kind: d.reuse ? 'reuse' : 'retry',
          earlier: d.earlier,
          call: d.call,
          one: d.one,
        }),
      ),
      weight: 4,
    },
    { arbitrary: world.map((event): Draft => ({ kind: 'world', event })), weight: 2 },
  );
  const names = spec.fields.map((f) => f.name);
  return fc.array(draft, { maxLength: lengthMax }).map((drafts) => resolve(drafts, names));
}

/** Turns drafts into events: a retry repeats an earlier call; a reuse keeps only its key. */
function resolve(drafts: readonly Draft[], names: readonly string[]): Event[] {
  const calls: CallEvent[] = [];
  return drafts.map((d): Event => {
    if (d.kind === 'world') return d.event;
    const before = calls[d.kind === 'new' ? -1 : d.earlier % Math.max(calls.length, 1)];
    const event: CallEvent = !before
      ? d.call
      : d.kind === 'retry'
        ? { ...before, delivery: d.call.delivery }
        : {
            ...d.call,
            client: before.client,
            request: reused(
              before.request,
              d.call.request,
              names,
              d.kind === 'reuse' ? (d.one ?? 0) : 0,
            ),
          };
    calls.push(event);
    return event;
  });
}

/**
 * The earlier request's key with the new request's arguments (`one` even), or with one argument
 * of the new request's, the others kept (`one` odd): a reuse that changes one field is the one a
 * partial fingerprint misses.
 */
function reused(
  before: CallRequest,
  next: CallRequest,
  names: readonly string[],
  one: number,
): CallRequest {
  if (one % 2 === 0 || names.length === 0) return { ...next, requestId: before.requestId };
  const name = names[(one >> 1) % names.length] as string;
  return { ...before, [name]: next[name] };
}
