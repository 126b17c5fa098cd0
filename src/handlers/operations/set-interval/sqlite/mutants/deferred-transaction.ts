/**
 * Mutant: the reference's transaction body under a plain (deferred) `BEGIN`, with SQLITE_BUSY
 * left to escape. A deferred transaction reads first and asks for the write lock only at its
 * first write; with WAL, when two such calls overlap, the one that read before the other
 * committed cannot upgrade (SQLITE_BUSY, or SQLITE_BUSY_SNAPSHOT once its snapshot is stale),
 * and the busy timeout does not help a transaction that already holds a read snapshot. The
 * plugin maps only constraint failures, so the loser's error reaches the harness as an
 * unexpected error. One call at a time it behaves exactly like the reference. Real-world class:
 * `db.transaction()` defaults and `BEGIN` without `IMMEDIATE` in SQLite code.
 */
import { defineStepMutant } from './define-step-mutant.ts';

export default defineStepMutant({
  name: 'deferred-transaction',
  description:
    'Uses a deferred BEGIN and lets SQLITE_BUSY escape, so the loser of a race fails with an unexpected error.',
  // The bug: a deferred BEGIN, not BEGIN IMMEDIATE.
  style: () => ({ begin: 'BEGIN' }),
});
