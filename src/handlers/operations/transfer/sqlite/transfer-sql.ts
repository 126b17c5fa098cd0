/**
 * `transfer` in SQL: two target accounts, the debited one first (rule 4 checks both), a payload
 * binding both accounts and the amount, the precondition on the debited balance (read inside the
 * transaction, after the receipt lookup), and the effect as two legs, a debit and a credit, in
 * the caller's one transaction. Everything else is the generic steps' (`operation-steps.ts`);
 * mutants swap a step or a leg.
 */
import { transfer } from '../../../../model/operations/transfer.ts';
import type { Result } from '../../../../model/world.ts';
import type { Connection } from '../../../plugin.ts';
import type { OperationParts } from '../../../sqlite/operation-handler.ts';
import {
  type OperationSql,
  referenceStepsOf,
  type ValidCall,
} from '../../../sqlite/operation-steps.ts';
import { cachedStatement } from '../../../sqlite/statement-cache.ts';
import { transferWorld } from './transfer-world.ts';

/** A `transfer.v1` call after validation: two distinct accounts and a positive amount. */
export interface TransferRequest extends ValidCall {
  readonly fromAccountId: number;
  readonly toAccountId: number;
  readonly amount: number;
}

/** The canonical payload: both accounts and the amount, the model's field names. */
export function transferPayload(r: TransferRequest): { from: number; to: number; amount: number } {
  return { from: r.fromAccountId, to: r.toAccountId, amount: r.amount };
}

/** The refusal when moving `amount` would take the debited `balance` below zero. */
export function insufficientFunds(balance: number, amount: number): 'insufficient' | undefined {
  return balance - amount < 0 ? 'insufficient' : undefined;
}

/** One leg: adds `delta` to account `id`'s balance; returns the new balance. */
export function postLeg(db: Connection, id: number, delta: number): number {
  const row = cachedStatement(
    db,
    'UPDATE accounts SET balance = balance + ? WHERE id = ? RETURNING balance',
  ).get(delta, id) as { balance: number };
  return row.balance;
}

/** The result a transfer stores and answers: both accounts with their balances after it. */
export function transferResult(r: TransferRequest, fromBalance: number, toBalance: number): Result {
  return { fromAccountId: r.fromAccountId, fromBalance, toAccountId: r.toAccountId, toBalance };
}

/** What differs for `transfer`: the targets, the payload, the precondition and the two legs. */
export const transferSql: OperationSql<TransferRequest> = {
  spec: transfer,
  targetOf: (r) => r.fromAccountId,
  targetsOf: (r) => [r.fromAccountId, r.toAccountId],
  payloadOf: transferPayload,
  precondition(db, _caller, r) {
    const row = cachedStatement(db, 'SELECT balance FROM accounts WHERE id = ?').get(
      r.fromAccountId,
    ) as { balance: number };
    return insufficientFunds(row.balance, r.amount);
  },
  applyEffect(db, _caller, r) {
    const fromBalance = postLeg(db, r.fromAccountId, -r.amount);
    const toBalance = postLeg(db, r.toAccountId, r.amount);
    return transferResult(r, fromBalance, toBalance);
  },
};

/** The reference's steps for `transfer`. */
export const transferSteps = referenceStepsOf(transferSql);

/** The SQL and the world, for `defineOperationMutant`. */
export const transferParts: OperationParts<TransferRequest> = {
  op: transferSql,
  world: transferWorld,
};
