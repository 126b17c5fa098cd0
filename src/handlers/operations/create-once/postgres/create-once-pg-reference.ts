/**
 * The `create-once` reference on PostgreSQL: the generic contract (`operation-call.ts`), and an
 * invoice id by SQLite's rowid rule, one past the largest, which is what the model predicts. A
 * sequence would not do: it hands out ids that rolled-back inserts never used. The largest id is
 * read under a table lock (`SHARE ROW EXCLUSIVE` conflicts with itself), so two creates for
 * different customers cannot read the same one; it is taken last, after the key and row locks,
 * so every call takes its locks in one order and none waits on another in a cycle.
 */
import { createOnce } from '../../../../model/operations/create-once.ts';
import {
  type PostgresOperationSql,
  postgresOperationCall,
} from '../../../postgres/operation-call.ts';
import { postgresOperationWorld } from '../../../postgres/operation-world.ts';
import { definePostgresHandler } from '../../../postgres/plugin.ts';
import { type InvoiceRequest, invoicePayload } from '../sqlite/create-once-steps.ts';

/** What differs for `create-once` on PostgreSQL: the target, the payload and the insert. */
export const createOncePgSql: PostgresOperationSql<InvoiceRequest> = {
  spec: createOnce,
  targetOf: (r) => r.customerId,
  payloadOf: invoicePayload,
  async applyEffect(db, _caller, r) {
    await db.query('LOCK TABLE invoices IN SHARE ROW EXCLUSIVE MODE');
    const { rows } = await db.query<{ id: number }>(
      'INSERT INTO invoices(id, customer_id, amount) SELECT coalesce(max(id), 0) + 1, $1, $2 FROM invoices RETURNING id',
      [r.customerId, r.amount],
    );
    const id = rows[0]?.id as number;
    return { invoiceId: id, customerId: r.customerId, amount: r.amount };
  },
};

/** `create-once`'s world on PostgreSQL. */
export const createOncePgWorld = postgresOperationWorld({
  spec: createOnce,
  ddl: `
CREATE TABLE customers(id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL);
CREATE TABLE invoices(
  id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
`,
  target: { table: 'customers', columns: { id: 'id', workspace: 'workspace_id' } },
  created: {
    table: 'invoices',
    columns: { id: 'id', customerId: 'customer_id', amount: 'amount' },
  },
});

export default definePostgresHandler({
  name: 'create-once-pg-reference',
  description:
    'The generic contract for create-once on PostgreSQL: an advisory lock on the receipt key, the customer FOR UPDATE, the invoice id one past the largest under a table lock.',
  operation: 'create-once',
  ...createOncePgWorld,
  call: postgresOperationCall(createOncePgSql),
});
