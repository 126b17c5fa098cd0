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
import { type Observed, outcome, type RefusalReason } from './outcome.ts';
import { type ModelState, receiptKey } from './state.ts';
import { invalidField } from './validate.ts';
import {
  type Automation,
  type CallResult,
  type ReceiptPayload,
  TOOL,
  WRITE_SCOPE,
  withWriteScope,
} from './world.ts';

/** The interval a re-created automation starts with. */
export const RECREATED_INTERVAL = 15;

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
      const row = state.automations.get(event.automationId);
      if (!row || row.workspace === event.workspace) return { state };
      return { state: withRow(state, { ...row, workspace: event.workspace }) };
    }
    case 'delete': {
      if (!state.automations.has(event.automationId)) return { state };
      const automations = new Map(state.automations);
      automations.delete(event.automationId);
      return { state: { ...state, automations } };
    }
    case 'recreate': {
      if (state.automations.has(event.automationId)) return { state };
      const row = {
        id: event.automationId,
        workspace: event.workspace,
        intervalMinutes: RECREATED_INTERVAL,
        version: 1,
      };
      return { state: withRow(state, row) };
    }
    case 'storeFail':
    case 'storeRestore':
      return { state: { ...state, storeFailing: event.kind === 'storeFail' } };
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

function call(state: ModelState, event: CallEvent): Transition {
  const unsent = unsentOutcome(event);
  if (unsent) return { state, outcome: unsent };
  const principal = state.principals[event.client];
  if (!principal) throw new RangeError(`no principal for client ${event.client}`);
  if (!principal.scopes.includes(WRITE_SCOPE))
    return { state, outcome: outcome.refused('forbidden') };

  const field = invalidField(event.request);
  if (field) return { state, outcome: outcome.invalid(field) };
  const requestId = event.request.requestId as string;
  const id = event.request.automationId as number;
  const expectedVersion = event.request.expectedVersion as number;
  const interval = event.request.intervalMinutes as number;

  const key = receiptKey(principal.workspace, principal.user, TOOL, requestId);
  const payload: ReceiptPayload = { id, version: expectedVersion, interval };
  const first = state.policy.idempotencyFirst;
  // Policy `idempotencyFirst`: the library answers from its store, then claims the key (a write).
  if (first) {
    const stored = storedAnswer(state, key, payload);
    if (stored) return { state, outcome: stored };
    if (state.storeFailing) return { state, outcome: outcome.error(STORE_FAILURE_MESSAGE) };
  }

  // Current access before any receipt: a moved or deleted resource never replays.
  const row = state.automations.get(id);
  if (!row || row.workspace !== principal.workspace)
    return refuse(state, key, payload, 'unavailable');

  // The receipt before the version: the original success already advanced the version.
  if (!first) {
    const stored = storedAnswer(state, key, payload);
    if (stored) return { state, outcome: stored };
  }
  if (row.version !== expectedVersion) return refuse(state, key, payload, 'conflict');
  if (state.storeFailing) return { state, outcome: outcome.error(STORE_FAILURE_MESSAGE) };

  const updated: Automation = { ...row, intervalMinutes: interval, version: row.version + 1 };
  const result: CallResult = { id, intervalMinutes: interval, version: updated.version };
  const receipts = new Map(state.receipts);
  receipts.set(key, {
    workspace: principal.workspace,
    user: principal.user,
    tool: TOOL,
    requestId,
    payload,
    result,
  });
  return { state: { ...withRow(state, updated), receipts }, outcome: outcome.fresh(result) };
}

/** What a stored receipt (or, under `storesRefusals`, a stored refusal) answers, if any. */
function storedAnswer(
  state: ModelState,
  key: string,
  payload: ReceiptPayload,
): Observed | undefined {
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
  payload: ReceiptPayload,
  reason: RefusalReason,
): Transition {
  if (!state.policy.storesRefusals) return { state, outcome: outcome.refused(reason) };
  if (state.storeFailing) return { state, outcome: outcome.error(STORE_FAILURE_MESSAGE) };
  const refusals = new Map(state.refusals);
  refusals.set(key, { payload, reason });
  return { state: { ...state, refusals }, outcome: outcome.refused(reason) };
}

/** Whether two canonical payloads bind the same intent. */
export function samePayload(a: ReceiptPayload, b: ReceiptPayload): boolean {
  return a.id === b.id && a.version === b.version && a.interval === b.interval;
}

function withRow(state: ModelState, row: Automation): ModelState {
  const automations = new Map(state.automations);
  automations.set(row.id, row);
  return { ...state, automations };
}

function withScope(state: ModelState, client: number, granted: boolean): ModelState {
  return { ...state, principals: withWriteScope(state.principals, client, granted) };
}
