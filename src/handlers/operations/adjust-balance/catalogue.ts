/**
 * The `adjust-balance` catalogue: its reference on each engine and each bundled mutant, its bug (the
 * plugin's description), the real-world class it stands for, and the cheapest deterministic
 * mode that kills it. Plain data, so it can be listed without loading a handler;
 * `sqlite/mutants.test.ts` holds each entry to its plugin.
 */
import { type MutantEntry, mutantsIn, type OperationCatalogue } from '../../catalogue.ts';

export const ADJUST_BALANCE_MUTANTS: readonly MutantEntry[] = [
  {
    name: 'adjust-balance-effect-before-receipt',
    bug: 'Applies the delta before the receipt lookup, so a retry replays but applies the delta twice.',
    realWorldClass:
      'Double application on retry: the idempotency record consulted as a log, not a guard',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-precondition-before-receipt',
    bug: 'Checks the balance before the receipt lookup, so a retry of a debit that emptied the account is refused insufficient.',
    realWorldClass: 'Business precondition bolted on ahead of idempotency',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-replay-from-current-balance',
    bug: 'Builds a replay from the current balance instead of the stored result, so a retry after another adjustment reports it.',
    realWorldClass:
      'Replay rebuilt from current resource state: the receipt kept as a "done" marker, not a stored response',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-fingerprint-without-sign',
    bug: "Compares the delta's magnitude, not its sign, with the stored payload, so a key reused to reverse an adjustment replays.",
    realWorldClass: 'Partial fingerprint: amount and direction sent apart, only the amount hashed',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-fingerprint-without-account',
    bug: 'Compares only the delta with the stored payload, so a key reused for another account replays.',
    realWorldClass: 'Partial fingerprint: the body hashed, the target id in the URL path forgotten',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-receipt-after-commit',
    bug: 'Inserts the receipt after the balance update has committed, so a failing store leaves a change without a receipt.',
    realWorldClass:
      'Dual write: the idempotency record kept outside the business transaction (middleware, separate store)',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-receipt-error-swallowed',
    bug: 'Swallows a failing receipt insert and commits the update, so the adjustment succeeds with no receipt.',
    realWorldClass: 'Fail-open idempotency store: writing the record treated as best effort',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-access-after-receipt',
    bug: 'Looks the receipt up before checking current access, so a moved or deleted account still replays.',
    realWorldClass: 'Idempotency cache short-circuiting ahead of authorisation',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-key-without-user',
    bug: "Looks receipts up by workspace, tool and request id only, so a user gets another user's adjustment.",
    realWorldClass: 'Key scoped too widely: per tenant or global instead of per caller',
    mode: 'sequential',
  },
  {
    name: 'adjust-balance-lost-update',
    bug: 'Reads the balance before BEGIN IMMEDIATE and writes read + delta, so two racing adjustments lose one.',
    realWorldClass:
      'Lost update: read-modify-write with the read outside the write lock (an ORM loading, then saving, the entity)',
    mode: 'scheduled',
  },
  {
    name: 'adjust-balance-deferred-transaction',
    bug: 'Uses a deferred BEGIN and lets SQLITE_BUSY escape, so the loser of a race fails with an unexpected error.',
    realWorldClass:
      'Lock taken too late: BEGIN without IMMEDIATE (a driver default), a read upgraded to a write under contention',
    mode: 'scheduled',
  },
];

/** `adjust-balance`'s bundled handlers: the reference on each engine and the SQLite mutants. */
export const ADJUST_BALANCE_CATALOGUE: OperationCatalogue = {
  operation: 'adjust-balance',
  references: [
    {
      name: 'adjust-balance-reference',
      engine: 'sqlite',
      file: 'sqlite/adjust-balance-reference.ts',
    },
    {
      name: 'adjust-balance-pg-reference',
      engine: 'postgres',
      file: 'postgres/adjust-balance-pg-reference.ts',
    },
  ],
  mutants: mutantsIn('sqlite', 'adjust-balance-', ADJUST_BALANCE_MUTANTS),
  uncatalogued: [],
};
