/**
 * Mutant (create-once): looks receipts up by user, tool and request id only. Alice, who works in
 * team-a and team-b, reuses a request id in her second workspace and gets `keyReuse` (another
 * customer) or her other workspace's invoice instead of a new one.
 * Real-world class: a multi-tenant query missing its tenant column.
 * Killed by: sequential mode (alice@team-a r1 for customer 1, then alice@team-b r1 for customer 20).
 */
import { lookupWithoutWorkspace } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { createOnceParts, createOnceSql } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-key-without-workspace',
  description:
    "Looks receipts up by user, tool and request id only, so a user meets their other workspace's invoice.",
  ...lookupWithoutWorkspace(createOnceSql),
});
