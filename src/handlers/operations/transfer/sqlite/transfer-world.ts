/**
 * `transfer`'s schema and world on SQLite: accounts in a workspace, each with a balance in
 * cents, as for `adjust-balance`. Nothing is created; a re-created account opens with the spec's
 * opening balance.
 */
import { transfer } from '../../../../model/operations/transfer.ts';
import { operationWorld } from '../../../sqlite/operation-world.ts';

const DDL = `
CREATE TABLE accounts(
  id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL, balance INTEGER NOT NULL);
`;

/** Everything a `transfer` plugin needs besides its name, description and `call`. */
export const transferWorld = operationWorld({
  spec: transfer,
  ddl: DDL,
  target: {
    table: 'accounts',
    columns: { id: 'id', workspace: 'workspace_id', balance: 'balance' },
  },
});
