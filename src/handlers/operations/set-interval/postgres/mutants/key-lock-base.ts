/**
 * A correct variant of the PostgreSQL reference, the base of `unlock-before-commit.ts`: the
 * advisory lock on the receipt key is its only lock. The row is read without FOR UPDATE; the
 * versioned update guards it instead, and when the update matches no row, a fresh read tells a
 * moved or deleted automation (`unavailable`) from a stale version (`conflict`). With the
 * reference's row lock, releasing the key lock early would change nothing a test could see (the
 * row lock serializes every race the generators make); here the key lock is what keeps two
 * attempts of one key apart, so its mutant's early release shows.
 */
import { outcome } from '../../../../../model/outcome.ts';
import {
  type PgSteps,
  REFERENCE_STEPS,
  stepsHandler,
  unlockedAccess,
} from '../set-interval-pg-steps.ts';

/** The steps: the reference's key lock, no row lock, the update's refusal read afresh. */
export const KEY_LOCK_STEPS: PgSteps = {
  ...REFERENCE_STEPS,
  canAccess: unlockedAccess,
  async updateRow(db, principal, r) {
    const updated = await REFERENCE_STEPS.updateRow(db, principal, r);
    if (!('kind' in updated)) return updated;
    // Under READ COMMITTED this read sees what the update waited for (a move, a delete).
    return (await unlockedAccess(db, principal, r)) ? updated : outcome.refused('unavailable');
  },
};

export default stepsHandler(
  'pg-key-lock-base',
  'Correct: the advisory key lock is its only lock; the versioned update guards the row, and a refused update is read afresh to tell unavailable from conflict.',
  KEY_LOCK_STEPS,
);
