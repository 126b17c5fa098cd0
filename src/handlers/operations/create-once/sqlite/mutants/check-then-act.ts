/**
 * Mutant (create-once): checks the customer and looks the receipt up in autocommit mode, before
 * `BEGIN IMMEDIATE`; the transaction then inserts the invoice and upserts the receipt without
 * re-reading it. One call at a time it is the reference.
 * Interleaving that breaks it: two first attempts under one key (a client retrying while its
 * first attempt is still running) both read "no receipt" before either begins its transaction;
 * then each inserts an invoice and the second upsert overwrites the first receipt. Both answer a
 * fresh `ok` with different invoice ids, two invoices exist, and the first answer can no longer
 * be replayed. The model wants one fresh result and one replay of it.
 * Real-world class: check-then-act, the idempotency lookup (middleware, ORM read) outside the
 * transaction that writes.
 * Killed by: scheduled mode (a concurrent pair of identical calls, lanes interleaved at the reads).
 */
import { checkThenAct } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { createOnceParts, createOnceSql } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-check-then-act',
  description:
    'Reads the receipt before BEGIN IMMEDIATE and upserts it after, so two racing first attempts create two invoices.',
  ...checkThenAct(createOnceSql),
});
