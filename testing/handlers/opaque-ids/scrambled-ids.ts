/**
 * create-once on a server that assigns invoice ids its own way: the n-th invoice gets
 * 1000 + (n × 7919 mod 100003), all distinct (100003 is prime) and in no order. The contract leaves such ids to the server, so this
 * handler is correct under `createOnceOpaque`, and wrong under `createOnce`, which predicts
 * SQLite's rowid rule.
 */

import { createOnceSql } from '../../../src/handlers/operations/create-once/sqlite/create-once-steps.ts';
import { createOnceWorld } from '../../../src/handlers/operations/create-once/sqlite/create-once-world.ts';
import { defineHandler } from '../../../src/handlers/plugin.ts';
import { operationCall } from '../../../src/handlers/sqlite/operation-handler.ts';
import { cachedStatement } from '../../../src/handlers/sqlite/statement-cache.ts';
import { createOnceOpaque } from '../../../src/model/operations/create-once.ts';
import type { Fixture } from '../../../src/model/world.ts';

/** The reference's SQL with the server's own ids. */
export const scrambledSql: typeof createOnceSql = {
  ...createOnceSql,
  spec: createOnceOpaque,
  applyEffect(db, _caller, r) {
    const { id } = cachedStatement(
      db,
      'INSERT INTO invoices(id, customer_id, amount) SELECT 1000 + (COUNT(*) + 1) * 7919 % 100003, ?, ? FROM invoices RETURNING id',
    ).get(r.customerId, r.amount) as { id: number };
    return { invoiceId: id, customerId: r.customerId, amount: r.amount };
  },
};

export default defineHandler<Fixture>({
  name: 'scrambled-ids',
  description: 'create-once with invoice ids of its own, in no order',
  operation: createOnceOpaque,
  replayable: true,
  ...createOnceWorld,
  call: operationCall(scrambledSql),
});
