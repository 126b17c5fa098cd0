/**
 * The claim model (policy `claimExpiry`): a crash right after a library's claim committed may
 * leave the key claimed. A claim answers its key as in progress (`refused: conflict`, or
 * `keyReuse` for another payload) until it expires ('never': for good; N: once more than N ms
 * have passed on the clock); under the contract (`'noClaim'`) a crash can leave nothing.
 */
import { describe, expect, it } from 'vitest';
import { sameState } from '../check/linearizability/same-state.ts';
import type { CallEvent, Event } from './events.ts';
import { setInterval as setIntervalSpec } from './operations/set-interval.ts';
import { outcome } from './outcome.ts';
import {
  CONTRACT_POLICY,
  declaresExpiry,
  expiryLifetime,
  type PolicyDeclaration,
  resolvePolicy,
} from './policy.ts';
import { initialState, type ModelState } from './state.ts';
import { allowedAnswer, leaveClaim, run, step } from './step.ts';
import { DEFAULT_FIXTURE } from './world.ts';

const BUDGET = 5_000;
const call = (requestId: string, expectedVersion: number, intervalMinutes = 30): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion, intervalMinutes },
});
const tick = (ms: number): Event => ({ kind: 'clockAdvance', ms });
const under = (policy: PolicyDeclaration) =>
  initialState({ ...DEFAULT_FIXTURE, policy: resolvePolicy(policy) }, setIntervalSpec);
const FRESH = outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 });
const IN_PROGRESS = outcome.refused('conflict');

/** `state` after `call('r1', 1)` crashed right after its claim. */
const crashed = (state: ModelState) => leaveClaim(state, call('r1', 1));

describe('claims a crash leaves (claimExpiry)', () => {
  it('noClaim, the contract: a crash leaves nothing, so the retry is fresh', () => {
    const initial = initialState(DEFAULT_FIXTURE, setIntervalSpec);
    expect(crashed(initial)).toBe(initial);
    expect(run(crashed(initial), [call('r1', 1)]).outcomes).toEqual([FRESH]);
  });

  it('never: the retry, and every later one, is in progress; another payload is key reuse', () => {
    const state = crashed(under({ claimExpiry: 'never' }));
    expect(state.claims.size).toBe(1);
    const { outcomes, state: after } = run(state, [
      call('r1', 1),
      call('r1', 1),
      call('r1', 1, 45),
      call('r2', 1),
    ]);
    expect(outcomes).toEqual([IN_PROGRESS, IN_PROGRESS, outcome.keyReuse(), FRESH]);
    expect(after.receipts.size).toBe(1);
  });

  it('another payload may also be told in progress: the contract leaves the order of checks open', () => {
    const state = crashed(under({ claimExpiry: 'never' }));
    const reuse = step(state, call('r1', 1, 45));
    expect(reuse).toEqual({ state, outcome: outcome.keyReuse(), alsoAllowed: IN_PROGRESS });
    expect(allowedAnswer(reuse, IN_PROGRESS)).toEqual(IN_PROGRESS);
    expect(allowedAnswer(reuse, outcome.keyReuse())).toEqual(outcome.keyReuse());
    expect(allowedAnswer(reuse, outcome.refused('unavailable'))).toBeUndefined();
    // The claim's own payload has one answer only.
    expect(step(state, call('r1', 1)).alsoAllowed).toBeUndefined();
  });

  it('never: time does not free the key (with a receipt expiry making the clock run)', () => {
    const state = crashed(under({ claimExpiry: 'never', receiptExpiry: BUDGET }));
    expect(run(state, [tick(100 * BUDGET), call('r1', 1)]).outcomes).toEqual([IN_PROGRESS]);
  });

  it('after N: in progress until more than N ms have passed, then the retry runs as new', () => {
    const state = crashed(under({ claimExpiry: BUDGET }));
    const { outcomes, state: after } = run(state, [
      call('r1', 1),
      tick(BUDGET),
      call('r1', 1), // exactly N: not yet past it
      tick(1),
      call('r1', 1),
    ]);
    expect(outcomes).toEqual([IN_PROGRESS, IN_PROGRESS, FRESH]);
    expect(after.claims.size).toBe(0);
  });

  it('counts from the claim, on the clock as it was then', () => {
    const state = crashed(run(under({ claimExpiry: BUDGET }), [tick(3 * BUDGET)]).state);
    expect([...state.claims.values()][0]?.expiresAt).toBe(4 * BUDGET);
  });

  it('leaves nothing where the call would not have claimed', () => {
    const policy = under({ claimExpiry: 'never', idempotencyFirst: true });
    const answered = run(policy, [call('r1', 1)]).state;
    expect(leaveClaim(answered, call('r1', 1))).toBe(answered);
    const failing = run(policy, [{ kind: 'storeFail' }]).state;
    expect(leaveClaim(failing, call('r1', 1))).toBe(failing);
    const revoked = run(policy, [{ kind: 'revoke', client: 0 }]).state;
    expect(leaveClaim(revoked, call('r1', 1))).toBe(revoked);
    expect(leaveClaim(policy, call('r1', 0))).toBe(policy); // invalid expected version
    // Claim after the access check (idempotencyFirst off): a deleted target is never claimed.
    const deleted = run(under({ claimExpiry: 'never' }), [{ kind: 'delete', resourceId: 1 }]);
    expect(leaveClaim(deleted.state, call('r1', 1))).toBe(deleted.state);
    // idempotencyFirst: the layer claims before the business function looks at the row.
    const firstDeleted = run(policy, [{ kind: 'delete', resourceId: 1 }]).state;
    expect(leaveClaim(firstDeleted, call('r1', 1)).claims.size).toBe(1);
  });

  it('keeps claims in the state key', () => {
    const initial = under({ claimExpiry: BUDGET });
    expect(sameState(crashed(initial), initial)).toBe(false);
    expect(sameState(crashed(initial), crashed(initial))).toBe(true);
  });

  it('declares an expiry, for clock advances, only for a number of ms', () => {
    expect(declaresExpiry(resolvePolicy({ claimExpiry: 'never' }))).toBe(false);
    expect(declaresExpiry(resolvePolicy({ claimExpiry: BUDGET }))).toBe(true);
    expect(expiryLifetime(resolvePolicy({ claimExpiry: BUDGET }))).toBe(BUDGET);
    expect(expiryLifetime(resolvePolicy({ claimExpiry: BUDGET, receiptExpiry: 9 * BUDGET }))).toBe(
      9 * BUDGET,
    );
  });

  it.each([0, -5, 1.5, 'forever', null])('refuses claimExpiry %j', (value) => {
    expect(() => resolvePolicy({ claimExpiry: value as number })).toThrow(
      "'noClaim', 'never' or a positive whole number of ms",
    );
  });

  it('defaults to noClaim, the contract', () => {
    expect(CONTRACT_POLICY.claimExpiry).toBe('noClaim');
    expect(resolvePolicy({}).claimExpiry).toBe('noClaim');
  });
});
