/**
 * State fingerprints: equal worlds hash and compare equal however they were built; a change to
 * any field is seen; and every field of `ModelState` is covered, so a new one cannot slip by.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Event } from '../../model/events.ts';
import { createOnce } from '../../model/operations/create-once.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { leaveClaim, leaveError, run } from '../../model/step.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { sameState } from './same-state.ts';
import { stateHash } from './state-hash.ts';
import { stateKey } from './state-key.ts';

const write = (
  client: number,
  requestId: string,
  automationId: number,
  expectedVersion: number,
): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId, expectedVersion, intervalMinutes: 30 },
});
const initial = initialState(DEFAULT_FIXTURE, setIntervalSpec);
const reach = (events: Event[], from: ModelState = initial) => run(from, events).state;

describe('state fingerprints', () => {
  it('agree for the same world reached in different orders', () => {
    const a = reach([
      write(0, 'x', 1, 1),
      write(2, 'y', 20, 1),
      { kind: 'revoke', client: 1 },
      { kind: 'restore', client: 1 },
    ]);
    const b = reach([
      { kind: 'revoke', client: 1 },
      write(2, 'y', 20, 1),
      { kind: 'restore', client: 1 },
      write(0, 'x', 1, 1),
    ]);
    expect(a).not.toBe(b);
    expect(sameState(a, b)).toBe(true);
    expect(stateHash(a)).toBe(stateHash(b));
    expect(stateKey(a)).toBe(stateKey(b));
  });

  it('agree whether a state holds its receipts and rows in a Map or a persistent map', () => {
    const a = reach([write(0, 'x', 1, 1), write(2, 'y', 20, 1)]);
    // The same world with plain Maps and fresh row objects: nothing shared, nothing cached.
    const b: ModelState = {
      ...a,
      rows: new Map([...a.rows].map(([id, row]) => [id, { ...row }])),
      receipts: new Map([...a.receipts].map(([k, r]) => [k, { ...r }])),
    };
    expect(sameState(a, b)).toBe(true);
    expect(stateHash(b)).toBe(stateHash(a));
    const changed = reach([write(0, 'z', 1, 2)], a);
    expect(stateHash(changed)).not.toBe(stateHash(a));
  });

  it('tell apart worlds that differ in any field', () => {
    const variants: ModelState[] = [
      reach([write(0, 'x', 1, 1)]),
      reach([write(0, 'z', 1, 1)]),
      reach([{ kind: 'move', resourceId: 2, workspace: 'team-b' }]),
      reach([{ kind: 'revoke', client: 0 }]),
      reach([{ kind: 'storeFail' }]),
      reach(
        [write(0, 'x', 1, 9)],
        initialState({ ...DEFAULT_FIXTURE, policy: { storesRefusals: true } }, setIntervalSpec),
      ),
      initialState({ ...DEFAULT_FIXTURE, policy: { idempotencyFirst: true } }, setIntervalSpec),
      initialState({ ...DEFAULT_FIXTURE, policy: { receiptExpiry: 1000 } }, setIntervalSpec),
      reach(
        [{ kind: 'clockAdvance', ms: 1 }],
        initialState({ ...DEFAULT_FIXTURE, policy: { receiptExpiry: 1000 } }, setIntervalSpec),
      ),
      reach(
        [write(0, 'x', 1, 1)],
        initialState({ ...DEFAULT_FIXTURE, policy: { receiptExpiry: 1000 } }, setIntervalSpec),
      ),
      initialState({ ...DEFAULT_FIXTURE, policy: { claimExpiry: 'never' } }, setIntervalSpec),
      leaveClaim(
        initialState({ ...DEFAULT_FIXTURE, policy: { claimExpiry: 'never' } }, setIntervalSpec),
        write(0, 'x', 1, 1),
      ),
      leaveClaim(
        initialState({ ...DEFAULT_FIXTURE, policy: { claimExpiry: 'never' } }, setIntervalSpec),
        write(0, 'x', 1, 2),
      ),
      initialState({ ...DEFAULT_FIXTURE, policy: { storesErrors: true } }, setIntervalSpec),
      leaveError(
        initialState({ ...DEFAULT_FIXTURE, policy: { storesErrors: true } }, setIntervalSpec),
        write(0, 'x', 1, 1),
      ),
      leaveError(
        initialState({ ...DEFAULT_FIXTURE, policy: { storesErrors: true } }, setIntervalSpec),
        write(0, 'x', 1, 2),
      ),
    ];
    for (const [i, a] of variants.entries()) {
      expect(sameState(a, initial)).toBe(false);
      expect(stateKey(a)).not.toBe(stateKey(initial));
      for (const b of variants.slice(i + 1)) expect(sameState(a, b)).toBe(false);
    }
  });

  it('cover every field of ModelState (add a new field to state-key.ts, then here)', () => {
    expect(Object.keys(initial).sort()).toEqual([
      'claims',
      'clock',
      'created',
      'errors',
      'expiresAt',
      'operation',
      'policy',
      'principals',
      'receipts',
      'refusals',
      'rows',
      'storeFailing',
    ]);
  });

  it('tell apart created rows and operations', () => {
    const fixture = { ...createOnce.fixture, operation: createOnce.name };
    const invoice = (requestId: string, amount: number): CallEvent => ({
      kind: 'call',
      client: 0,
      delivery: 'delivered',
      request: { requestId, customerId: 1, amount },
    });
    const start = initialState(fixture, createOnce);
    const one = reach([invoice('a', 500)], start);
    const other = reach([invoice('a', 700)], start);
    expect(one.created.size).toBe(1);
    expect(sameState(one, other)).toBe(false);
    expect(stateKey(one)).not.toBe(stateKey(other));
    expect(sameState(start, initial)).toBe(false);
    const twice = reach([invoice('a', 500), invoice('b', 500)], start);
    const swapped = reach([invoice('b', 500), invoice('a', 500)], start);
    // Same invoices, but the server gave the ids in another order: not the same world.
    expect(sameState(twice, swapped)).toBe(false);
  });
});
