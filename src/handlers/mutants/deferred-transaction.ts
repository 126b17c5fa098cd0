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
import { outcome } from '../../model/outcome.ts';
import { defineHandler } from '../plugin.ts';
import { isWriteFailure, precheck, transactionBody } from '../reference.ts';
import { sqliteWorld } from '../sqlite-world.ts';

export default defineHandler({
  name: 'deferred-transaction',
  description:
    'Uses a deferred BEGIN and lets SQLITE_BUSY escape, so the loser of a race fails with an unexpected error.',
  ...sqliteWorld,
  call(db, principal, request) {
    const r = precheck(principal, request);
    if ('kind' in r) return r;
    db.exec('BEGIN'); // the bug: not BEGIN IMMEDIATE
    try {
      const result = transactionBody(db, principal, r);
      db.exec('COMMIT');
      return result;
    } catch (thrown) {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (isWriteFailure(thrown)) return outcome.error((thrown as Error).message);
      throw thrown;
    }
  },
});
