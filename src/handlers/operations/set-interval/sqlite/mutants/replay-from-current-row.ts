/**
 * Mutant: a recognised retry answers with the automation as it is now, not with the result the
 * original call committed. After a newer edit, the retry reports that edit as its own.
 * Real-world class: replay reconstructed from current resource state instead of a stored
 * response (the receipt kept only as a "done" marker).
 */
import { outcome } from '../../../../../model/outcome.ts';
import { payloadOf } from '../set-interval-steps.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that a replay re-reads the row. */
export default defineStepMutant({
  name: 'replay-from-current-row',
  description:
    'Builds a replay from the current row instead of the stored result, so a retry after a newer edit reports that edit.',
  steps: {
    answerReceipt(db, stored, r) {
      if (stored.payload !== payloadOf(r)) return outcome.keyReuse();
      const row = db
        .prepare('SELECT id, interval_minutes, version FROM automations WHERE id = ?')
        .get(r.automationId) as { id: number; interval_minutes: number; version: number };
      return outcome.replayed({
        id: row.id,
        intervalMinutes: row.interval_minutes,
        version: row.version,
      });
    },
  },
});
