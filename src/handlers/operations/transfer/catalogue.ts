/**
 * The `transfer` catalogue: its reference on each engine and each bundled mutant (SQLite's, then
 * PostgreSQL's): each bundled mutant, its bug (the plugin's
 * description), the real-world class it stands for, and the cheapest deterministic mode that
 * kills it. Plain data, shaped like the other catalogues (`MutantEntry`), so it can be listed
 * without loading a handler; `sqlite/mutants.test.ts` holds each entry to its plugin.
 */
import { type MutantEntry, mutantsIn, type OperationCatalogue } from '../../catalogue.ts';

export const TRANSFER_MUTANTS: readonly MutantEntry[] = [
  {
    name: 'transfer-credit-replayed',
    bug: 'Posts the credit leg again whenever a receipt replays, so a retry credits the payee a second time.',
    realWorldClass:
      'One leg applied twice: a side leg (payout, ledger posting) outside the idempotency guard, re-run on every attempt',
    mode: 'sequential',
  },
  {
    name: 'transfer-legs-in-two-transactions',
    bug: 'Commits the debit in one transaction and the credit with the receipt in a second, so a failure of the second leaves the debit alone.',
    realWorldClass:
      'Legs in two transactions: a multi-row write split across commits (a service call per leg), not atomic',
    mode: 'sequential',
  },
  {
    name: 'transfer-payee-unchecked',
    bug: 'Checks access for the debited account only, so a transfer into an account of another workspace succeeds.',
    realWorldClass: 'Authorisation of the primary resource only: the destination id trusted (IDOR)',
    mode: 'sequential',
  },
  {
    name: 'transfer-fingerprint-without-payee',
    bug: 'Compares only the debited account and the amount with the stored payload, so a key reused for another payee replays.',
    realWorldClass:
      'Partial fingerprint: the second target of a multi-row write left out of the hash',
    mode: 'sequential',
  },
  {
    name: 'transfer-access-after-receipt',
    bug: 'Looks the receipt up before checking access to the accounts, so a transfer whose account moved or was deleted still replays.',
    realWorldClass: 'Idempotency cache short-circuiting ahead of authorisation',
    mode: 'sequential',
  },
  {
    name: 'transfer-key-without-user',
    bug: "Looks receipts up by workspace, tool and request id only, so a user gets another user's transfer.",
    realWorldClass: 'Key scoped too widely: per tenant or global instead of per caller',
    mode: 'sequential',
  },
  {
    name: 'transfer-receipt-error-swallowed',
    bug: 'Swallows a failing receipt insert and commits both legs, so the transfer succeeds with no receipt.',
    realWorldClass: 'Fail-open idempotency store: writing the record treated as best effort',
    mode: 'sequential',
  },
  {
    name: 'transfer-lock-order',
    bug: 'Locks as the legs go (a deferred BEGIN, the write lock asked for at the debit), so two overlapping transfers deadlock and the SQLITE_BUSY escapes.',
    realWorldClass:
      'Lock order left to the request: locks taken leg by leg, the deadlock error (SQLITE_BUSY, 40P01) not handled',
    mode: 'scheduled',
  },
];

/** The PostgreSQL mutants: a lock order that deadlocks, and the legs in two transactions. */
export const TRANSFER_PG_MUTANTS: readonly MutantEntry[] = [
  {
    name: 'transfer-pg-lock-order',
    bug: 'Locks the accounts in the order the call names them (debited first), so two opposite transfers deadlock and the 40P01 escapes.',
    realWorldClass:
      'Lock order left to the request: SELECT … FOR UPDATE per leg in argument order, 40P01 not retried',
    mode: 'scheduled',
  },
  {
    name: 'transfer-pg-legs-in-two-transactions',
    bug: 'Commits the debit in one transaction and the credit with the receipt in a second, so a failure of the second leaves the debit alone.',
    realWorldClass: 'Legs in two transactions: a multi-row write split across commits, not atomic',
    mode: 'scheduled',
  },
];

/** `transfer`'s bundled handlers: the reference on each engine and the mutants of both. */
export const TRANSFER_CATALOGUE: OperationCatalogue = {
  operation: 'transfer',
  references: [
    { name: 'transfer-reference', engine: 'sqlite', file: 'sqlite/transfer-reference.ts' },
    {
      name: 'transfer-pg-reference',
      engine: 'postgres',
      file: 'postgres/transfer-pg-reference.ts',
    },
  ],
  mutants: [
    ...mutantsIn('sqlite', 'transfer-', TRANSFER_MUTANTS),
    ...mutantsIn('postgres', 'transfer-pg-', TRANSFER_PG_MUTANTS),
  ],
  uncatalogued: [],
};
