/**
 * A correct `book-seats` handler on SQLite, as a user writes one: scope, the zod schema field by
 * field, then one `BEGIN IMMEDIATE` transaction (show, receipt, seats left, the booking and the
 * receipt together). Booking ids come from `AUTOINCREMENT`: never reused, never predicted.
 * `lookupAfterCommit` and `checkThenAct` let the tests plant the classic race.
 */
import {
  type Connection,
  defineOperationHandler,
  outcome,
  type Receipt,
  type Row,
  targetRows,
} from '../../../src/index.ts';
import { BookSeatsInput, bookSeats } from './book-seats.ts';

const SCHEMA = `
  CREATE TABLE shows (
    id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL, capacity INTEGER NOT NULL, sold INTEGER NOT NULL);
  CREATE TABLE bookings (
    id INTEGER PRIMARY KEY AUTOINCREMENT, show_id INTEGER NOT NULL, seats INTEGER NOT NULL, holder TEXT NOT NULL);
  CREATE TABLE receipts (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
    request_id TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
    PRIMARY KEY (workspace_id, user_id, tool, request_id));`;

const TOOL = 'book_seats.v1';
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

/** The plugin; `checkThenAct` reads the seats left before the transaction, the planted race. */
export function bookSeatsHandler(name: string, checkThenAct = false) {
  return defineOperationHandler({
    name,
    operation: bookSeats,
    replayable: true, // synchronous, no clock, no state between calls
    setup(db, fixture) {
      db.exec(SCHEMA);
      const insert = db.prepare('INSERT INTO shows VALUES (?, ?, ?, ?)');
      for (const s of targetRows(fixture, bookSeats))
        insert.run(s.id, s.workspace, s.capacity, s.sold);
    },
    call(db, principal, request) {
      if (!principal.scopes.includes('booking:write')) return outcome.refused('forbidden');
      const { requestId } = request;
      if (typeof requestId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(requestId))
        return outcome.invalid('requestId');
      for (const [field, schema] of Object.entries(BookSeatsInput.shape)) {
        if (!schema.safeParse(request[field]).success) return outcome.invalid(field);
      }
      const { showId, seats, holder } = BookSeatsInput.parse(request);
      const key = [principal.workspace, principal.user, TOOL, requestId];
      const payload = JSON.stringify({ show: showId, seats, holder });
      const seatsLeft = () => {
        const s = db
          .prepare('SELECT capacity - sold AS left FROM shows WHERE id = ?')
          .get(showId) as { left: number } | undefined;
        return s?.left ?? 0;
      };
      const early = checkThenAct ? seatsLeft() : undefined;
      db.exec('BEGIN IMMEDIATE');
      try {
        const show = db
          .prepare('SELECT 1 FROM shows WHERE id = ? AND workspace_id = ?')
          .get(showId, principal.workspace);
        if (!show) return outcome.refused('unavailable');
        const stored = db
          .prepare(
            'SELECT payload, response FROM receipts WHERE (workspace_id, user_id, tool, request_id) = (?, ?, ?, ?)',
          )
          .get(...key) as { payload: string; response: string } | undefined;
        if (stored)
          return stored.payload === payload
            ? outcome.replayed(JSON.parse(stored.response))
            : outcome.keyReuse();
        if (seats > (early ?? seatsLeft())) return outcome.refused('sold-out');
        db.prepare('UPDATE shows SET sold = sold + ? WHERE id = ?').run(seats, showId);
        const { id } = db
          .prepare('INSERT INTO bookings(show_id, seats, holder) VALUES (?, ?, ?) RETURNING id')
          .get(showId, seats, holder) as { id: number };
        const result = { bookingId: id, showId, seats, holder };
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
      void db.prepare('UPDATE shows SET workspace_id = ? WHERE id = ?').run(workspace, id),
    delete: (db, id) => void db.prepare('DELETE FROM shows WHERE id = ?').run(id),
    recreate: (db, s) =>
      void db
        .prepare('INSERT OR IGNORE INTO shows VALUES (?, ?, ?, ?)')
        .run(s.id, s.workspace, s.capacity, s.sold),
    failReceipts: (db) =>
      void db.exec(
        `CREATE TRIGGER IF NOT EXISTS fail BEFORE INSERT ON receipts BEGIN SELECT RAISE(ABORT, 'down'); END`,
      ),
    restoreReceipts: (db) => void db.exec('DROP TRIGGER IF EXISTS fail'),
    snapshot: (db) => ({
      shows: db
        .prepare('SELECT id, workspace_id AS workspace, capacity, sold FROM shows')
        .all() as Row[],
      bookings: db
        .prepare('SELECT id, show_id AS showId, seats, holder FROM bookings')
        .all() as Row[],
      receipts: readReceipts(db),
    }),
  });
}

export default bookSeatsHandler('book-seats');
