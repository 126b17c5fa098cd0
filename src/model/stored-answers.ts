/**
 * What a key already holds answers, for `step`: a stored receipt replays (or is key reuse for
 * another payload), and under the declared policy a stored refusal, a stored error or a claim a
 * crash left answers too; and how a refusal is stored (`storesRefusals`). Pure, like `step`.
 */
import { PersistentMap } from '../lib/persistent-map.ts';
import type { Payload } from './operation.ts';
import { type Observed, outcome, type RefusalReason } from './outcome.ts';
import type { ModelState } from './state.ts';
import type { Transition } from './transition.ts';

/** The message the model attaches to a receipt-store failure (messages are never compared). */
export const STORE_FAILURE_MESSAGE = 'receipt store unavailable';

/**
 * The message the model attaches to an error replayed from the store (policy `storesErrors`), so
 * a report can tell it from a store failure (messages are never compared).
 */
export const STORED_ERROR_MESSAGE = 'the error stored under this key';

const STORED_ERROR: Observed = outcome.error(STORED_ERROR_MESSAGE);

/** `expiresAt` with `key`'s record stored now, under the declared `receiptExpiry` (if any). */
export function storedNow(state: ModelState, key: string): ReadonlyMap<string, number> {
  const lifetime = state.policy.receiptExpiry;
  if (lifetime === 'never') return state.expiresAt;
  return PersistentMap.from(state.expiresAt).with(key, state.clock + lifetime);
}

/**
 * What a stored receipt (or, under `storesRefusals`, a stored refusal; under `storesErrors`, a
 * stored error) answers, if any, with the state unchanged; else what a claim a crash left (policy `claimExpiry`) answers: in progress for
 * the same payload; for another, `keyReuse` or, just as allowed, `refused: conflict` (the contract
 * leaves open which a library checks first: powertools and express-idempotency compare the payload
 * first, `@node-idempotency/core` answers an in-progress record 409 before it looks at the
 * fingerprint).
 */
export function storedAnswer(
  state: ModelState,
  key: string,
  payload: Payload,
): Transition | undefined {
  const receipt = state.receipts.get(key);
  if (receipt) {
    const same = samePayload(receipt.payload, payload);
    return { state, outcome: same ? outcome.replayed(receipt.result) : outcome.keyReuse() };
  }
  const refusal = state.refusals.get(key);
  if (refusal) {
    const same = samePayload(refusal.payload, payload);
    return { state, outcome: same ? outcome.refused(refusal.reason) : outcome.keyReuse() };
  }
  const error = state.errors.get(key);
  if (error) {
    const same = samePayload(error.payload, payload);
    return { state, outcome: same ? STORED_ERROR : outcome.keyReuse() };
  }
  const claim = state.claims.get(key);
  if (claim) {
    if (samePayload(claim.payload, payload)) return { state, outcome: IN_PROGRESS };
    return { state, outcome: outcome.keyReuse(), alsoAllowed: IN_PROGRESS };
  }
  return undefined;
}

/** What a claim answers its own payload: in progress, try later. */
const IN_PROGRESS: Observed = outcome.refused('conflict');

/**
 * A refusal; under `storesRefusals` it is also stored under the key, which, like a receipt
 * insert, fails while the store is failing (the caller then gets an error and nothing changes).
 */
export function refuse(
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
