/**
 * The stored-error model (policy `storesErrors`): an error a library recorded under its key
 * answers that key like a result: `error` again for the same payload, `keyReuse` for another, for
 * the receipts' lifetime. Only the scheduled checker's reading of a faulted call records one
 * (`leaveError`); the model's own errors come from the store failing, which cannot record them.
 * Under the contract an error records nothing and a retry runs again.
 */
import { describe, expect, it } from 'vitest';
import { sameState } from '../check/linearizability/same-state.ts';
import type { CallEvent, Event } from './events.ts';
import { setInterval as setIntervalSpec } from './operations/set-interval.ts';
import { outcome } from './outcome.ts';
import { type PolicyDeclaration, resolvePolicy } from './policy.ts';
import { initialState, type ModelState } from './state.ts';
import { leaveError, run, STORED_ERROR_MESSAGE } from './step.ts';
import { DEFAULT_FIXTURE } from './world.ts';

const HOUR = 3_600_000;
const call = (requestId: string, intervalMinutes = 30, client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes },
});
const tick = (ms: number): Event => ({ kind: 'clockAdvance', ms });
const under = (policy: PolicyDeclaration) =>
  initialState({ ...DEFAULT_FIXTURE, policy: resolvePolicy(policy) }, setIntervalSpec);
const FRESH = outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 });
const STORED = outcome.error(STORED_ERROR_MESSAGE);

/** `state` after `call('r1')` answered error and its library recorded it. */
const errored = (state: ModelState) => leaveError(state, call('r1'));

describe('stored errors (storesErrors)', () => {
  it('the contract: an error records nothing, so the retry runs again', () => {
    const initial = initialState(DEFAULT_FIXTURE, setIntervalSpec);
    expect(errored(initial)).toBe(initial);
    expect(run(errored(initial), [call('r1')]).outcomes).toEqual([FRESH]);
  });

  it('declared: the retry gets the error again, another payload is key reuse, and nothing else changed', () => {
    const initial = under({ storesErrors: true });
    const state = errored(initial);
    expect(state.errors.size).toBe(1);
    expect(state.rows).toBe(initial.rows);
    expect(state.receipts.size).toBe(0);
    const { outcomes, state: after } = run(state, [
      call('r1'),
      call('r1'),
      call('r1', 45),
      call('r2'),
    ]);
    expect(outcomes).toEqual([STORED, STORED, outcome.keyReuse(), FRESH]);
    expect(after.errors).toBe(state.errors);
  });

  it('is answered before the version check, as a stored answer is (another key is refused by it)', () => {
    const state = run(errored(under({ storesErrors: true })), [call('r2')]).state;
    expect(run(state, [call('r1'), call('r3')]).outcomes).toEqual([
      STORED,
      outcome.refused('conflict'),
    ]);
  });

  it('records nothing where the call could not have reached its key', () => {
    const declared = under({ storesErrors: true });
    const failing = run(declared, [{ kind: 'storeFail' }]).state;
    // The store failing: recording the error is a write to that store.
    expect(errored(failing)).toBe(failing);
    // Refused at the edge, invalid, or answered from the store.
    const revoked = run(declared, [{ kind: 'revoke', client: 0 }]).state;
    expect(errored(revoked)).toBe(revoked);
    const invalid: CallEvent = { ...call('r1'), request: { ...call('r1').request, requestId: '' } };
    expect(leaveError(declared, invalid)).toBe(declared);
    const written = run(declared, [call('r1')]).state;
    expect(errored(written)).toBe(written);
  });

  it('the model itself never records one: a store-failure error leaves a retry fresh', () => {
    const { outcomes, state } = run(under({ storesErrors: true }), [
      { kind: 'storeFail' },
      call('r1'),
      { kind: 'storeRestore' },
      call('r1'),
    ]);
    expect(outcomes).toEqual([outcome.error('receipt store unavailable'), FRESH]);
    expect(state.errors.size).toBe(0);
  });

  it('lives as long as a receipt: gone once more than receiptExpiry has passed', () => {
    const state = errored(under({ storesErrors: true, receiptExpiry: HOUR }));
    const { outcomes, state: after } = run(state, [
      call('r1'),
      tick(HOUR),
      call('r1'),
      tick(1),
      call('r1'),
    ]);
    expect(outcomes).toEqual([STORED, STORED, FRESH]);
    expect(after.errors.size).toBe(0);
    expect(after.expiresAt.size).toBe(1); // the new receipt's
  });

  it('is part of the state: a stored error is not the state without it', () => {
    const initial = under({ storesErrors: true });
    expect(sameState(errored(initial), initial)).toBe(false);
    expect(sameState(errored(initial), errored(initial))).toBe(true);
  });

  it('is a boolean switch', () => {
    expect(resolvePolicy({ storesErrors: true }).storesErrors).toBe(true);
    expect(resolvePolicy(undefined).storesErrors).toBe(false);
    expect(() => resolvePolicy({ storesErrors: 'yes' as unknown as boolean }, 'h')).toThrow(
      /policy\.storesErrors must be a boolean/,
    );
  });
});
