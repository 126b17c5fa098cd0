/**
 * PostgreSQL mutant: `key-lock-base.ts` with its key lock taken at session level and released
 * with `pg_advisory_unlock` just before COMMIT. Between the unlock and the commit a second
 * attempt of the same key gets the lock, reads no receipt (the first has not committed), and its
 * update then waits for the first and matches no row: a conflict where the replay was due.
 */

import { keyLockText } from '../../../../postgres/transaction.ts';
import { type PgSteps, stepsHandler } from '../set-interval-pg-steps.ts';
import { KEY_LOCK_STEPS } from './key-lock-base.ts';

const unlock: PgSteps['afterRollback'] = async (db, principal, r) => {
  await db.query('SELECT pg_advisory_unlock(hashtext($1))', [
    keyLockText(principal.workspace, principal.user, r.requestId),
  ]);
};

export default stepsHandler(
  'pg-unlock-before-commit',
  'Holds its key lock at session level and releases it with pg_advisory_unlock before COMMIT, so a racing attempt of the same key reads before the first commits.',
  {
    ...KEY_LOCK_STEPS,
    async lockKey(db, principal, r) {
      await db.query('SELECT pg_advisory_lock(hashtext($1))', [
        keyLockText(principal.workspace, principal.user, r.requestId),
      ]);
    },
    beforeCommit: unlock,
    // Released after a rollback too (a session lock outlives it), so only the early release is wrong.
    afterRollback: unlock,
  },
);
