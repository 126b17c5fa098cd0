/**
 * The `transfer` mutant catalogue on PostgreSQL: each mutant with its plugin, bug, real-world
 * class and the mode that kills it, and the reference that must hold beside them.
 * `receiptcheck mutants --engine postgres --operation transfer` runs them.
 */
import type { PgMutantEntry } from '../../../postgres/mutants/catalogue.ts';
import type { PostgresHandlerPlugin } from '../../../postgres/plugin.ts';
import legsInTwoTransactions from './mutants/legs-in-two-transactions.ts';
import lockOrder from './mutants/lock-order.ts';
import reference from './reference.ts';

/** Every PostgreSQL mutant of `transfer`. */
export const TRANSFER_PG_MUTANTS: readonly PgMutantEntry[] = [
  {
    name: lockOrder.name,
    bug: lockOrder.description ?? '',
    realWorldClass:
      'Lock order left to the request: SELECT … FOR UPDATE per leg in argument order, 40P01 not retried',
    mode: 'scheduled',
    plugin: lockOrder,
  },
  {
    name: legsInTwoTransactions.name,
    bug: legsInTwoTransactions.description ?? '',
    realWorldClass: 'Legs in two transactions: a multi-row write split across commits, not atomic',
    mode: 'scheduled',
    plugin: legsInTwoTransactions,
  },
];

/** The `transfer` PostgreSQL handlers that must hold. */
export const TRANSFER_PG_REFERENCES: readonly PostgresHandlerPlugin[] = [reference];
