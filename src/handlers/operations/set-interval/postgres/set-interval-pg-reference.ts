/**
 * The reference handler on PostgreSQL: the contract in one READ COMMITTED transaction, with the
 * locks it needs taken before the first read that depends on them.
 *
 * - A transaction-scoped advisory lock on the receipt key: two first attempts with one key
 *   (whatever rows they name) cannot both miss the receipt.
 * - `FOR UPDATE` on the target row as access is checked: a move, delete or other write to the
 *   row waits until this call commits, so the version read below is the one the update sees.
 *
 * Ids and versions are compared as `bigint`: a valid one may be any safe integer, beyond
 * `INTEGER`'s range, and must then find no row rather than fail.
 *
 * The key lock is always taken before the row lock, so two calls never wait on each other in
 * opposite orders. A failed receipt insert (integrity class 23, as the failure trigger raises)
 * rolls the row change back and becomes `error`; anything else escapes for the harness.
 */
import { REFERENCE_STEPS, stepsHandler } from './set-interval-pg-steps.ts';

export default stepsHandler(
  'pg-reference',
  'The contract on PostgreSQL: one READ COMMITTED transaction, an advisory lock on the receipt key, the row locked FOR UPDATE as access is checked.',
  REFERENCE_STEPS,
);
