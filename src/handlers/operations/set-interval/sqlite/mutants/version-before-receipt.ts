/**
 * Mutant: checks the expected version before looking up the receipt. The original success
 * already advanced the version, so the retry after a lost response is refused as a conflict
 * instead of replayed. Real-world class: optimistic concurrency bolted on before idempotency.
 */
import { outcome } from '../../../../../model/outcome.ts';
import { cachedStatement } from '../../../../sqlite/statement-cache.ts';
import { defineStepMutant } from './define-step-mutant.ts';

export default defineStepMutant({
  name: 'version-before-receipt',
  description:
    'Checks the expected version before the receipt lookup, so a retry after a lost response gets a conflict.',
  // The bug: the version is checked before the receipt lookup that the reference does next.
  first(db, principal, r) {
    const row = cachedStatement(
      db,
      'SELECT version FROM automations WHERE id = ? AND workspace_id = ?',
    ).get(r.automationId, principal.workspace) as { version: number } | undefined;
    return row && row.version !== r.expectedVersion ? outcome.refused('conflict') : undefined;
  },
});
