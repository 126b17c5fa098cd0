/**
 * Input bug: the request id column has NUMERIC affinity (declared `NUMERIC`, or by an ORM that
 * maps digit strings to numbers), so `07` is stored as the number 7: the stored key is not the
 * id sent, and `07` and `7` would share it. Caught only by ids of digits only.
 */
import type { HandlerPlugin } from '../../../src/handlers/plugin.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = ['requestId digits only'];

const base = defineInputBug({
  name: 'digits-become-numbers',
  description: 'Stores request ids in a NUMERIC column, so the id 07 is kept as the number 7.',
});

export default {
  ...base,
  setup(db, fixture) {
    base.setup(db, fixture);
    db.exec(`DROP TABLE receipts;
      CREATE TABLE receipts(
        workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
        request_id NUMERIC NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
        PRIMARY KEY(workspace_id, user_id, tool, request_id));`);
  },
  snapshot(db) {
    // Read back as the handler's own code would: the column now holds a number.
    const s = base.snapshot(db);
    return { ...s, receipts: s.receipts.map((r) => ({ ...r, requestId: String(r.requestId) })) };
  },
} satisfies HandlerPlugin;
