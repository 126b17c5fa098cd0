/**
 * Mutant: checks the expected version before looking up the receipt. The original success
 * already advanced the version, so the retry after a lost response is refused as a conflict
 * instead of replayed. Real-world class: optimistic concurrency bolted on before idempotency.
 */
import { outcome } from '../../model/outcome.ts';
import { defineHandler } from '../plugin.ts';
import { inImmediateTransaction, precheck } from '../reference.ts';
import { referenceSteps, runSteps } from '../reference-steps.ts';
import { sqliteWorld } from '../sqlite-world.ts';
import { cachedStatement } from '../statement-cache.ts';

export default defineHandler({
  name: 'version-before-receipt',
  description:
    'Checks the expected version before the receipt lookup, so a retry after a lost response gets a conflict.',
  ...sqliteWorld,
  replayable: true,
  call(db, principal, request) {
    const r = precheck(principal, request);
    if ('kind' in r) return r;
    return inImmediateTransaction(db, () => {
      const row = cachedStatement(
        db,
        'SELECT version FROM automations WHERE id = ? AND workspace_id = ?',
      ).get(r.automationId, principal.workspace) as { version: number } | undefined;
      // The bug: the version is checked before the receipt lookup that the reference does next.
      if (row && row.version !== r.expectedVersion) return outcome.refused('conflict');
      return runSteps(db, principal, r, referenceSteps);
    });
  },
});
