/**
 * Mutant: checks access and looks the receipt up before taking the write lock, then writes in a
 * `BEGIN IMMEDIATE` transaction that no longer re-reads the receipt. One call at a time, it
 * behaves exactly like the reference. Two first attempts under one key both miss the receipt
 * (check), then both try to write (act): the second finds the version already advanced and
 * answers `conflict` where the contract demands a replay (identical duplicates) or `keyReuse`
 * (mismatched ones). Real-world class: the idempotency lookup done by middleware or an ORM read
 * outside the transaction that performs the write. Only concurrent mode can catch it.
 */
import { outcome } from '../../model/outcome.ts';
import { TOOL } from '../../model/world.ts';
import { defineHandler } from '../plugin.ts';
import { inImmediateTransaction, precheck } from '../reference.ts';
import { parseResult } from '../reference-steps.ts';
import { canonicalPayload, resultText, sqliteWorld } from '../sqlite-world.ts';

export default defineHandler({
  name: 'check-then-act',
  description:
    'Reads access and the receipt before BEGIN IMMEDIATE, so two racing first attempts both miss the receipt.',
  ...sqliteWorld,
  call(db, principal, request) {
    const r = precheck(principal, request);
    if ('kind' in r) return r;
    // The bug: these reads run in autocommit mode, outside the transaction that writes.
    const visible = db
      .prepare('SELECT 1 FROM automations WHERE id = ? AND workspace_id = ?')
      .get(r.automationId, principal.workspace);
    if (!visible) return outcome.refused('unavailable');
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
    return inImmediateTransaction(db, () => {
      const row = db
        .prepare(
          `UPDATE automations SET interval_minutes = ?, version = version + 1
           WHERE id = ? AND workspace_id = ? AND version = ?
           RETURNING id, interval_minutes, version`,
        )
        .get(r.intervalMinutes, r.automationId, principal.workspace, r.expectedVersion) as
        | { id: number; interval_minutes: number; version: number }
        | undefined;
      if (!row) return outcome.refused('conflict');
      db.prepare('INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
        ...key,
        payload,
        resultText(row.id, row.interval_minutes, row.version),
      );
      return outcome.fresh({
        id: row.id,
        intervalMinutes: row.interval_minutes,
        version: row.version,
      });
    });
  },
});
