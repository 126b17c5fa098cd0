/**
 * The `create-once` catalogue: its reference on each engine and each bundled mutant, its bug (the
 * plugin's description), the real-world class it stands for, and the cheapest deterministic
 * mode that kills it. Plain data, so it can be listed without loading a handler;
 * `sqlite/mutants.test.ts` holds each entry to its plugin.
 */
import { type MutantEntry, mutantsIn, type OperationCatalogue } from '../../catalogue.ts';

export const CREATE_ONCE_MUTANTS: readonly MutantEntry[] = [
  {
    name: 'create-once-receipt-after-insert',
    bug: 'Inserts the invoice before the receipt lookup, so a retry replays but leaves a second invoice behind.',
    realWorldClass:
      'Double create on retry: the idempotency record consulted as a log, not a guard',
    mode: 'sequential',
  },
  {
    name: 'create-once-key-without-user',
    bug: "Looks receipts up by workspace, tool and request id only, so a user gets another user's invoice.",
    realWorldClass: 'Key scoped too widely: per tenant or global instead of per caller',
    mode: 'sequential',
  },
  {
    name: 'create-once-key-without-workspace',
    bug: "Looks receipts up by user, tool and request id only, so a user meets their other workspace's invoice.",
    realWorldClass: 'Multi-tenant query missing its tenant column',
    mode: 'sequential',
  },
  {
    name: 'create-once-receipt-after-commit',
    bug: 'Inserts the receipt after the invoice has committed, so a failing store leaves an invoice without a receipt.',
    realWorldClass:
      'Dual write: the idempotency record kept outside the business transaction (middleware, separate store)',
    mode: 'sequential',
  },
  {
    name: 'create-once-receipt-error-swallowed',
    bug: 'Swallows a failing receipt insert and commits the invoice, so the create succeeds with no receipt.',
    realWorldClass: 'Fail-open idempotency store: writing the record treated as best effort',
    mode: 'sequential',
  },
  {
    name: 'create-once-access-after-receipt',
    bug: 'Looks the receipt up before checking current access, so a moved or deleted customer still replays.',
    realWorldClass: 'Idempotency cache short-circuiting ahead of authorisation',
    mode: 'sequential',
  },
  {
    name: 'create-once-replay-not-flagged',
    bug: 'Returns a replayed invoice as fresh (replayed: false), so a retry looks like a new create.',
    realWorldClass: 'Idempotency metadata dropped on the way out (no Idempotent-Replayed flag)',
    mode: 'sequential',
  },
  {
    name: 'create-once-replay-latest-invoice',
    bug: "Replays the customer's latest invoice instead of the stored one, so a retry after another invoice reports that invoice.",
    realWorldClass:
      'Replay rebuilt from current state ("find the invoice we made"): the receipt kept as a marker, not a response',
    mode: 'sequential',
  },
  {
    name: 'create-once-fingerprint-without-amount',
    bug: 'Compares only the customer with the stored payload, so a key reused with another amount replays.',
    realWorldClass: 'Partial fingerprint: the path parameter checked, the body forgotten',
    mode: 'sequential',
  },
  {
    name: 'create-once-dedupe-by-content',
    bug: 'Finds receipts by workspace and payload instead of by key, so two separate invoices of one amount collapse into one.',
    realWorldClass: 'Content-based deduplication: a hash of the body used as the idempotency key',
    mode: 'sequential',
  },
  {
    name: 'create-once-check-then-act',
    bug: 'Reads the receipt before BEGIN IMMEDIATE and upserts it after, so two racing first attempts create two invoices.',
    realWorldClass:
      'Check-then-act race: the idempotency lookup outside the transaction that writes, the record saved by upsert',
    mode: 'scheduled',
  },
];

/** `create-once`'s bundled handlers: the reference on each engine and the SQLite mutants. */
export const CREATE_ONCE_CATALOGUE: OperationCatalogue = {
  operation: 'create-once',
  references: [
    { name: 'create-once-reference', engine: 'sqlite', file: 'sqlite/create-once-reference.ts' },
    {
      name: 'create-once-pg-reference',
      engine: 'postgres',
      file: 'postgres/create-once-pg-reference.ts',
    },
  ],
  mutants: mutantsIn('sqlite', 'create-once-', CREATE_ONCE_MUTANTS),
  uncatalogued: [],
};
