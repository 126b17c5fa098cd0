/**
 * PostgreSQL mutant (transfer): locks the accounts in the order the call names them, the debited
 * one first, instead of in id order. Two opposite transfers (1 → 2 and 2 → 1, under different
 * keys) each lock their debited account, then wait for the other's: PostgreSQL detects the
 * deadlock and aborts one (SQLSTATE 40P01), which the handler lets escape, an unexpected error
 * where the model wants both transfers to succeed in some order.
 * Real-world class: lock order left to the request (`SELECT … FOR UPDATE` per leg, in argument
 * order), with 40P01 not retried.
 * Killed by: scheduled mode (two opposite transfers overlap, each past its first lock).
 */
import { postgresOperationCall } from '../../../../postgres/operation-call.ts';
import { definePostgresHandler } from '../../../../postgres/plugin.ts';
import { transferPgSql, transferPgWorld } from '../transfer-pg-sql.ts';

export default definePostgresHandler({
  name: 'transfer-pg-lock-order',
  description:
    'Locks the accounts in the order the call names them (debited first), so two opposite transfers deadlock and the 40P01 escapes.',
  operation: 'transfer',
  ...transferPgWorld,
  // The bug: the order of the request, not one order every call agrees on.
  call: postgresOperationCall({ ...transferPgSql, orderLocks: (ids) => ids }),
});
