/**
 * `adjust-balance`'s schema and world: accounts in a workspace, each with a balance in cents.
 * Nothing is created; a re-created account opens with the spec's opening balance.
 */
import { adjustBalance } from '../../../../model/operations/adjust-balance.ts';
import { operationWorld } from '../../../sqlite/operation-world.ts';

const DDL = `
CREATE TABLE accounts(
  id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL, balance INTEGER NOT NULL);
`;

/** Everything an `adjust-balance` plugin needs besides its name, description and `call`. */
export const adjustBalanceWorld = operationWorld({
  spec: adjustBalance,
  ddl: DDL,
  target: {
    table: 'accounts',
    columns: { id: 'id', workspace: 'workspace_id', balance: 'balance' },
  },
});
