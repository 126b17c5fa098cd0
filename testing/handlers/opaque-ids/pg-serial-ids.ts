/**
 * create-once on PostgreSQL as a user would write it: invoice ids from a `SERIAL` sequence, which
 * skips the ids of rolled-back inserts, so only `createOnceOpaque` describes it.
 */
import { createOncePgSql } from '../../../src/handlers/operations/create-once/postgres/create-once-pg-reference.ts';
import { postgresOperationCall } from '../../../src/handlers/postgres/operation-call.ts';
import { postgresOperationWorld } from '../../../src/handlers/postgres/operation-world.ts';
import { definePostgresHandler } from '../../../src/handlers/postgres/plugin.ts';
import { createOnceOpaque } from '../../../src/model/operations/create-once.ts';

const world = postgresOperationWorld({
  spec: createOnceOpaque,
  ddl: `
CREATE TABLE customers(id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL);
CREATE TABLE invoices(id SERIAL PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
`,
  target: { table: 'customers', columns: { id: 'id', workspace: 'workspace_id' } },
  created: {
    table: 'invoices',
    columns: { id: 'id', customerId: 'customer_id', amount: 'amount' },
  },
});

export default definePostgresHandler({
  name: 'pg-serial-ids',
  description: 'create-once on PostgreSQL with invoice ids from a sequence',
  operation: createOnceOpaque,
  ...world,
  call: postgresOperationCall({
    ...createOncePgSql,
    spec: createOnceOpaque,
    async applyEffect(db, _caller, r) {
      const { rows } = await db.query<{ id: number }>(
        'INSERT INTO invoices(customer_id, amount) VALUES ($1, $2) RETURNING id',
        [r.customerId, r.amount],
      );
      return { invoiceId: rows[0]?.id as number, customerId: r.customerId, amount: r.amount };
    },
  }),
});
