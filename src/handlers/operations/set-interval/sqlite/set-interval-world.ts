/**
 * The article's schema and everything around the call that the bundled SQLite handlers share:
 * setup, world events, the receipt-store failure switch and the snapshot. The reference handler
 * and every mutant build on this, so a mutant differs from the reference only in its `call`.
 */
import type {
  Automation,
  CallResult,
  Receipt,
  SetIntervalFixture,
  Snapshot,
} from '../../../../model/world.ts';
import { compareReceiptKeys } from '../../../../model/world.ts';
import type { Connection, HandlerPlugin } from '../../../plugin.ts';
import { cachedRawStatement, cachedStatement } from '../../../sqlite/statement-cache.ts';
import { flagDdl, storeDown, storeUp, triggerDdl } from '../../../sqlite/store-switch.ts';

/** The message a failing receipt store raises. */
export { STORE_FAILURE } from '../../../sqlite/store-switch.ts';

const SCHEMA = `
${flagDdl('receipts')}
CREATE TABLE automations(
  id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL,
  interval_minutes INTEGER NOT NULL, version INTEGER NOT NULL);
CREATE TABLE receipts(
  workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
  request_id TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
  PRIMARY KEY(workspace_id, user_id, tool, request_id));
${triggerDdl('receipts', ['INSERT'])}
`;

/** The canonical payload text a receipt binds its key to: the three integers, keys sorted. */
export function canonicalPayload(id: number, version: number, interval: number): string {
  return JSON.stringify({ id, interval, version });
}

/** The stored result text: the row right after the write, keys sorted. */
export function resultText(id: number, intervalMinutes: number, version: number): string {
  return JSON.stringify({ id, interval_minutes: intervalMinutes, version });
}

/** Everything a plugin needs besides `call`, for the article's schema. */
export const sqliteWorld: Omit<
  HandlerPlugin<SetIntervalFixture>,
  'name' | 'description' | 'call'
> = {
  setup(db: Connection, fixture: SetIntervalFixture): void {
    db.exec(SCHEMA);
    const insert = db.prepare('INSERT INTO automations VALUES (?, ?, ?, ?)');
    for (const a of fixture.automations)
      insert.run(a.id, a.workspace, a.intervalMinutes, a.version);
  },
  move(db, automationId, workspace) {
    cachedStatement(db, 'UPDATE automations SET workspace_id = ? WHERE id = ?').run(
      workspace,
      automationId,
    );
  },
  delete(db, automationId) {
    cachedStatement(db, 'DELETE FROM automations WHERE id = ?').run(automationId);
  },
  recreate(db, row) {
    cachedStatement(db, 'INSERT OR IGNORE INTO automations VALUES (?, ?, ?, ?)').run(
      row.id,
      row.workspace,
      row.intervalMinutes,
      row.version,
    );
  },
  failReceipts(db) {
    storeDown(db, 'receipts', ['INSERT']);
  },
  restoreReceipts(db) {
    storeUp(db, 'receipts');
  },
  snapshot(db): Snapshot {
    // Raw rows: the snapshot builds its own objects, so a row object per row was only garbage.
    const automationRows = cachedRawStatement(
      db,
      'SELECT id, workspace_id, interval_minutes, version FROM automations ORDER BY id',
    ).all() as [number, string, number, number][];
    const receiptRows = cachedRawStatement(
      db,
      'SELECT workspace_id, user_id, tool, request_id, payload, response FROM receipts',
    ).all() as ReceiptRow[];
    const automations = automationRows.map(
      ([id, workspace, intervalMinutes, version]): Automation => ({
        id,
        workspace,
        intervalMinutes,
        version,
      }),
    );
    const receipts = receiptRows.map(toReceipt);
    return { automations, receipts: receipts.sort(compareReceiptKeys) };
  },
};

/** A `receipts` row as the article's schema stores it, in its columns' order. */
type ReceiptRow = [
  workspace: string,
  user: string,
  tool: string,
  requestId: string,
  payload: string,
  response: string,
];

/** Parses a stored response (`resultText`'s output) back into a result. */
export function parseResult(text: string): CallResult {
  const r = JSON.parse(text) as { id: number; interval_minutes: number; version: number };
  return { id: r.id, intervalMinutes: r.interval_minutes, version: r.version };
}

function toReceipt([workspace, user, tool, requestId, payload, response]: ReceiptRow): Receipt {
  return {
    workspace,
    user,
    tool,
    requestId,
    payload: JSON.parse(payload),
    result: parseResult(response),
  };
}
