/**
 * The PostgreSQL mutant catalogue: each deliberately broken PostgreSQL handler, its bug, the
 * real-world class of mistake it stands for, and the mode that kills it (all race bugs, so the
 * scheduler's). `receiptcheck mutants --engine postgres` runs them and the PostgreSQL reference.
 */
import type { MutantEntry } from '../../mutant-catalogue.ts';
import type { PostgresHandlerPlugin } from '../plugin.ts';
import reference from '../reference.ts';
import checkThenAct from './check-then-act.ts';
import keyLockBase from './key-lock-base.ts';
import lockOrderInversion from './lock-order-inversion.ts';
import onConflictNoReread from './on-conflict-no-reread.ts';
import serializableNoRetry from './serializable-no-retry.ts';
import unlockBeforeCommit from './unlock-before-commit.ts';

/** A catalogued PostgreSQL mutant with its plugin. */
export interface PgMutantEntry extends MutantEntry {
  readonly plugin: PostgresHandlerPlugin;
}

/** Every PostgreSQL mutant, in the order the issue lists them. */
export const PG_MUTANT_CATALOGUE: readonly PgMutantEntry[] = [
  {
    name: checkThenAct.name,
    bug: checkThenAct.description ?? '',
    realWorldClass:
      "Check-then-act under READ COMMITTED (PostgreSQL's default): a SELECT for the idempotency record, then the write, with no lock between",
    mode: 'scheduled',
    plugin: checkThenAct,
  },
  {
    name: onConflictNoReread.name,
    bug: onConflictNoReread.description ?? '',
    realWorldClass:
      'INSERT … ON CONFLICT DO NOTHING as the idempotency guard, zero rows read as "my request already ran": the loser never reads the stored response',
    mode: 'scheduled',
    plugin: onConflictNoReread,
  },
  {
    name: serializableNoRetry.name,
    bug: serializableNoRetry.description ?? '',
    realWorldClass:
      'SERIALIZABLE (or REPEATABLE READ) without a retry loop: serialization failures (40001) reach the client as server errors',
    mode: 'scheduled',
    plugin: serializableNoRetry,
  },
  {
    name: unlockBeforeCommit.name,
    bug: unlockBeforeCommit.description ?? '',
    realWorldClass:
      'An advisory (or Redis) lock released before the transaction commits: the next holder reads state the last one has not committed yet',
    mode: 'scheduled',
    plugin: unlockBeforeCommit,
  },
  {
    name: lockOrderInversion.name,
    bug: lockOrderInversion.description ?? '',
    realWorldClass:
      'Lock-order inversion between two code paths (request path and admin job): deadlocks, and a handler that lets 40P01 escape',
    mode: 'scheduled',
    plugin: lockOrderInversion,
  },
];

/** Correct PostgreSQL handlers that must hold: the reference, and the base one mutant is built on. */
export const PG_REFERENCES: readonly PostgresHandlerPlugin[] = [reference, keyLockBase];
