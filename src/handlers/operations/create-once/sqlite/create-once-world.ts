/**
 * `create-once`'s schema and world: customers (the target, in a workspace) and the invoices
 * calls create. An invoice id is SQLite's rowid rule (no AUTOINCREMENT): one past the largest
 * id, which is what the model predicts. Invoices are never deleted, so the rule never reuses one.
 */
import { createOnce } from '../../../../model/operations/create-once.ts';
import { operationWorld } from '../../../sqlite/operation-world.ts';

const DDL = `
CREATE TABLE customers(id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL);
CREATE TABLE invoices(
  id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
`;

/** Everything a `create-once` plugin needs besides its name, description and `call`. */
export const createOnceWorld = operationWorld({
  spec: createOnce,
  ddl: DDL,
  target: { table: 'customers', columns: { id: 'id', workspace: 'workspace_id' } },
  created: {
    table: 'invoices',
    columns: { id: 'id', customerId: 'customer_id', amount: 'amount' },
  },
});
