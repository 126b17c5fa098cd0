/**
 * The other built-in operations' business writes, as the adapter kit exports them: each applies
 * its effect once and returns the receipt document, and throws the operation's refusal (target
 * unavailable, `insufficient`) with nothing changed.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { adjustBalance } from '../../model/operations/adjust-balance.ts';
import { createOnce } from '../../model/operations/create-once.ts';
import type { Principal } from '../../model/world.ts';
import { adjustBalanceWorld } from '../operations/adjust-balance/sqlite/adjust-balance-world.ts';
import { createOnceWorld } from '../operations/create-once/sqlite/create-once-world.ts';
import { Refusal } from './business-write.ts';
import { adjustBalanceWrite, createOnceWrite, operationPrecheck } from './operation-write.ts';

const alice = { user: 'alice', workspace: 'team-a' };

describe('createOnceWrite', () => {
  it('creates one invoice per call and returns its receipt document', () => {
    const db = new Database(':memory:');
    createOnceWorld.setup(db, createOnce.fixture);
    const receipt = createOnceWrite(db, alice, { requestId: 'r1', customerId: 1, amount: 500 });
    expect(receipt).toMatchObject({
      tool: createOnce.tool,
      requestId: 'r1',
      payload: { customer: 1, amount: 500 },
      result: { customerId: 1, amount: 500 },
    });
    expect(createOnceWorld.snapshot(db).invoices).toHaveLength(1);
    db.close();
  });

  it("refuses a customer outside the caller's workspace, creating nothing", () => {
    const db = new Database(':memory:');
    createOnceWorld.setup(db, createOnce.fixture);
    const call = () => createOnceWrite(db, alice, { requestId: 'r1', customerId: 20, amount: 5 });
    expect(call).toThrow(new Refusal('unavailable'));
    expect(createOnceWorld.snapshot(db).invoices).toEqual([]);
    db.close();
  });
});

describe('adjustBalanceWrite', () => {
  it('applies the delta, or refuses an overdraft as insufficient with nothing changed', () => {
    const db = new Database(':memory:');
    adjustBalanceWorld.setup(db, adjustBalance.fixture);
    const before = adjustBalanceWorld.snapshot(db).accounts;
    expect(() =>
      adjustBalanceWrite(db, alice, { requestId: 'r1', accountId: 1, delta: -1_000_000 }),
    ).toThrow(new Refusal('insufficient'));
    expect(adjustBalanceWorld.snapshot(db).accounts).toEqual(before);
    const receipt = adjustBalanceWrite(db, alice, { requestId: 'r2', accountId: 1, delta: 250 });
    expect(receipt.result).toMatchObject({ accountId: 1 });
    expect(receipt.payload).toEqual({ account: 1, delta: 250 });
    db.close();
  });
});

describe('operationPrecheck', () => {
  const reader: Principal = { ...alice, scopes: ['account:read'] };
  const writer: Principal = { ...alice, scopes: ['account:write'] };

  it('refuses a missing scope, then names an invalid field, else passes the request on', () => {
    const request = { requestId: 'r1', accountId: 1, delta: 5 };
    expect(operationPrecheck(adjustBalance, reader, request)).toEqual({
      kind: 'refused',
      reason: 'forbidden',
    });
    expect(operationPrecheck(adjustBalance, writer, { ...request, delta: 0 })).toEqual({
      kind: 'invalid',
      field: 'delta',
    });
    expect(operationPrecheck(adjustBalance, writer, request)).toBe(request);
  });
});
