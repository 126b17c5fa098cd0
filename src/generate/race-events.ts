/**
 * A race move made concrete: the events of one concurrent group, each member chosen from what the
 * clients knew before the group (`resolve.ts` applies them to the model together). Pure.
 */
import type { CallEvent, CallRequest, Delivery, Event, WorldEvent } from '../model/events.ts';
import type { Args, OperationSpec, Row } from '../model/operation.ts';
import { otherRowsOf } from '../model/targets.ts';
import { type Allows, conflictingValues } from './conflict-values.ts';
import type { Move, VersionChoice } from './moves.ts';
import { withTargetsSwapped } from './other-targets.ts';
import { type IdChoice, SIMPLE_ID } from './request-ids.ts';
import type { FieldValue, ValueField } from './value-fields.ts';
import { versionOf } from './versioning.ts';

/** Field values by name, for the fields a move does not set itself. */
export type Values = Readonly<Record<string, FieldValue>>;

/** What a race needs of the resolver: the operation's fields and how it makes requests. */
export interface RequestMaker {
  readonly spec: OperationSpec;
  readonly fields: readonly ValueField[];
  /** The expected version's field, for a versioned operation. */
  readonly version: string | undefined;
  /** A call event. */
  call(
    client: number,
    request: CallRequest,
    delivery: Delivery,
    intent: CallEvent['intent'],
  ): CallEvent;
  /** A fresh request id and arguments (see the resolver). */
  newRequest(
    client: number,
    target: number,
    values: Values,
    version: VersionChoice,
    idChoice?: IdChoice,
    sharedWith?: number,
  ): CallRequest;
  /** A new intent's arguments, set on `into`. */
  arguments(
    client: number,
    target: number,
    values: Values,
    version: VersionChoice,
    into?: Record<string, unknown>,
  ): Omit<CallRequest, 'requestId'>;
  /** `request` with `change` made. */
  changed(request: CallRequest, change: string): CallRequest;
  /** The next client after `a` whose principal is in no excluded class. */
  otherClient(a: number): number;
  /** A workspace other than row `id`'s. */
  otherWorkspace(id: number): string;
  /** Target row `id` as the model holds it now, if it exists. */
  rowOf(id: number): Row | undefined;
  /** Whether a value may be sent in a field (in no excluded input class). */
  readonly allows: Allows;
}

/**
 * A concurrent group's events: every member is chosen from what the clients knew before it (the
 * resolver applies them all together once they are made).
 */
export function raceEvents(r: RequestMaker, move: Extract<Move, { kind: 'race' }>): Event[] {
  const [a = 0, b = 0] = move.clients;
  const first = r.fields[0];
  const [i0 = first?.usual[0], i1 = first?.usual[1]] = move.values;
  // Values with the first value field set to `v`, the others at their usual value.
  const at = (v: FieldValue | undefined): Values =>
    first && v !== undefined ? { [first.field.name]: v } : {};
  const target = r.spec.targetField;
  const events: Event[] = [];
  switch (move.shape) {
    case 'duplicate': {
      const request = r.newRequest(a, move.target, at(i0), 'known');
      for (let n = 0; n < Math.max(2, move.clients.length - 1); n++)
        events.push(r.call(a, request, 'delivered', n === 0 ? 'new' : 'retry'));
      break;
    }
    case 'mismatch': {
      const drawn = r.newRequest(a, move.target, at(i0), 'known');
      const [request, other] =
        first && i0 !== undefined && move.pick % 2 === 0
          ? [drawn, { ...drawn, [first.field.name]: i0 !== i1 ? i1 : bumped(i0, first) }]
          : onTwoRows(r, drawn);
      events.push(r.call(a, request, 'delivered', 'new'), r.call(a, other, 'delivered', 'reuse'));
      break;
    }
    case 'crossPrincipal': {
      const other = b === a ? r.otherClient(a) : b;
      const firstRequest = r.newRequest(a, move.target, at(i0), 'known', SIMPLE_ID, other);
      const second = r.arguments(other, move.target, at(i1), 'known', {
        requestId: firstRequest.requestId,
      }) as CallRequest;
      events.push(
        r.call(a, firstRequest, 'delivered', 'new'),
        r.call(other, second, 'delivered', 'new'),
      );
      break;
    }
    case 'sameVersion': {
      // Every other group: values that pass the precondition alone but not together, when some
      // field can cross it; the rest keep the drawn values, so that both calls write the row.
      const drawn = r.newRequest(a, move.target, at(i0), 'known');
      const conflict = move.pick % 2 === 0 ? conflictOn(r, drawn) : undefined;
      const firstRequest = conflict ? { ...drawn, [conflict.field]: conflict.first } : drawn;
      const shared = [target, ...(r.version ? [r.version] : [])];
      // The other groups of an operation that writes several rows send every second member the
      // other way round: the same rows, locked in the opposite order.
      const swap = (r.spec.otherTargets?.length ?? 0) > 0 && move.pick % 2 === 1;
      for (const [n, c] of move.clients.entries()) {
        const values = conflict
          ? {
              [conflict.field]: conflict.others[(move.pick + n) % conflict.others.length] as number,
            }
          : at(move.values[n] ?? i1);
        const request =
          n === 0
            ? firstRequest
            : {
                ...r.newRequest(c, move.target, values, 'known'),
                ...Object.fromEntries(shared.map((f) => [f, firstRequest[f]])),
              };
        const sent = swap && n % 2 === 1 ? withTargetsSwapped(r.spec, request) : request;
        events.push(r.call(c, sent, 'delivered', 'new'));
      }
      break;
    }
    case 'disjoint':
      for (const [n, c] of move.clients.entries())
        events.push(
          r.call(
            c,
            r.newRequest(c, move.target + n, at(move.values[n] ?? i0), 'known'),
            'delivered',
            'new',
          ),
        );
      break;
    case 'worldRace': {
      const request = r.newRequest(a, move.target, at(i0), 'known');
      const id = request[target] as number;
      const world: WorldEvent =
        move.world === 'revoke'
          ? { kind: 'revoke', client: a }
          : move.world === 'delete'
            ? { kind: 'delete', resourceId: id }
            : { kind: 'move', resourceId: id, workspace: r.otherWorkspace(id) };
      events.push(r.call(a, request, 'delivered', 'new'), world);
      break;
    }
  }
  return events;
}

/**
 * Every other mismatch: `drawn`'s key on another row too, each request expecting the version its
 * row has now. Two first attempts on different rows share no row lock, so only a lock on the key
 * keeps both from writing; at the versions the client last saw, one of them was mostly refused
 * as stale before it reached the receipt, and the race then showed nothing.
 */
function onTwoRows(r: RequestMaker, drawn: CallRequest): [CallRequest, CallRequest] {
  return [atCurrentVersion(r, drawn), atCurrentVersion(r, r.changed(drawn, 'target'))];
}

/** `request` expecting the version its target row has now (a versioned operation only). */
function atCurrentVersion(r: RequestMaker, request: CallRequest): CallRequest {
  if (!r.version) return request;
  const row = r.rowOf(request[r.spec.targetField] as number);
  return row ? { ...request, [r.version]: versionOf(row) } : request;
}

/**
 * The first value field through which `request`'s target row lets the precondition be crossed:
 * its value for the first member, and values that pass alone but not after it.
 */
function conflictOn(
  r: RequestMaker,
  request: CallRequest,
): { field: string; first: number; others: readonly number[] } | undefined {
  const args = request as unknown as Args;
  const row = r.rowOf(request[r.spec.targetField] as number);
  const others = otherRowsOf(r.spec, args, (id) => r.rowOf(id));
  if (!row || !others) return undefined;
  for (const { field } of r.fields) {
    if (field.rule.kind !== 'integer' && field.rule.kind !== 'id') continue;
    const found = conflictingValues(r.spec, row, others, args, field, r.allows);
    if (found) return { field: field.name, ...found };
  }
  return undefined;
}

/**
 * A value of `field` other than `v`, for a mismatched duplicate whose two draws were equal: one
 * more for a number (as `set-interval` always did, even past its maximum), else the other usual
 * value.
 */
function bumped(v: FieldValue, field: ValueField): FieldValue {
  if (typeof v === 'number') return v + 1;
  return v === field.usual[0] ? field.usual[1] : field.usual[0];
}
