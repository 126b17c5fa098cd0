/**
 * `transfer` on PostgreSQL: the generic transaction (`postgres/operation-call.ts`) with both
 * accounts locked `FOR UPDATE` in ascending id order as access is checked, whatever order the
 * call names them in, so two opposite transfers queue instead of deadlocking; then the debited
 * balance, and the two legs. The request, payload and result are SQLite's (`../sqlite/`).
 */
import { transfer } from '../../../../model/operations/transfer.ts';
import type { PostgresOperationSql } from '../../../postgres/operation-call.ts';
import { postgresOperationWorld } from '../../../postgres/operation-world.ts';
import type { PgConnection } from '../../../postgres/plugin.ts';
import {
  insufficientFunds,
  type TransferRequest,
  transferPayload,
  transferResult,
} from '../sqlite/transfer-sql.ts';

/** One leg on PostgreSQL: adds `delta` to account `id`'s balance; returns the new balance. */
export async function postPgLeg(db: PgConnection, id: number, delta: number): Promise<number> {
  const { rows } = await db.query<{ balance: number }>(
    'UPDATE accounts SET balance = balance + $1 WHERE id = $2 RETURNING balance',
    [delta, id],
  );
  return (rows[0] as { balance: number }).balance;
}

/** What differs for `transfer` on PostgreSQL: the targets, the precondition and the legs. */
export const transferPgSql: PostgresOperationSql<TransferRequest> = {
  spec: transfer,
  targetOf: (r) => r.fromAccountId,
  targetsOf: (r) => [r.fromAccountId, r.toAccountId],
  payloadOf: transferPayload,
  async precondition(db, _caller, r) {
    const { rows } = await db.query<{ balance: number }>(
      'SELECT balance FROM accounts WHERE id = $1',
      [r.fromAccountId],
    );
    return insufficientFunds(rows[0]?.balance as number, r.amount);
  },
  async applyEffect(db, _caller, r) {
    const fromBalance = await postPgLeg(db, r.fromAccountId, -r.amount);
    const toBalance = await postPgLeg(db, r.toAccountId, r.amount);
    return transferResult(r, fromBalance, toBalance);
  },
};

/** `transfer`'s world on PostgreSQL. */
export const transferPgWorld = postgresOperationWorld({
  spec: transfer,
  ddl: `
CREATE TABLE accounts(
  id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL, balance INTEGER NOT NULL);
`,
  target: {
    table: 'accounts',
    columns: { id: 'id', workspace: 'workspace_id', balance: 'balance' },
  },
});
