/**
 * A correct `move-stock` handler on SQLite, as a user writes one: scope, the zod schema field by
 * field (and the two bins distinct, the spec's rule for its targets), then one
 * `BEGIN IMMEDIATE` transaction: both bins in the caller's workspace, the receipt, the stock
 * left, both legs and the receipt together. `destinationUnchecked` plants a bug: the destination
 * bin's workspace is not checked, so stock can be moved into another tenant's bin.
 */
import {
  type Connection,
  defineOperationHandler,
  outcome,
  type Receipt,
  type Row,
  targetRows,
} from '../../../src/index.ts';
import { MoveStockInput, moveStock } from './move-stock.ts';

const SCHEMA = `
  CREATE TABLE bins (id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL, stock INTEGER NOT NULL);
  CREATE TABLE receipts (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
    request_id TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
    PRIMARY KEY (workspace_id, user_id, tool, request_id));`;

const TOOL = 'move_stock.v1';
const writeFailed = (e: unknown) =>
  String((e as { code?: unknown } | null)?.code).startsWith('SQLITE_CONSTRAINT');

type ReceiptRow = Record<
  'workspace_id' | 'user_id' | 'tool' | 'request_id' | 'payload' | 'response',
  string
>;
function readReceipts(db: Connection): Receipt[] {
  return (db.prepare('SELECT * FROM receipts').all() as ReceiptRow[]).map((r) => ({
    workspace: r.workspace_id,
    user: r.user_id,
    tool: r.tool,
    requestId: r.request_id,
    payload: JSON.parse(r.payload),
    result: JSON.parse(r.response),
  }));
}

/** The plugin; `destinationUnchecked` checks only the source bin's workspace (the planted bug). */
export function moveStockHandler(name: string, destinationUnchecked = false) {
  return defineOperationHandler({
    name,
    operation: moveStock,
    replayable: true,
    setup(db, fixture) {
      db.exec(SCHEMA);
      const insert = db.prepare('INSERT INTO bins VALUES (?, ?, ?)');
      for (const b of targetRows(fixture, moveStock)) insert.run(b.id, b.workspace, b.stock);
    },
    call(db, principal, request) {
      if (!principal.scopes.includes('stock:write')) return outcome.refused('forbidden');
      const { requestId } = request;
      if (typeof requestId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(requestId))
        return outcome.invalid('requestId');
      for (const [field, schema] of Object.entries(MoveStockInput.shape)) {
        if (!schema.safeParse(request[field]).success) return outcome.invalid(field);
        if (field === 'toBinId' && request.toBinId === request.fromBinId)
          return outcome.invalid('toBinId');
      }
      const { fromBinId, toBinId, qty } = MoveStockInput.parse(request);
      const key = [principal.workspace, principal.user, TOOL, requestId];
      const payload = JSON.stringify({ from: fromBinId, to: toBinId, qty });
      const inWorkspace = (id: number) =>
        db
          .prepare('SELECT 1 FROM bins WHERE id = ? AND workspace_id = ?')
          .get(id, principal.workspace) !== undefined;
      db.exec('BEGIN IMMEDIATE');
      try {
        if (!inWorkspace(fromBinId) || (!destinationUnchecked && !inWorkspace(toBinId)))
          return outcome.refused('unavailable');
        const stored = db
          .prepare(
            'SELECT payload, response FROM receipts WHERE (workspace_id, user_id, tool, request_id) = (?, ?, ?, ?)',
          )
          .get(...key) as { payload: string; response: string } | undefined;
        if (stored)
          return stored.payload === payload
            ? outcome.replayed(JSON.parse(stored.response))
            : outcome.keyReuse();
        const { stock } = db.prepare('SELECT stock FROM bins WHERE id = ?').get(fromBinId) as {
          stock: number;
        };
        if (stock < qty) return outcome.refused('out-of-stock');
        const post = db.prepare('UPDATE bins SET stock = stock + ? WHERE id = ? RETURNING stock');
        const from = post.get(-qty, fromBinId) as { stock: number };
        const to = post.get(qty, toBinId) as { stock: number } | undefined;
        const result = { fromBinId, fromStock: from.stock, toBinId, toStock: to?.stock ?? 0 };
        db.prepare('INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
          ...key,
          payload,
          JSON.stringify(result),
        );
        db.exec('COMMIT');
        return outcome.fresh(result);
      } catch (e) {
        if (writeFailed(e)) return outcome.error(String(e));
        throw e;
      } finally {
        if (db.inTransaction) db.exec('ROLLBACK');
      }
    },
    move: (db, id, workspace) =>
      void db.prepare('UPDATE bins SET workspace_id = ? WHERE id = ?').run(workspace, id),
    delete: (db, id) => void db.prepare('DELETE FROM bins WHERE id = ?').run(id),
    recreate: (db, b) =>
      void db
        .prepare('INSERT OR IGNORE INTO bins VALUES (?, ?, ?)')
        .run(b.id, b.workspace, b.stock),
    failReceipts: (db) =>
      void db.exec(
        `CREATE TRIGGER IF NOT EXISTS fail BEFORE INSERT ON receipts BEGIN SELECT RAISE(ABORT, 'down'); END`,
      ),
    restoreReceipts: (db) => void db.exec('DROP TRIGGER IF EXISTS fail'),
    snapshot: (db) => ({
      bins: db
        .prepare('SELECT id, workspace_id AS workspace, stock FROM bins ORDER BY id')
        .all() as Row[],
      receipts: readReceipts(db),
    }),
  });
}

export default moveStockHandler('move-stock');
