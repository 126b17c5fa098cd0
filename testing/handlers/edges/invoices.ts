/**
 * A `create-once` handler on SQLite as a user writes one: scope, validation, then one
 * `BEGIN IMMEDIATE` transaction (the customer in the caller's workspace, the receipt, the invoice
 * and the receipt together). Invoice ids are SQLite rowids, as the built-in spec predicts them.
 * The bug, when planted, is the amount's upper limit written as `amount < AMOUNT_MAX`: the
 * largest invoice the contract allows is refused as invalid.
 */
import {
  type Connection,
  createOnceSpec,
  defineOperationHandler,
  outcome,
  type Row,
  targetRows,
} from '../../../src/index.ts';
import {
  inTransaction,
  isId,
  isRequestId,
  RECEIPTS_SQL,
  readReceipts,
  receiptStore,
  storedReceipt,
  storeReceipt,
} from './sqlite-kit.ts';

const SCHEMA = `
  CREATE TABLE customers (id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL);
  CREATE TABLE invoices (
    id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
  ${RECEIPTS_SQL}`;

const TOOL = 'create_invoice.v1';
const AMOUNT_MAX = 10_000_000;

/** The plugin; `maxExclusive` plants the off-by-one at the amount's upper limit. */
export function invoicesHandler(name: string, maxExclusive = false) {
  const amountHolds = (a: unknown) =>
    Number.isSafeInteger(a) &&
    (a as number) >= 1 &&
    (maxExclusive ? (a as number) < AMOUNT_MAX : (a as number) <= AMOUNT_MAX);
  return defineOperationHandler({
    name,
    operation: createOnceSpec,
    replayable: true,
    setup(db, fixture) {
      db.exec(SCHEMA);
      const insert = db.prepare('INSERT INTO customers VALUES (?, ?)');
      for (const c of targetRows(fixture, createOnceSpec)) insert.run(c.id, c.workspace);
    },
    call(db, principal, request) {
      if (!principal.scopes.includes('invoice:write')) return outcome.refused('forbidden');
      const { requestId, customerId, amount } = request;
      if (!isRequestId(requestId)) return outcome.invalid('requestId');
      if (!isId(customerId)) return outcome.invalid('customerId');
      if (!amountHolds(amount)) return outcome.invalid('amount');
      const key = [principal.workspace, principal.user, TOOL, requestId];
      const payload = JSON.stringify({ customer: customerId, amount });
      return inTransaction(db, () => {
        const mine = db
          .prepare('SELECT 1 FROM customers WHERE id = ? AND workspace_id = ?')
          .get(customerId, principal.workspace);
        if (!mine) return outcome.refused('unavailable');
        const stored = storedReceipt(db, key);
        if (stored)
          return stored.payload === payload
            ? outcome.replayed(JSON.parse(stored.response))
            : outcome.keyReuse();
        const { id } = db
          .prepare('INSERT INTO invoices (customer_id, amount) VALUES (?, ?) RETURNING id')
          .get(customerId, amount) as { id: number };
        const result = { invoiceId: id, customerId, amount };
        storeReceipt(db, key, payload, result);
        return outcome.fresh(result);
      });
    },
    move: (db: Connection, id, workspace) =>
      void db.prepare('UPDATE customers SET workspace_id = ? WHERE id = ?').run(workspace, id),
    delete: (db, id) => void db.prepare('DELETE FROM customers WHERE id = ?').run(id),
    recreate: (db, c) =>
      void db.prepare('INSERT OR IGNORE INTO customers VALUES (?, ?)').run(c.id, c.workspace),
    ...receiptStore,
    snapshot: (db) => ({
      customers: db.prepare('SELECT id, workspace_id AS workspace FROM customers').all() as Row[],
      invoices: db
        .prepare('SELECT id, customer_id AS customerId, amount FROM invoices')
        .all() as Row[],
      receipts: readReceipts(db),
    }),
  });
}

export default invoicesHandler('invoices');
