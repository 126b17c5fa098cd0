/**
 * The expiry model: under a declared `receiptExpiry`, a receipt (and a stored refusal) is gone
 * once more than its lifetime has passed on the clock, and only `clockAdvance` moves the clock;
 * under the contract (`'never'`) time changes nothing. Bad declarations are refused.
 */
import { describe, expect, it } from 'vitest';
import { sameState } from '../check/linearizability/same-state.ts';
import { stateKey } from '../check/linearizability/state-key.ts';
import type { CallEvent, Event } from './events.ts';
import { setInterval as setIntervalSpec } from './operations/set-interval.ts';
import { outcome } from './outcome.ts';
import { CONTRACT_POLICY, type PolicyDeclaration, resolvePolicy } from './policy.ts';
import { initialState } from './state.ts';
import { run } from './step.ts';
import { DEFAULT_FIXTURE } from './world.ts';

const HOUR = 3_600_000;
const call = (requestId: string, expectedVersion: number, automationId = 1): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId, expectedVersion, intervalMinutes: 30 },
});
const tick = (ms: number): Event => ({ kind: 'clockAdvance', ms });
const under = (policy: PolicyDeclaration) =>
  initialState({ ...DEFAULT_FIXTURE, policy: resolvePolicy(policy) }, setIntervalSpec);
const FRESH = outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 });
const REPLAYED = outcome.replayed({ id: 1, intervalMinutes: 30, version: 2 });

describe('receipt expiry', () => {
  it('never, the contract: a retry replays however much time passes, and time leaves the state as it was', () => {
    const initial = initialState(DEFAULT_FIXTURE, setIntervalSpec);
    const { state, outcomes } = run(initial, [call('r1', 1), tick(100 * HOUR), call('r1', 1)]);
    expect(outcomes).toEqual([FRESH, REPLAYED]);
    expect(state.clock).toBe(0);
    expect(sameState(state, run(initial, [call('r1', 1)]).state)).toBe(true);
  });

  it('after N: a retry within N replays; past N the receipt is gone and the retry runs as new', () => {
    const initial = under({ receiptExpiry: HOUR });
    const { state, outcomes } = run(initial, [
      call('r1', 1),
      tick(HOUR / 2),
      call('r1', 1),
      tick(HOUR / 2),
      call('r1', 1), // exactly N: not yet past it
      tick(1),
      call('r1', 1), // past N: re-executed, and the version it expects has moved on
    ]);
    expect(outcomes).toEqual([FRESH, REPLAYED, REPLAYED, outcome.refused('conflict')]);
    expect(state.receipts.size).toBe(0);
    expect(state.expiresAt.size).toBe(0);
    expect(state.clock).toBe(HOUR + 1);
  });

  it('counts each receipt from its own commit', () => {
    const { state, outcomes } = run(under({ receiptExpiry: HOUR }), [
      call('a', 1),
      tick(HOUR / 2),
      call('b', 2),
      tick(HOUR / 2 + 1),
      call('a', 1), // a's receipt is gone: re-executed against version 3
      call('b', 2), // b's is not: replayed
    ]);
    expect(outcomes).toEqual([
      FRESH,
      outcome.fresh({ id: 1, intervalMinutes: 30, version: 3 }),
      outcome.refused('conflict'),
      outcome.replayed({ id: 1, intervalMinutes: 30, version: 3 }),
    ]);
    expect([...state.expiresAt.values()]).toEqual([HOUR / 2 + HOUR]);
  });

  it('applies to stored refusals too (storesRefusals)', () => {
    const { outcomes } = run(under({ receiptExpiry: HOUR, storesRefusals: true }), [
      call('r1', 9),
      call('r1', 9),
      tick(HOUR + 1),
      call('r1', 9, 1),
    ]);
    expect(outcomes).toEqual([
      outcome.refused('conflict'),
      outcome.refused('conflict'),
      outcome.refused('conflict'),
    ]);
    const reuse = run(under({ receiptExpiry: HOUR, storesRefusals: true }), [
      call('r1', 9),
      tick(HOUR + 1),
      call('r1', 1), // a changed payload: key reuse while stored, a fresh call once gone
    ]);
    expect(reuse.outcomes).toEqual([outcome.refused('conflict'), FRESH]);
  });

  it('keeps the clock and expiry times in the state key', () => {
    const initial = under({ receiptExpiry: HOUR });
    const a = run(initial, [call('r1', 1)]).state;
    const b = run(initial, [tick(1), call('r1', 1)]).state;
    expect(sameState(a, b)).toBe(false);
    expect(stateKey(a)).not.toBe(stateKey(b));
    expect(stateKey(b)).toContain('clock 1');
    expect(stateKey(initial)).not.toBe(stateKey(initialState(DEFAULT_FIXTURE, setIntervalSpec)));
  });

  it.each([
    [0, 'positive whole number'],
    [-5, 'positive whole number'],
    [1.5, 'positive whole number'],
    ['forever', 'positive whole number'],
  ])('refuses receiptExpiry %j', (value, message) => {
    expect(() => resolvePolicy({ receiptExpiry: value as number })).toThrow(message);
  });

  it('defaults to never, the contract', () => {
    expect(CONTRACT_POLICY.receiptExpiry).toBe('never');
    expect(resolvePolicy({}).receiptExpiry).toBe('never');
  });
});
