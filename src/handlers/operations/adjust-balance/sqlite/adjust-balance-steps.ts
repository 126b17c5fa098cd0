/**
 * `adjust-balance` in SQL: the account is the target (rule 4), the payload binds account and
 * delta, the precondition reads the balance inside the transaction (after the receipt lookup,
 * since the original debit may have lowered it), and the effect adds the delta in one UPDATE.
 * Everything else is the generic steps' (`operation-steps.ts`); mutants swap one of them.
 */
import { adjustBalance } from '../../../../model/operations/adjust-balance.ts';
import type { Connection } from '../../../plugin.ts';
import type { OperationParts } from '../../../sqlite/operation-handler.ts';
import {
  type OperationSql,
  referenceStepsOf,
  type ValidCall,
} from '../../../sqlite/operation-steps.ts';
import { cachedStatement } from '../../../sqlite/statement-cache.ts';
import { adjustBalanceWorld } from './adjust-balance-world.ts';

/** An `adjust_balance.v1` call after validation. */
export interface AdjustRequest extends ValidCall {
  readonly accountId: number;
  readonly delta: number;
}

/** The canonical payload: the account and the signed delta, the model's field names. */
export function adjustPayload(r: AdjustRequest): { account: number; delta: number } {
  return { account: r.accountId, delta: r.delta };
}

/** The account's balance now (the caller has checked it exists). */
export function balanceOf(db: Connection, accountId: number): number {
  const row = cachedStatement(db, 'SELECT balance FROM accounts WHERE id = ?').get(accountId) as {
    balance: number;
  };
  return row.balance;
}

/** The refusal when `delta` would take `balance` below zero. */
export function insufficient(balance: number, delta: number): 'insufficient' | undefined {
  return balance + delta < 0 ? 'insufficient' : undefined;
}

/** What differs for `adjust-balance`: the target, the payload, the precondition and the update. */
export const adjustBalanceSql: OperationSql<AdjustRequest> = {
  spec: adjustBalance,
  targetOf: (r) => r.accountId,
  payloadOf: adjustPayload,
  precondition: (db, _caller, r) => insufficient(balanceOf(db, r.accountId), r.delta),
  applyEffect(db, _caller, r) {
    const row = cachedStatement(
      db,
      'UPDATE accounts SET balance = balance + ? WHERE id = ? RETURNING id, balance',
    ).get(r.delta, r.accountId) as { id: number; balance: number };
    return { accountId: row.id, balance: row.balance };
  },
};

/** The reference's steps for `adjust-balance`. */
export const adjustBalanceSteps = referenceStepsOf(adjustBalanceSql);

/** The SQL and the world, for `defineOperationMutant`. */
export const adjustBalanceParts: OperationParts<AdjustRequest> = {
  op: adjustBalanceSql,
  world: adjustBalanceWorld,
};
