/**
 * `uuid-ids` with a double create: it inserts the invoice before it looks for the receipt, so a
 * retry leaves a second invoice behind under a UUID of its own.
 */
import { effectBeforeReceipt } from '../../../src/handlers/sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../src/handlers/sqlite/operation-handler.ts';
import { uuidSql, uuidWorld } from './uuid-ids.ts';

export default defineOperationMutant(
  { op: uuidSql, world: uuidWorld },
  {
    name: 'uuid-ids-double-create',
    description: 'inserts the invoice before the receipt lookup',
    ...effectBeforeReceipt(),
  },
);
