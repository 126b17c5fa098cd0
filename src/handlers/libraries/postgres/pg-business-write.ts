/**
 * The business function library plugins wrap, on PostgreSQL (`../business-write.ts` on SQLite):
 * the versioned `set_interval` row update as an application writes it, knowing nothing of keys
 * or receipts. One transaction locks the row as it checks access, so the version it then checks
 * is the one it writes over. Ids and versions compare as `bigint` (a valid one may be any safe
 * integer), and the workspace as the world stores it (`pg-text.ts`). A refusal is thrown, as application code throws domain errors.
 */
import { type Principal, type Receipt, TOOL } from '../../../model/world.ts';
import type { ValidRequest } from '../../operations/set-interval/sqlite/set-interval-steps.ts';
import { toPgText } from '../../postgres/pg-text.ts';
import type { PgConnection } from '../../postgres/plugin.ts';
import { Refusal } from '../business-write.ts';

/** Contract rules 6, 8 and 9 in one transaction; returns the receipt document the library stores. */
export async function pgSetIntervalWrite(
  db: PgConnection,
  principal: Pick<Principal, 'workspace' | 'user'>,
  r: ValidRequest,
): Promise<Receipt> {
  await db.query('BEGIN');
  try {
    const access = await db.query(
      'SELECT 1 FROM automations WHERE id = $1::bigint AND workspace_id = $2 FOR UPDATE',
      [r.automationId, toPgText(principal.workspace)],
    );
    if (access.rows.length === 0) throw new Refusal('unavailable');
    const updated = await db.query<{ id: number; interval_minutes: number; version: number }>(
      `UPDATE automations SET interval_minutes = $1, version = version + 1
         WHERE id = $2::bigint AND workspace_id = $3 AND version = $4::bigint
         RETURNING id, interval_minutes, version`,
      [r.intervalMinutes, r.automationId, toPgText(principal.workspace), r.expectedVersion],
    );
    const row = updated.rows[0];
    if (!row) throw new Refusal('conflict');
    await db.query('COMMIT');
    return {
      workspace: principal.workspace,
      user: principal.user,
      tool: TOOL,
      requestId: r.requestId,
      payload: { id: r.automationId, version: r.expectedVersion, interval: r.intervalMinutes },
      result: { id: row.id, intervalMinutes: row.interval_minutes, version: row.version },
    };
  } catch (thrown) {
    await db.query('ROLLBACK');
    throw thrown;
  }
}
