/**
 * The `transfer` reference handler on better-sqlite3: scope, then validation (two distinct
 * accounts, a positive amount); one `BEGIN IMMEDIATE` transaction; both accounts in the
 * principal's workspace; the receipt (a retry replays the stored balances and moves nothing);
 * the debited balance; both legs and the receipt insert together, so a failing receipt store
 * rolls both legs back. SQLite's write lock covers the whole database, so the order the legs
 * take needs no care here (it does on PostgreSQL: `../postgres/reference.ts`).
 */
import type { Fixture } from '../../../../model/world.ts';
import { defineHandler } from '../../../plugin.ts';
import { operationCall } from '../../../sqlite/operation-handler.ts';
import { transferSql } from './transfer-sql.ts';
import { transferWorld } from './transfer-world.ts';

export default defineHandler<Fixture>({
  name: 'transfer-reference',
  description:
    'The generic contract for transfer: BEGIN IMMEDIATE, both accounts, receipt, balance check, debit and credit, receipt insert.',
  operation: 'transfer',
  replayable: true,
  ...transferWorld,
  call: operationCall(transferSql),
});
