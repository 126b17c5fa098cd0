/**
 * The reference model: the retry-receipt contract (`docs/contract.md`) written as one pure function.
 *
 * `step(state, event)` returns the next state and, for a call, the outcome the contract demands.
 * It does no I/O, touches no SQLite and draws no random numbers: the same state and event always
 * give the same answer, which is what lets the checkers compare a handler against it, the
 * linearizability search replay it, and a counterexample replay exactly.
 *
 * The state carries the handler's declared policy (`policy.ts`); with every switch off, which is
 * the default, `step` is the contract word for word.
 */

import { PersistentMap } from '../lib/persistent-map.ts';
import { advanceClock } from './advance-clock.ts';
import { specEffect, undeclaredRefusal } from './check-spec.ts';
import { type CallEvent, type Event, unsentOutcome } from './events.ts';
import { type Args, opaqueIds, type Row } from './operation.ts';
import { type Observed, outcome, SERVER_ASSIGNED } from './outcome.ts';
import { declaresClaims } from './policy.ts';
import { type ModelState, receiptKey } from './state.ts';
import { refuse, STORE_FAILURE_MESSAGE, storedAnswer, storedNow } from './stored-answers.ts';
import { accessibleTargets, rowsWritten } from './targets.ts';
import type { Transition } from './transition.ts';
import { invalidField } from './validate.ts';
import { withWriteScope } from './world.ts';

export { RECREATED_INTERVAL } from './operations/set-interval.ts';
export { STORE_FAILURE_MESSAGE, STORED_ERROR_MESSAGE, samePayload } from './stored-answers.ts';
export { allowedAnswer, type Transition } from './transition.ts';

/** Applies one event to the model. Pure. */
export function step(state: ModelState, event: Event): Transition {
  switch (event.kind) {
    case 'call':
      return call(state, event);
    case 'revoke':
    case 'restore':
      return { state: withScope(state, event.client, event.kind === 'restore') };
    case 'move': {
      const row = state.rows.get(event.resourceId);
      if (!row || row.workspace === event.workspace) return { state };
      return { state: withRow(state, { ...row, workspace: event.workspace }) };
    }
    case 'delete': {
      if (!state.rows.has(event.resourceId)) return { state };
      const rows = new Map(state.rows);
      rows.delete(event.resourceId);
      return { state: { ...state, rows } };
    }
    case 'recreate': {
      if (state.rows.has(event.resourceId)) return { state };
      return {
        state: withRow(state, state.operation.recreated(event.resourceId, event.workspace)),
      };
    }
    case 'storeFail':
    case 'storeRestore':
      return { state: { ...state, storeFailing: event.kind === 'storeFail' } };
    case 'clockAdvance':
      return { state: advanceClock(state, event.ms) };
  }
}

/** Applies a list of events in order; returns the final state and the outcomes of the calls. */
export function run(
  state: ModelState,
  events: readonly Event[],
): { state: ModelState; outcomes: Observed[] } {
  const outcomes: Observed[] = [];
  let current = state;
  for (const event of events) {
    const t = step(current, event);
    current = t.state;
    if (t.outcome) outcomes.push(t.outcome);
  }
  return { state: current, outcomes };
}

/**
 * The state a crashed call leaves when it died right after its claim committed (policy
 * `claimExpiry`): its key claimed, nothing else changed. A call that would not have reached its
 * claim (refused or invalid at the edge, answered from the store, the store failing) leaves the
 * state as it was; so does every call under a policy that declares no claims.
 */
export function leaveClaim(state: ModelState, event: Event): ModelState {
  if (event.kind !== 'call' || !declaresClaims(state.policy)) return state;
  return call(state, event, 'claim').state;
}

/**
 * The state a call leaves when it answered `error` and its library recorded that error under its
 * key (policy `storesErrors`): the key bound to the error, nothing else changed. Where the call
 * would not have reached its key (refused or invalid at the edge, answered from the store, the
 * store failing, which is also where the error would be recorded), and under a policy that stores
 * no errors, the state stays as it was.
 */
export function leaveError(state: ModelState, event: Event): ModelState {
  if (event.kind !== 'call' || !state.policy.storesErrors) return state;
  return call(state, event, 'error').state;
}

/** What a call that did not complete left under its key: its claim, or its stored error. */
type LeftUnderKey = 'claim' | 'error';

function call(state: ModelState, event: CallEvent, left?: LeftUnderKey): Transition {
  const unsent = unsentOutcome(event);
  if (unsent) return { state, outcome: unsent };
  if (left) return { state: leftOnly(state, event, left) };
  const spec = state.operation;
  const principal = state.principals[event.client];
  if (!principal) throw new RangeError(`no principal for client ${event.client}`);
  if (!principal.scopes.includes(spec.scope))
    return { state, outcome: outcome.refused('forbidden') };

  const field = invalidField(event.request, spec);
  if (field) return { state, outcome: outcome.invalid(field) };
  const requestId = event.request.requestId as string;
  const args = event.request as unknown as Args;

  const key = receiptKey(principal.workspace, principal.user, spec.tool, requestId);
  const payload = spec.payload(args);
  const first = state.policy.idempotencyFirst;
  // Policy `idempotencyFirst`: the library answers from its store, then claims the key (a write).
  if (first) {
    const stored = storedAnswer(state, key, payload);
    if (stored) return stored;
    if (state.storeFailing) return { state, outcome: outcome.error(STORE_FAILURE_MESSAGE) };
  }

  // Current access before any receipt: a moved or deleted resource never replays.
  const targets = accessibleTargets(state.rows, spec, args, principal.workspace);
  if (!targets) return refuse(state, key, payload, 'unavailable');
  const { row, others } = targets;

  // The receipt before the precondition: the original success may have changed what it reads
  // (for set_interval, the version it advanced).
  if (!first) {
    const stored = storedAnswer(state, key, payload);
    if (stored) return stored;
  }
  const refusal = spec.precondition?.(row, args, others);
  if (refusal) {
    const undeclared = undeclaredRefusal(spec, refusal);
    if (undeclared) throw undeclared;
    return refuse(state, key, payload, refusal);
  }
  if (state.storeFailing) return { state, outcome: outcome.error(STORE_FAILURE_MESSAGE) };

  const effect = specEffect(spec, row, args, nextCreatedId(state), others);
  const result = opaqueIds(spec)
    ? { ...effect.result, [spec.created?.resultId ?? '']: SERVER_ASSIGNED }
    : effect.result;
  // Structural sharing: a long history's receipts are never copied whole (`persistent-map.ts`).
  const receipts = PersistentMap.from(state.receipts).with(key, {
    workspace: principal.workspace,
    user: principal.user,
    tool: spec.tool,
    requestId,
    payload,
    result,
  });
  // One new state per write: the row, the receipt and its expiry in a single copy of the state.
  let next: ModelState = {
    ...state,
    rows: effect.others
      ? rowsWithAll(state.rows, rowsWritten(effect))
      : rowsWith(state.rows, effect.row),
    receipts,
    expiresAt: storedNow(state, key),
  };
  if (effect.created) {
    const created = new Map(state.created);
    created.set(effect.created.id, effect.created);
    next = { ...next, created };
  }
  return { state: next, outcome: outcome.fresh(result) };
}

/**
 * `leaveClaim` and `leaveError` for a delivered call: where the call's idempotency layer would
 * claim its key, what it left there.
 */
function leftOnly(state: ModelState, event: CallEvent, left: LeftUnderKey): ModelState {
  const spec = state.operation;
  const principal = state.principals[event.client];
  if (!principal?.scopes.includes(spec.scope) || invalidField(event.request, spec)) return state;
  const requestId = event.request.requestId as string;
  const args = event.request as unknown as Args;
  const key = receiptKey(principal.workspace, principal.user, spec.tool, requestId);
  const payload = spec.payload(args);
  if (state.storeFailing || storedAnswer(state, key, payload)) return state;
  if (!state.policy.idempotencyFirst) {
    // The layer claims after current access is checked.
    if (!accessibleTargets(state.rows, spec, args, principal.workspace)) return state;
  }
  if (left === 'error') {
    // Kept like a result: for the receipts' lifetime.
    const errors = new Map(state.errors);
    errors.set(key, { payload });
    return { ...state, errors, expiresAt: storedNow(state, key) };
  }
  const lifetime = state.policy.claimExpiry;
  const claims = new Map(state.claims);
  claims.set(key, {
    payload,
    expiresAt: typeof lifetime === 'number' ? state.clock + lifetime : null,
  });
  return { ...state, claims };
}

/**
 * The id of the next created row: one past the largest so far (SQLite's rowid rule). For opaque
 * ids it only keys the model's rows; results show `SERVER_ASSIGNED` instead.
 */
function nextCreatedId(state: ModelState): number {
  let max = 0;
  for (const id of state.created.keys()) if (id > max) max = id;
  return max + 1;
}

function withRow(state: ModelState, row: Row): ModelState {
  const rows = rowsWith(state.rows, row);
  return rows === state.rows ? state : { ...state, rows };
}

/** `rows` with `row` in place of the one with its id; `rows` itself when it already held it. */
function rowsWith(rows: ReadonlyMap<number, Row>, row: Row): ReadonlyMap<number, Row> {
  if (rows.get(row.id) === row) return rows;
  // Copied with forEach: `new Map(rows)` walks an iterator that allocates an entry array per row,
  // about 5% of all a soak's check allocated.
  const copy = new Map<number, Row>();
  rows.forEach((value, id) => {
    copy.set(id, value);
  });
  copy.set(row.id, row);
  return copy;
}

/** `rows` with each of `written` in place of the one with its id. */
function rowsWithAll(
  rows: ReadonlyMap<number, Row>,
  written: readonly Row[],
): ReadonlyMap<number, Row> {
  let next = rows;
  for (const row of written) next = rowsWith(next, row);
  return next;
}

function withScope(state: ModelState, client: number, granted: boolean): ModelState {
  const principals = withWriteScope(state.principals, client, granted, state.operation.scope);
  return { ...state, principals };
}
