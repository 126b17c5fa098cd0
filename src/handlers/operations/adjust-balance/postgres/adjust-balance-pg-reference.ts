/**
 * The `adjust-balance` reference on PostgreSQL: the generic contract (`operation-call.ts`). The
 * account row is locked `FOR UPDATE` as access is checked, so the balance the precondition
 * reads is the one the update adds to: two debits cannot both pass on one balance.
 */
import { adjustBalance } from '../../../../model/operations/adjust-balance.ts';
import {
  type PostgresOperationSql,
  postgresOperationCall,
} from '../../../postgres/operation-call.ts';
import { postgresOperationWorld } from '../../../postgres/operation-world.ts';
import { definePostgresHandler } from '../../../postgres/plugin.ts';
import { type AdjustRequest, adjustPayload, insufficient } from '../sqlite/adjust-balance-steps.ts';

/** What differs for `adjust-balance` on PostgreSQL: the precondition and the update. */
export const adjustBalancePgSql: PostgresOperationSql<AdjustRequest> = {
  spec: adjustBalance,
  targetOf: (r) => r.accountId,
  payloadOf: adjustPayload,
  async precondition(db, _caller, r) {
    const { rows } = await db.query<{ balance: number }>(
      'SELECT balance FROM accounts WHERE id = $1',
      [r.accountId],
    );
    return insufficient(rows[0]?.balance as number, r.delta);
  },
  async applyEffect(db, _caller, r) {
    const { rows } = await db.query<{ id: number; balance: number }>(
      'UPDATE accounts SET balance = balance + $1 WHERE id = $2 RETURNING id, balance',
      [r.delta, r.accountId],
    );
    const row = rows[0] as { id: number; balance: number };
    return { accountId: row.id, balance: row.balance };
  },
};

/** `adjust-balance`'s world on PostgreSQL. */
export const adjustBalancePgWorld = postgresOperationWorld({
  spec: adjustBalance,
  ddl: `
CREATE TABLE accounts(
  id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL, balance INTEGER NOT NULL);
`,
  target: {
    table: 'accounts',
    columns: { id: 'id', workspace: 'workspace_id', balance: 'balance' },
  },
});

export default definePostgresHandler({
  name: 'adjust-balance-pg-reference',
  description:
    'The generic contract for adjust-balance on PostgreSQL: an advisory lock on the receipt key, the account FOR UPDATE, balance check, update, receipt insert.',
  operation: 'adjust-balance',
  ...adjustBalancePgWorld,
  call: postgresOperationCall(adjustBalancePgSql),
});
