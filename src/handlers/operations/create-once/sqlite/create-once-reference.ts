/**
 * The `create-once` reference handler: the generic contract on better-sqlite3. Scope, then
 * validation; one `BEGIN IMMEDIATE` transaction; the customer in the principal's workspace; the
 * receipt (a retry replays the stored invoice, never inserts a second); the invoice insert and
 * the receipt insert together, so a failing receipt store rolls the invoice back.
 */
import type { Fixture } from '../../../../model/world.ts';
import { defineHandler } from '../../../plugin.ts';
import { operationCall } from '../../../sqlite/operation-handler.ts';
import { createOnceSql } from './create-once-steps.ts';
import { createOnceWorld } from './create-once-world.ts';

export default defineHandler<Fixture>({
  name: 'create-once-reference',
  description:
    'The generic contract for create-once: BEGIN IMMEDIATE, access, receipt, invoice insert, receipt insert.',
  operation: 'create-once',
  replayable: true,
  ...createOnceWorld,
  call: operationCall(createOnceSql),
});
