/**
 * Mutant (adjust-balance): the reference's transaction under a plain (deferred) `BEGIN`, with
 * SQLITE_BUSY left to escape. One call at a time it is the reference.
 * Interleaving that breaks it: two adjustments of one account overlap; both read (access,
 * receipt, balance) under their own snapshot, the first upgrades to a write lock and commits,
 * and the second's UPDATE cannot upgrade a stale snapshot: SQLITE_BUSY (or BUSY_SNAPSHOT), which
 * the busy timeout does not retry and the plugin does not map, reaches the harness as an
 * unexpected error where the model wants a fresh result, a replay or `keyReuse`.
 * Real-world class: the write lock taken too late (`BEGIN` without `IMMEDIATE`, a driver's
 * default transaction).
 * Killed by: scheduled mode (a concurrent pair on one account, both reads before either write).
 */
import { deferredBegin } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { adjustBalanceParts } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-deferred-transaction',
  description:
    'Uses a deferred BEGIN and lets SQLITE_BUSY escape, so the loser of a race fails with an unexpected error.',
  ...deferredBegin(),
});
