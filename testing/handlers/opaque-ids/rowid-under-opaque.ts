/**
 * The create-once reference (rowid ids) declared under `createOnceOpaque`: a correct handler whose
 * ids the model does not predict. A call that crashes after its commit leaves its invoice and
 * receipt under an id no answer carried; the checker must read it from the receipt.
 */
import { createOnceSql } from '../../../src/handlers/operations/create-once/sqlite/create-once-steps.ts';
import { createOnceWorld } from '../../../src/handlers/operations/create-once/sqlite/create-once-world.ts';
import { defineHandler } from '../../../src/handlers/plugin.ts';
import { operationCall } from '../../../src/handlers/sqlite/operation-handler.ts';
import { createOnceOpaque } from '../../../src/model/operations/create-once.ts';
import type { Fixture } from '../../../src/model/world.ts';

export default defineHandler<Fixture>({
  name: 'rowid-under-opaque',
  description: 'the create-once reference, its ids left to the server',
  operation: createOnceOpaque,
  replayable: true,
  ...createOnceWorld,
  call: operationCall({ ...createOnceSql, spec: createOnceOpaque }),
});
