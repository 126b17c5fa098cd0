/**
 * The `transfer` reference on PostgreSQL: an advisory lock on the receipt key, both accounts
 * `FOR UPDATE` in ascending id order, the receipt, the debited balance, the debit and the credit,
 * the receipt insert, one transaction (`transfer-pg-sql.ts`).
 */
import { postgresOperationCall } from '../../../postgres/operation-call.ts';
import { definePostgresHandler } from '../../../postgres/plugin.ts';
import { transferPgSql, transferPgWorld } from './transfer-pg-sql.ts';

export default definePostgresHandler({
  name: 'transfer-pg-reference',
  description:
    'The generic contract for transfer on PostgreSQL: an advisory lock on the receipt key, both accounts FOR UPDATE in id order, balance check, debit and credit, receipt insert.',
  operation: 'transfer',
  ...transferPgWorld,
  call: postgresOperationCall(transferPgSql),
});
