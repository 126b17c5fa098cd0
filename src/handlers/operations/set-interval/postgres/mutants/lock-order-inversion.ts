/**
 * PostgreSQL mutant: the reference plus the automation's scheduler lock (an advisory lock its
 * admin paths take too), taken in the opposite order to them. Changing an interval reschedules
 * the automation, so the call, having locked and updated the row, takes the scheduler lock just
 * before it commits a change; a move or delete takes the scheduler lock first and then writes the row. A call
 * and a move on one automation can each hold one lock and wait for the other: PostgreSQL aborts
 * one with a deadlock error (SQLSTATE 40P01). The admin path retries it, as batch jobs do; the
 * call lets it escape.
 */
import type { PgConnection } from '../../../../postgres/plugin.ts';
import { REFERENCE_STEPS, stepsHandler } from '../set-interval-pg-steps.ts';
import { postgresSetIntervalWorld } from '../set-interval-pg-world.ts';

/** The scheduler locks' first key: a namespace apart from the receipt keys' locks. */
const SCHEDULER_LOCKS = 1;
const ATTEMPTS_MAX = 5;

/** Runs `write` as an admin job does: under the automation's scheduler lock, retried on a deadlock. */
async function adminWrite(db: PgConnection, id: number, write: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await db.query('BEGIN');
    try {
      await db.query('SELECT pg_advisory_xact_lock($1, $2)', [SCHEDULER_LOCKS, id]);
      await write();
      await db.query('COMMIT');
      return;
    } catch (thrown) {
      await db.query('ROLLBACK');
      if ((thrown as { code?: unknown }).code !== '40P01' || attempt >= ATTEMPTS_MAX) throw thrown;
    }
  }
}

export default stepsHandler(
  'pg-lock-order-inversion',
  "Takes the automation's scheduler lock after the row lock (just before COMMIT), while its move and delete take them the other way round, so a call racing a move can deadlock (40P01) and lets the error escape.",
  {
    ...REFERENCE_STEPS,
    async beforeCommit(db, _principal, r, answer) {
      if (answer.kind !== 'ok' || answer.replayed) return; // nothing to reschedule
      await db.query('SELECT pg_advisory_xact_lock($1, $2)', [SCHEDULER_LOCKS, r.automationId]);
    },
  },
  {
    move: (db, id, workspace) =>
      adminWrite(db, id, () => postgresSetIntervalWorld.move(db, id, workspace)),
    delete: (db, id) => adminWrite(db, id, () => postgresSetIntervalWorld.delete(db, id)),
  },
);
