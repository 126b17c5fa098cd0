/**
 * create-once on a server that gives each invoice a random UUID, as many services do: the ids
 * are text, follow no order, and differ from run to run. The contract leaves them to the server,
 * so this handler is correct under `createOnceOpaque`.
 */
import { randomUUID } from 'node:crypto';
import { createOnceSql } from '../../../src/handlers/operations/create-once/sqlite/create-once-steps.ts';
import { defineHandler } from '../../../src/handlers/plugin.ts';
import { operationCall } from '../../../src/handlers/sqlite/operation-handler.ts';
import { operationWorld } from '../../../src/handlers/sqlite/operation-world.ts';
import { cachedStatement } from '../../../src/handlers/sqlite/statement-cache.ts';
import { createOnceOpaque } from '../../../src/model/operations/create-once.ts';
import type { Fixture } from '../../../src/model/world.ts';

/** The reference's SQL with a UUID for every invoice. */
export const uuidSql: typeof createOnceSql = {
  ...createOnceSql,
  spec: createOnceOpaque,
  applyEffect(db, _caller, r) {
    const id = randomUUID();
    cachedStatement(db, 'INSERT INTO invoices(id, customer_id, amount) VALUES (?, ?, ?)').run(
      id,
      r.customerId,
      r.amount,
    );
    return { invoiceId: id, customerId: r.customerId, amount: r.amount };
  },
};

/** create-once's world with invoice ids as text. */
export const uuidWorld = operationWorld({
  spec: createOnceOpaque,
  ddl: `
CREATE TABLE customers(id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL);
CREATE TABLE invoices(id TEXT PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
`,
  target: { table: 'customers', columns: { id: 'id', workspace: 'workspace_id' } },
  created: {
    table: 'invoices',
    columns: { id: 'id', customerId: 'customer_id', amount: 'amount' },
  },
});

export default defineHandler<Fixture>({
  name: 'uuid-ids',
  description: 'create-once with a random UUID for every invoice',
  operation: createOnceOpaque,
  ...uuidWorld,
  call: operationCall(uuidSql),
});
