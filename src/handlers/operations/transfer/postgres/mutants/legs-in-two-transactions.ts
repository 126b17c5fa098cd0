/**
 * PostgreSQL mutant (transfer): the legs in two transactions. The first takes the key's advisory
 * lock and both accounts (in id order), checks the receipt and the balance, and commits the
 * debit; the second posts the credit and inserts the receipt. When the second fails (the receipt
 * store failing, a crash between the commits) the debit stays without its credit or receipt, and
 * a retry debits again.
 * Real-world class: a multi-row write split across commits (a service call per leg).
 * Killed by: scheduled mode (the store fails, a transfer: `error`, but the debit committed).
 */
import type { CallRequest } from '../../../../../model/events.ts';
import { type Outcome, outcome } from '../../../../../model/outcome.ts';
import type { Principal } from '../../../../../model/world.ts';
import { answerBeforeEffect } from '../../../../postgres/operation-call.ts';
import { pgKey } from '../../../../postgres/pg-text.ts';
import { definePostgresHandler, type PgConnection } from '../../../../postgres/plugin.ts';
import { inPostgresTransaction } from '../../../../postgres/transaction.ts';
import { precheckOf } from '../../../../sqlite/operation-handler.ts';
import { keyOf } from '../../../../sqlite/operation-steps.ts';
import { canonicalText } from '../../../../sqlite/receipt-store.ts';
import { type TransferRequest, transferResult } from '../../sqlite/transfer-sql.ts';
import { postPgLeg, transferPgSql, transferPgWorld } from '../transfer-pg-sql.ts';

const op = transferPgSql;

async function call(db: PgConnection, caller: Principal, request: CallRequest): Promise<Outcome> {
  const early = precheckOf(op.spec, caller, request);
  if (early) return early;
  const r = request as unknown as TransferRequest;
  const key = keyOf(op.spec, caller, r);
  let fromBalance: number | undefined;
  const first = await inPostgresTransaction(db, async () => {
    const answered = await answerBeforeEffect(db, caller, r, op);
    if (answered) return answered;
    fromBalance = await postPgLeg(db, r.fromAccountId, -r.amount);
    return outcome.fresh({});
  });
  if (fromBalance === undefined || first.kind !== 'ok' || first.replayed) return first;
  const debited = fromBalance;
  // The bug: the debit has committed; the credit and the receipt commit (or fail) on their own.
  return inPostgresTransaction(db, async () => {
    const result = transferResult(r, debited, await postPgLeg(db, r.toAccountId, r.amount));
    await db.query('INSERT INTO receipts VALUES ($1, $2, $3, $4, $5, $6)', [
      ...pgKey(key),
      canonicalText(op.payloadOf(r)),
      canonicalText(result),
    ]);
    return outcome.fresh(result);
  });
}

export default definePostgresHandler({
  name: 'transfer-pg-legs-in-two-transactions',
  description:
    'Commits the debit in one transaction and the credit with the receipt in a second, so a failure of the second leaves the debit alone.',
  operation: 'transfer',
  ...transferPgWorld,
  call,
});
