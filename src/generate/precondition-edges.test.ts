/**
 * Edges found by probing a spec's pure precondition: where a built-in's, a user's and a
 * zod-derived field's precondition flips against one row, the candidates a seek move sends, and
 * whether a call sits next to an edge (each side), with no hint from the spec's author.
 */
import { describe, expect, it } from 'vitest';
import { bookSeats } from '../../testing/handlers/book-seats/book-seats.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import { conflictingValues } from './conflict-values.ts';
import { edgeCandidates, edgeSideOf, flipsOf, seekableFields } from './precondition-edges.ts';
import { zodAdjustBalance } from './zod/fixtures/zod-adjust-balance-spec.ts';

const field = (spec: typeof adjustBalance, name: string) => {
  const f = spec.fields.find((x) => x.name === name);
  if (!f) throw new Error(name);
  return f;
};
const account = { id: 1, workspace: 'team-a', balance: 1000 };
const allowAll = () => true;

describe('flipsOf', () => {
  it('finds the overdraft edge at the balance, for the built-in and the zod-derived delta', () => {
    for (const spec of [adjustBalance, zodAdjustBalance]) {
      const args = { accountId: 1, delta: 1, currency: 'EUR' };
      expect(flipsOf(spec, account, [], args, field(spec, 'delta'))).toEqual([-1001]);
      expect(flipsOf(spec, { ...account, balance: 0 }, [], args, field(spec, 'delta'))).toEqual([
        -1,
      ]);
    }
  });

  it('finds both sides of an equality: the expected version one below and one above', () => {
    const row = { id: 1, workspace: 'team-a', intervalMinutes: 15, version: 7 };
    const args = { automationId: 1, expectedVersion: 1, intervalMinutes: 30 };
    expect(flipsOf(setInterval, row, [], args, field(setInterval, 'expectedVersion'))).toEqual([
      6, 7,
    ]);
  });

  it("finds a user's zod spec's edge: the booking that takes the last seat", () => {
    const show = { id: 2, workspace: 'team-a', capacity: 4, sold: 1 };
    const args = { showId: 2, seats: 1, holder: 'ann' };
    expect(flipsOf(bookSeats, show, [], args, field(bookSeats, 'seats'))).toEqual([3]);
  });

  it('finds none without a precondition, or when the precondition throws', () => {
    const customer = { id: 1, workspace: 'team-a' };
    expect(
      flipsOf(
        createOnce,
        customer,
        [],
        { customerId: 1, amount: 5 },
        createOnce.fields[1] as never,
      ),
    ).toEqual([]);
    const throws = {
      ...adjustBalance,
      precondition: () => {
        throw new Error('no');
      },
    };
    expect(
      flipsOf(throws, account, [], { accountId: 1, delta: 1 }, field(adjustBalance, 'delta')),
    ).toEqual([]);
  });
});

describe('edgeCandidates', () => {
  it('sends one below the edge, its two sides and one above, then the limits', () => {
    const delta = field(adjustBalance, 'delta');
    expect(edgeCandidates(adjustBalance, account, [], { accountId: 1, delta: 1 }, delta)).toEqual([
      -1002, -1001, -1000, -999, -1_000_000, 1_000_000,
    ]);
    // 0 breaks the non-zero rule, so it is never sent as a valid value.
    expect(
      edgeCandidates(adjustBalance, { ...account, balance: 0 }, [], { delta: 1 }, delta),
    ).toEqual([-2, -1, 1, -1_000_000, 1_000_000]);
  });

  it('sends only the limits for a missing row or an operation without a precondition', () => {
    const amount = field(createOnce, 'amount');
    expect(edgeCandidates(createOnce, { id: 1, workspace: 'team-a' }, [], {}, amount)).toEqual([
      1, 10_000_000,
    ]);
    expect(edgeCandidates(adjustBalance, undefined, [], {}, field(adjustBalance, 'delta'))).toEqual(
      [-1_000_000, 1_000_000],
    );
  });

  it('seeks on every ordered field but the target', () => {
    expect(seekableFields(setInterval).map((f) => f.name)).toEqual([
      'expectedVersion',
      'intervalMinutes',
    ]);
    expect(seekableFields(zodAdjustBalance).map((f) => f.name)).toEqual(['delta']);
  });
});

describe('edgeSideOf', () => {
  const delta = field(adjustBalance, 'delta');
  it('says which side of the edge a call sits on, and nothing away from it', () => {
    const at = (d: number) =>
      edgeSideOf(adjustBalance, account, [], { accountId: 1, delta: d }, delta);
    expect(at(-1000)).toBe('held');
    expect(at(-1001)).toBe('refused');
    expect(at(-999)).toBeUndefined();
    expect(at(250)).toBeUndefined();
  });
});

describe('conflictingValues', () => {
  const delta = field(adjustBalance, 'delta');
  it('gives debits that each fit the balance alone but not after the first', () => {
    const found = conflictingValues(
      adjustBalance,
      account,
      [],
      { accountId: 1, delta: -700 },
      delta,
      allowAll,
    );
    expect(found?.first).toBe(-700);
    for (const other of found?.others ?? []) {
      expect(1000 + other).toBeGreaterThanOrEqual(0);
      expect(300 + other).toBeLessThan(0);
    }
    expect(found?.others.length).toBeGreaterThan(0);
  });

  it('moves on from a credit to a first debit that can be crossed', () => {
    const found = conflictingValues(
      adjustBalance,
      account,
      [],
      { accountId: 1, delta: 250 },
      delta,
      allowAll,
    );
    expect(found?.first).toBeLessThan(0);
  });

  it('gives none without a precondition, or when every value is excluded', () => {
    const amount = field(createOnce, 'amount');
    expect(
      conflictingValues(
        createOnce,
        { id: 1, workspace: 'team-a' },
        [],
        { amount: 5 },
        amount,
        allowAll,
      ),
    ).toBeUndefined();
    expect(
      conflictingValues(adjustBalance, account, [], { delta: -700 }, delta, () => false),
    ).toBeUndefined();
  });
});
