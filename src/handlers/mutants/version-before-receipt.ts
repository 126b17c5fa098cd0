/**
 * Mutant: checks the expected version before looking up the receipt. The original success
 * already advanced the version, so the retry after a lost response is refused as a conflict
 * instead of replayed. Real-world class: optimistic concurrency bolted on before idempotency.
 */
import { outcome } from '../../model/outcome.ts';
import { TOOL } from '../../model/world.ts';
import { defineHandler } from '../plugin.ts';
import { inImmediateTransaction, precheck } from '../reference.ts';
import { parseResult } from '../reference-steps.ts';
import { canonicalPayload, resultText, sqliteWorld } from '../sqlite-world.ts';

export default defineHandler({
  name: 'version-before-receipt',
  description:
    'Checks the expected version before the receipt lookup, so a retry after a lost response gets a conflict.',
  ...sqliteWorld,
  call(db, principal, request) {
    const r = precheck(principal, request);
    if ('kind' in r) return r;
    return inImmediateTransaction(db, () => {
      const row = db
        .prepare('SELECT version FROM automations WHERE id = ? AND workspace_id = ?')
        .get(r.automationId, principal.workspace) as { version: number } | undefined;
      if (!row) return outcome.refused('unavailable');
      if (row.version !== r.expectedVersion) return outcome.refused('conflict');
      const payload = canonicalPayload(r.automationId, r.expectedVersion, r.intervalMinutes);
      const key = [principal.workspace, principal.user, TOOL, r.requestId];
      const old = db
        .prepare(
          'SELECT payload, response FROM receipts WHERE workspace_id = ? AND user_id = ? AND tool = ? AND request_id = ?',
        )
        .get(...key) as { payload: string; response: string } | undefined;
      if (old)
        return old.payload === payload
          ? outcome.replayed(parseResult(old.response))
          : outcome.keyReuse();
      const version = row.version + 1;
      db.prepare('UPDATE automations SET interval_minutes = ?, version = ? WHERE id = ?').run(
        r.intervalMinutes,
        version,
        r.automationId,
      );
      db.prepare('INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
        ...key,
        payload,
        resultText(r.automationId, r.intervalMinutes, version),
      );
      return outcome.fresh({ id: r.automationId, intervalMinutes: r.intervalMinutes, version });
    });
  },
});
