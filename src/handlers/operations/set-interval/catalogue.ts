/**
 * The `set-interval` catalogue: its correct handlers and every deliberately broken one on both
 * engines, the bug each carries, the real-world class of bug it stands for, and the cheapest
 * deterministic mode that kills it at default settings (races: scheduled mode, never real-thread
 * timing). Plain data, so `receiptcheck mutants` can list and run it without loading any handler;
 * `properties/mutants.test.ts` holds each entry to its plugin and to the registry.
 */
import {
  type MutantEntry,
  mutantsIn,
  type OperationCatalogue,
  type UncataloguedBug,
} from '../../catalogue.ts';

/** Every SQLite mutant, in the order the issue lists them. */
export const SET_INTERVAL_MUTANTS: readonly MutantEntry[] = [
  {
    name: 'check-then-act',
    bug: 'Reads access and the receipt before BEGIN IMMEDIATE, so two racing first attempts both miss the receipt.',
    realWorldClass:
      'Check-then-act race: the idempotency lookup (middleware, ORM read) outside the transaction that writes',
    mode: 'scheduled',
  },
  {
    name: 'deferred-transaction',
    bug: 'Uses a deferred BEGIN and lets SQLITE_BUSY escape, so the loser of a race fails with an unexpected error.',
    realWorldClass:
      'Lock taken too late: BEGIN without IMMEDIATE (a driver default), a read upgraded to a write under contention',
    mode: 'scheduled',
  },
  {
    name: 'receipt-after-commit',
    bug: 'Inserts the receipt in its own statement after the row change has committed, so a failing store leaves a change without a receipt.',
    realWorldClass:
      'Dual write: the idempotency record kept outside the business transaction (middleware, separate store)',
    mode: 'sequential',
  },
  {
    name: 'receipt-error-swallowed',
    bug: 'Swallows a failing receipt insert and commits the row change, so the write succeeds with no receipt.',
    realWorldClass: 'Fail-open idempotency store: writing the record treated as best effort',
    mode: 'sequential',
  },
  {
    name: 'version-before-receipt',
    bug: 'Checks the expected version before the receipt lookup, so a retry after a lost response gets a conflict.',
    realWorldClass: 'Optimistic concurrency bolted on ahead of idempotency',
    mode: 'sequential',
  },
  {
    name: 'replay-from-current-row',
    bug: 'Builds a replay from the current row instead of the stored result, so a retry after a newer edit reports that edit.',
    realWorldClass:
      'Replay rebuilt from current resource state: the receipt kept as a "done" marker, not a stored response',
    mode: 'sequential',
  },
  {
    name: 'replay-not-flagged',
    bug: 'Returns a replay as a fresh result (replayed: false), so a retry looks like a new write.',
    realWorldClass: 'Idempotency metadata dropped on the way out (no Idempotent-Replayed flag)',
    mode: 'sequential',
  },
  {
    name: 'payload-unchecked',
    bug: 'Replays any receipt under the key without comparing payloads, so key reuse replays.',
    realWorldClass: 'Key-only deduplication: the key trusted without a request fingerprint',
    mode: 'sequential',
  },
  {
    name: 'fingerprint-without-target',
    bug: 'Compares only version and interval with the stored payload, so a key reused for another automation replays.',
    realWorldClass: 'Partial fingerprint: the body hashed, the target id in the URL path forgotten',
    mode: 'sequential',
  },
  {
    name: 'fingerprint-without-version',
    bug: 'Compares only target and interval with the stored payload, so a key reused with another expected version replays.',
    realWorldClass:
      'Partial fingerprint: the body hashed, the expected version in an If-Match header forgotten',
    mode: 'sequential',
  },
  {
    name: 'key-without-user',
    bug: "Looks receipts up by workspace, tool and request id only, so a user meets another user's receipt.",
    realWorldClass: 'Key scoped too widely: per tenant or global instead of per caller',
    mode: 'sequential',
  },
  {
    name: 'key-without-workspace',
    bug: "Looks receipts up by user, tool and request id only, so a user meets their other workspace's receipt.",
    realWorldClass: 'Multi-tenant query missing its tenant column',
    mode: 'sequential',
  },
  {
    name: 'access-after-receipt',
    bug: 'Looks the receipt up before checking current access, so a moved or deleted automation still replays.',
    realWorldClass: 'Idempotency cache short-circuiting ahead of authorisation',
    mode: 'sequential',
  },
  {
    name: 'workspace-from-receipt',
    bug: "Checks the principal's workspace against the receipt's instead of the row's, so a moved automation replays.",
    realWorldClass: 'Authorisation against stored evidence instead of the live resource',
    mode: 'sequential',
  },
  {
    name: 'race-loser-error',
    bug: 'Uses a deferred BEGIN and maps every database error to `error`, so the loser of a race reports an internal error.',
    realWorldClass:
      'Race loser surfacing a 500: lock or unique-violation errors not handled as the duplicate they are',
    mode: 'scheduled',
  },
  {
    name: 'busy-swallowed',
    bug: 'Uses a deferred BEGIN and answers SQLITE_BUSY with a fresh ok, so a race loser reports a success that never committed.',
    realWorldClass: 'Lock and serialization errors caught by a generic retry-or-succeed wrapper',
    mode: 'scheduled',
  },
];

/** Bugs left out on purpose: no generated sequence could tell them from the reference. */
export const UNCATALOGUED_BUGS: readonly UncataloguedBug[] = [
  {
    bug: 'Fingerprint missing the tool revision',
    reason:
      'the tool is one constant (set_interval.v1) in every call and in every receipt key, so a fingerprint with or without it compares equal on every input: the mutant would be equivalent to the reference',
  },
];

/** Every PostgreSQL mutant (all race bugs, so the scheduler's), in the order the issue lists them. */
export const SET_INTERVAL_PG_MUTANTS: readonly MutantEntry[] = [
  {
    name: 'pg-check-then-act',
    bug: 'Reads access and the receipt under READ COMMITTED with no lock taken (no key lock, no FOR UPDATE), so two racing first attempts both miss the receipt.',
    realWorldClass:
      "Check-then-act under READ COMMITTED (PostgreSQL's default): a SELECT for the idempotency record, then the write, with no lock between",
    mode: 'scheduled',
  },
  {
    name: 'pg-on-conflict-no-reread',
    bug: "Claims the key with INSERT … ON CONFLICT DO NOTHING before its update; a loser that inserts nothing replays what it would have written without reading the winner's receipt.",
    realWorldClass:
      'INSERT … ON CONFLICT DO NOTHING as the idempotency guard, zero rows read as "my request already ran": the loser never reads the stored response',
    mode: 'scheduled',
  },
  {
    name: 'pg-serializable-no-retry',
    bug: 'Runs under SERIALIZABLE with no lock and no retry, so the serialization failure (40001) of a racing call escapes as an unexpected error.',
    realWorldClass:
      'SERIALIZABLE (or REPEATABLE READ) without a retry loop: serialization failures (40001) reach the client as server errors',
    mode: 'scheduled',
  },
  {
    name: 'pg-unlock-before-commit',
    bug: 'Holds its key lock at session level and releases it with pg_advisory_unlock before COMMIT, so a racing attempt of the same key reads before the first commits.',
    realWorldClass:
      'An advisory (or Redis) lock released before the transaction commits: the next holder reads state the last one has not committed yet',
    mode: 'scheduled',
  },
  {
    name: 'pg-lock-order-inversion',
    bug: "Takes the automation's scheduler lock after the row lock (just before COMMIT), while its move and delete take them the other way round, so a call racing a move can deadlock (40P01) and lets the error escape.",
    realWorldClass:
      'Lock-order inversion between two code paths (request path and admin job): deadlocks, and a handler that lets 40P01 escape',
    mode: 'scheduled',
  },
];

/**
 * `set-interval`'s bundled handlers: the reference on each engine, the correct base one
 * PostgreSQL mutant is built on, and the mutants of both engines.
 */
export const SET_INTERVAL_CATALOGUE: OperationCatalogue = {
  operation: 'set-interval',
  references: [
    { name: 'reference', engine: 'sqlite', file: 'sqlite/set-interval-reference.ts' },
    { name: 'pg-reference', engine: 'postgres', file: 'postgres/set-interval-pg-reference.ts' },
    { name: 'pg-key-lock-base', engine: 'postgres', file: 'postgres/mutants/key-lock-base.ts' },
  ],
  mutants: [
    ...mutantsIn('sqlite', '', SET_INTERVAL_MUTANTS),
    ...mutantsIn('postgres', 'pg-', SET_INTERVAL_PG_MUTANTS),
  ],
  uncatalogued: UNCATALOGUED_BUGS,
};
