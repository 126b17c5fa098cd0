/**
 * `scrambled-ids` with a double create: it inserts the invoice before it looks for the receipt,
 * so a retry answers with the stored invoice and leaves a second one behind. Opaque ids must
 * not hide it: the created rows differ from the model's by one, whatever their ids.
 */

import { createOnceWorld } from '../../../src/handlers/operations/create-once/sqlite/create-once-world.ts';
import { effectBeforeReceipt } from '../../../src/handlers/sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../src/handlers/sqlite/operation-handler.ts';
import { scrambledSql } from './scrambled-ids.ts';

export default defineOperationMutant(
  { op: scrambledSql, world: createOnceWorld },
  {
    name: 'scrambled-ids-double-create',
    description: 'inserts the invoice before the receipt lookup',
    ...effectBeforeReceipt(),
  },
);
