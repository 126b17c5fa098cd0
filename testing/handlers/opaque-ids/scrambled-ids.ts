/**
 * create-once on a server that assigns invoice ids its own way: each new id is three times the
 * largest plus 17, never the next integer. The contract leaves such ids to the server, so this
 * handler is correct under `createOnceOpaque`, and wrong under `createOnce`, which predicts
 * SQLite's rowid rule.
 */

import { createOnceSql } from '../../../src/handlers/operations/create-once/reference-steps.ts';
import { createOnceWorld } from '../../../src/handlers/operations/create-once/sqlite-world.ts';
import { operationCall } from '../../../src/handlers/operations/operation-handler.ts';
import { defineHandler } from '../../../src/handlers/plugin.ts';
import { cachedStatement } from '../../../src/handlers/statement-cache.ts';
import { createOnceOpaque } from '../../../src/model/operations/create-once.ts';
import type { Fixture } from '../../../src/model/world.ts';

/** The reference's SQL with the server's own ids. */
export const scrambledSql: typeof createOnceSql = {
  ...createOnceSql,
  spec: createOnceOpaque,
  applyEffect(db, _caller, r) {
    const { id } = cachedStatement(
      db,
      'INSERT INTO invoices(id, customer_id, amount) SELECT COALESCE(MAX(id), 0) * 3 + 17, ?, ? FROM invoices RETURNING id',
    ).get(r.customerId, r.amount) as { id: number };
    return { invoiceId: id, customerId: r.customerId, amount: r.amount };
  },
};

export default defineHandler<Fixture>({
  name: 'scrambled-ids',
  description: 'create-once with invoice ids of its own (3 × the largest + 17)',
  operation: createOnceOpaque,
  replayable: true,
  ...createOnceWorld,
  call: operationCall(scrambledSql),
});
