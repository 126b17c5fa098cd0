/** The model's clock: what moving it on drops from the store (declared expiries). Pure. */
import { PersistentMap } from '../lib/persistent-map.ts';
import { declaresExpiry } from './policy.ts';
import type { ModelState, StoredClaim, StoredError } from './state.ts';

/**
 * Moves the clock on by `ms` and drops every receipt, stored refusal, stored error and claim
 * whose declared lifetime has run out. Under a policy with no expiry nothing depends on time: the
 * state stays as it is.
 */
export function advanceClock(state: ModelState, ms: number): ModelState {
  if (!declaresExpiry(state.policy) || ms <= 0) return state;
  const clock = state.clock + ms;
  const lapsed = [...state.claims].filter(([, c]) => c.expiresAt !== null && clock > c.expiresAt);
  const claims = lapsed.length === 0 ? state.claims : new Map(state.claims);
  for (const [key] of lapsed) (claims as Map<string, StoredClaim>).delete(key);
  const gone = [...state.expiresAt].filter(([, at]) => clock > at).map(([key]) => key);
  if (gone.length === 0) return { ...state, clock, claims };
  let receipts = PersistentMap.from(state.receipts);
  let refusals = PersistentMap.from(state.refusals);
  let expiresAt = PersistentMap.from(state.expiresAt);
  const errors = gone.some((key) => state.errors.has(key)) ? new Map(state.errors) : state.errors;
  for (const key of gone) {
    receipts = receipts.without(key);
    refusals = refusals.without(key);
    expiresAt = expiresAt.without(key);
    if (errors !== state.errors) (errors as Map<string, StoredError>).delete(key);
  }
  return {
    ...state,
    clock,
    claims,
    errors,
    expiresAt,
    receipts: receipts.size === state.receipts.size ? state.receipts : receipts,
    refusals: refusals.size === state.refusals.size ? state.refusals : refusals,
  };
}
