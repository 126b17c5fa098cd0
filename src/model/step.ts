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
import { type CallEvent, type Event, unsentOutcome } from './events.ts';
import { type Args, opaqueIds, type Payload, type Row } from './operation.ts';
import { type Observed, outcome, type RefusalReason, SERVER_ASSIGNED } from './outcome.ts';
import { PersistentMap } from './persistent-map.ts';
import { declaresExpiry } from './policy.ts';
import { type ModelState, receiptKey } from './state.ts';
import { invalidField } from './validate.ts';
import { withWriteScope } from './world.ts';

export { RECREATED_INTERVAL } from './operations/set-interval.ts';

/** The message the model attaches to a receipt-store failure (messages are never compared). */
export const STORE_FAILURE_MESSAGE = 'receipt store unavailable';

/** One transition: the next state, and the outcome when the event was a call. */
export interface Transition {
  readonly state: ModelState;
  readonly outcome?: Observed;
}

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

/**
 * Moves the clock on by `ms` and drops every receipt and stored refusal whose declared lifetime
 * has run out. Under a policy with no expiry nothing depends on time: the state stays as it is.
 */
function advanceClock(state: ModelState, ms: number): ModelState {
  if (!declaresExpiry(state.policy) || ms <= 0) return state;
  const clock = state.clock + ms;
  const gone = [...state.expiresAt].filter(([, at]) => clock > at).map(([key]) => key);
  if (gone.length === 0) return { ...state, clock };
  let receipts = PersistentMap.from(state.receipts);
  let refusals = PersistentMap.from(state.refusals);
  let expiresAt = PersistentMap.from(state.expiresAt);
  for (const key of gone) {
    receipts = receipts.without(key);
    refusals = refusals.without(key);
    expiresAt = expiresAt.without(key);
  }
  return {
    ...state,
    clock,
    expiresAt,
    receipts: receipts.size === state.receipts.size ? state.receipts : receipts,
    refusals: refusals.size === state.refusals.size ? state.refusals : refusals,
  };
}

/** `expiresAt` with `key`'s record stored now, under the declared `receiptExpiry` (if any). */
function storedNow(state: ModelState, key: string): ReadonlyMap<string, number> {
  const lifetime = state.policy.receiptExpiry;
  if (lifetime === 'never') return state.expiresAt;
  return PersistentMap.from(state.expiresAt).with(key, state.clock + lifetime);
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

function call(state: ModelState, event: CallEvent): Transition {
  const unsent = unsentOutcome(event);
  if (unsent) return { state, outcome: unsent };
  const spec = state.operation;
  const principal = state.principals[event.client];
  if (!principal) throw new RangeError(`no principal for client ${event.client}`);
  if (!principal.scopes.includes(spec.scope))
    return { state, outcome: outcome.refused('forbidden') };

  const field = invalidField(event.request, spec);
  if (field) return { state, outcome: outcome.invalid(field) };
  const requestId = event.request.requestId as string;
  const args = event.request as unknown as Args;
  const id = args[spec.targetField] as number;

  const key = receiptKey(principal.workspace, principal.user, spec.tool, requestId);
  const payload = spec.payload(args);
  const first = state.policy.idempotencyFirst;
  // Policy `idempotencyFirst`: the library answers from its store, then claims the key (a write).
  if (first) {
    const stored = storedAnswer(state, key, payload);
    if (stored) return { state, outcome: stored };
    if (state.storeFailing) return { state, outcome: outcome.error(STORE_FAILURE_MESSAGE) };
  }

  // Current access before any receipt: a moved or deleted resource never replays.
  const row = state.rows.get(id);
  if (!row || row.workspace !== principal.workspace)
    return refuse(state, key, payload, 'unavailable');

  // The receipt before the precondition: the original success may have changed what it reads
  // (for set_interval, the version it advanced).
  if (!first) {
    const stored = storedAnswer(state, key, payload);
    if (stored) return { state, outcome: stored };
  }
  const refusal = spec.precondition?.(row, args);
  if (refusal) return refuse(state, key, payload, refusal);
  if (state.storeFailing) return { state, outcome: outcome.error(STORE_FAILURE_MESSAGE) };

  const effect = spec.effect(row, args, nextCreatedId(state));
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
  let next: ModelState = {
    ...withRow(state, effect.row),
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
 * The id of the next created row: one past the largest so far (SQLite's rowid rule). For opaque
 * ids it only keys the model's rows; results show `SERVER_ASSIGNED` instead.
 */
function nextCreatedId(state: ModelState): number {
  let max = 0;
  for (const id of state.created.keys()) if (id > max) max = id;
  return max + 1;
}

/** What a stored receipt (or, under `storesRefusals`, a stored refusal) answers, if any. */
function storedAnswer(state: ModelState, key: string, payload: Payload): Observed | undefined {
  const receipt = state.receipts.get(key);
  if (receipt) {
    return samePayload(receipt.payload, payload)
      ? outcome.replayed(receipt.result)
      : outcome.keyReuse();
  }
  const refusal = state.refusals.get(key);
  if (refusal) {
    return samePayload(refusal.payload, payload)
      ? outcome.refused(refusal.reason)
      : outcome.keyReuse();
  }
  return undefined;
}

/**
 * A refusal; under `storesRefusals` it is also stored under the key, which, like a receipt
 * insert, fails while the store is failing (the caller then gets an error and nothing changes).
 */
function refuse(
  state: ModelState,
  key: string,
  payload: Payload,
  reason: RefusalReason,
): Transition {
  if (!state.policy.storesRefusals) return { state, outcome: outcome.refused(reason) };
  if (state.storeFailing) return { state, outcome: outcome.error(STORE_FAILURE_MESSAGE) };
  const refusals = PersistentMap.from(state.refusals).with(key, { payload, reason });
  return {
    state: { ...state, refusals, expiresAt: storedNow(state, key) },
    outcome: outcome.refused(reason),
  };
}

/** Whether two canonical payloads bind the same intent: the same fields with the same values. */
export function samePayload(a: Payload, b: Payload): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function withRow(state: ModelState, row: Row): ModelState {
  if (state.rows.get(row.id) === row) return state;
  const rows = new Map(state.rows);
  rows.set(row.id, row);
  return { ...state, rows };
}

function withScope(state: ModelState, client: number, granted: boolean): ModelState {
  const principals = withWriteScope(state.principals, client, granted, state.operation.scope);
  return { ...state, principals };
}
