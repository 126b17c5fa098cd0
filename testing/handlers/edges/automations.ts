/**
 * A `set-interval` handler on SQLite as a user writes one: scope, validation, then one
 * `BEGIN IMMEDIATE` transaction (the automation in the caller's workspace, the receipt, the
 * expected version, the write and the receipt together). The bug, when planted, is the version
 * check written `expectedVersion + 1 < version`: an expected version one behind, at the
 * precondition's edge, is taken for the current one and overwrites a change the client never saw.
 */
import {
  defineHandler,
  outcome,
  type Row,
  setIntervalSpec,
  targetRows,
} from '../../../src/index.ts';
import {
  inTransaction,
  isId,
  isRequestId,
  RECEIPTS_SQL,
  readReceipts,
  receiptStore,
  storedReceipt,
  storeReceipt,
} from './sqlite-kit.ts';

const SCHEMA = `
  CREATE TABLE automations (
    id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL,
    interval_minutes INTEGER NOT NULL, version INTEGER NOT NULL);
  ${RECEIPTS_SQL}`;

const TOOL = 'set_interval.v1';

/** The plugin; `oneBehind` plants the off-by-one in the version check. */
export function automationsHandler(name: string, oneBehind = false) {
  return defineHandler({
    name,
    operation: setIntervalSpec,
    replayable: true,
    setup(db, fixture) {
      db.exec(SCHEMA);
      const insert = db.prepare('INSERT INTO automations VALUES (?, ?, ?, ?)');
      for (const a of targetRows(fixture, setIntervalSpec))
        insert.run(a.id, a.workspace, a.intervalMinutes, a.version);
    },
    call(db, principal, request) {
      if (!principal.scopes.includes('automation:write')) return outcome.refused('forbidden');
      const { requestId, automationId, expectedVersion, intervalMinutes } = request;
      if (!isRequestId(requestId)) return outcome.invalid('requestId');
      if (!isId(automationId)) return outcome.invalid('automationId');
      if (!isId(expectedVersion)) return outcome.invalid('expectedVersion');
      const minutes = intervalMinutes as number;
      if (!Number.isSafeInteger(minutes) || minutes < 5 || minutes > 1440)
        return outcome.invalid('intervalMinutes');
      const key = [principal.workspace, principal.user, TOOL, requestId];
      const payload = JSON.stringify({
        id: automationId,
        version: expectedVersion,
        interval: intervalMinutes,
      });
      return inTransaction(db, () => {
        const row = db
          .prepare('SELECT version FROM automations WHERE id = ? AND workspace_id = ?')
          .get(automationId, principal.workspace) as { version: number } | undefined;
        if (!row) return outcome.refused('unavailable');
        const stored = storedReceipt(db, key);
        if (stored)
          return stored.payload === payload
            ? outcome.replayed(JSON.parse(stored.response))
            : outcome.keyReuse();
        const stale = oneBehind
          ? expectedVersion + 1 < row.version || expectedVersion > row.version
          : expectedVersion !== row.version;
        if (stale) return outcome.refused('conflict');
        const after = db
          .prepare(
            'UPDATE automations SET interval_minutes = ?, version = version + 1 WHERE id = ? RETURNING version',
          )
          .get(intervalMinutes, automationId) as { version: number };
        const result = { id: automationId, intervalMinutes, version: after.version };
        storeReceipt(db, key, payload, result);
        return outcome.fresh(result);
      });
    },
    move: (db, id, workspace) =>
      void db.prepare('UPDATE automations SET workspace_id = ? WHERE id = ?').run(workspace, id),
    delete: (db, id) => void db.prepare('DELETE FROM automations WHERE id = ?').run(id),
    recreate: (db, a) =>
      void db
        .prepare('INSERT OR IGNORE INTO automations VALUES (?, ?, ?, ?)')
        .run(a.id, a.workspace, a.intervalMinutes, a.version),
    ...receiptStore,
    snapshot: (db) => ({
      automations: db
        .prepare(
          'SELECT id, workspace_id AS workspace, interval_minutes AS intervalMinutes, version FROM automations',
        )
        .all() as Row[],
      receipts: readReceipts(db),
    }),
  });
}

export default automationsHandler('automations');
