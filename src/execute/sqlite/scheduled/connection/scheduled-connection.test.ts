/**
 * Which statements a scheduled connection marks `durable` (they made rows durable: a commit of a
 * transaction that changed rows, or a write outside any transaction), the mark the judge places a
 * call's effect by. `total_changes()` is read only after a statement that may have changed rows,
 * so every way of writing is shown here beside the reads, rollbacks and empty commits it must not
 * mark: a prepared write, an `exec` write, and a whole script in one `exec` that begins with BEGIN.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StatementLog } from '../coordinator/statement-log.ts';
import { ScheduledConnection } from './scheduled-connection.ts';

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function connection(): { conn: ScheduledConnection; log: StatementLog } {
  const db = new Database(':memory:');
  opened.push(db);
  db.exec('CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER); INSERT INTO t VALUES (1, 0)');
  const log = new StatementLog();
  const conn = new ScheduledConnection(db, log);
  return { conn, log };
}

/** The statements of `run` that came out durable, by their text. */
function durable(run: (db: ScheduledConnection['proxy']) => void): string[] {
  const { conn, log } = connection();
  run(conn.proxy);
  return log
    .take()
    .filter((s) => s.durable)
    .map((s) => s.sql);
}

describe('durable statements', () => {
  it('are the writes outside a transaction, prepared or executed', () => {
    expect(
      durable((db) => {
        db.prepare('SELECT v FROM t').get();
        db.prepare('UPDATE t SET v = v + 1 WHERE id = 1').run();
        db.prepare('UPDATE t SET v = v + 1 WHERE id = 99').run();
        db.exec('UPDATE t SET v = v + 1');
        db.prepare('SELECT v FROM t').get();
      }),
    ).toEqual(['UPDATE t SET v = v + 1 WHERE id = 1', 'UPDATE t SET v = v + 1']);
  });

  it('are the commits of transactions that changed rows, never a rollback or an empty commit', () => {
    expect(
      durable((db) => {
        db.exec('BEGIN IMMEDIATE');
        db.prepare('SELECT v FROM t').get();
        db.exec('COMMIT');
        db.exec('BEGIN');
        db.prepare('UPDATE t SET v = 5').run();
        db.exec('ROLLBACK');
        db.exec('BEGIN');
        db.prepare('UPDATE t SET v = 6').run();
        db.exec('COMMIT');
        db.transaction(() => db.prepare('SELECT v FROM t').get())();
        db.transaction(() => db.prepare('UPDATE t SET v = 7').run()).immediate();
      }),
    ).toEqual(['COMMIT', 'COMMIT']);
  });

  it('include a whole script in one exec that begins with BEGIN and writes', () => {
    expect(
      durable((db) => {
        db.exec('BEGIN; UPDATE t SET v = 8; COMMIT;');
        db.exec('BEGIN; SELECT 1; COMMIT;');
      }),
    ).toEqual(['BEGIN; UPDATE t SET v = 8; COMMIT;']);
  });
});
