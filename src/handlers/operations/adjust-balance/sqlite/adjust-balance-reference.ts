/**
 * The `adjust-balance` reference handler: the generic contract on better-sqlite3. Scope, then
 * validation; one `BEGIN IMMEDIATE` transaction; the account in the principal's workspace; the
 * receipt (a retry replays the stored balance, never applies the delta twice); the balance
 * precondition; the update and the receipt insert together, so a failing receipt store rolls
 * the update back.
 */
import type { Fixture } from '../../../../model/world.ts';
import { defineHandler } from '../../../plugin.ts';
import { operationCall } from '../../../sqlite/operation-handler.ts';
import { adjustBalanceSql } from './adjust-balance-steps.ts';
import { adjustBalanceWorld } from './adjust-balance-world.ts';

export default defineHandler<Fixture>({
  name: 'adjust-balance-reference',
  description:
    'The generic contract for adjust-balance: BEGIN IMMEDIATE, access, receipt, balance check, update, receipt insert.',
  operation: 'adjust-balance',
  replayable: true,
  ...adjustBalanceWorld,
  call: operationCall(adjustBalanceSql),
});
