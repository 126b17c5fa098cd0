import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { failWrites, restoreWrites } from '../libraries/library-world.ts';
import { sqliteWorld } from '../operations/set-interval/sqlite/set-interval-world.ts';
import { STORE_FAILURE } from './store-switch.ts';

const insertReceipt = (db: Database.Database, id: string) =>
  db.prepare("INSERT INTO receipts VALUES ('w1', 'alice', 't', ?, '{}', '{}')").run(id);

describe('the receipt-store switch', () => {
  it('fails and restores receipt inserts without changing the schema', () => {
    const db = new Database(':memory:');
    sqliteWorld.setup(db, DEFAULT_FIXTURE);
    insertReceipt(db, 'r1');
    const version = db.pragma('schema_version', { simple: true });
    sqliteWorld.failReceipts(db);
    sqliteWorld.failReceipts(db);
    expect(() => insertReceipt(db, 'r2')).toThrow(STORE_FAILURE);
    expect(sqliteWorld.snapshot(db).receipts).toHaveLength(1);
    sqliteWorld.restoreReceipts(db);
    sqliteWorld.restoreReceipts(db);
    insertReceipt(db, 'r2');
    expect(db.pragma('schema_version', { simple: true })).toBe(version);
    db.close();
  });

  it('installs itself on a table set up without it, for every kind of write', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE records(k TEXT PRIMARY KEY, v TEXT); INSERT INTO records VALUES (1, 1)');
    restoreWrites(db, 'records');
    failWrites(db, 'records');
    expect(() => db.exec('INSERT INTO records VALUES (2, 2)')).toThrow(STORE_FAILURE);
    expect(() => db.exec('UPDATE records SET v = 3')).toThrow(STORE_FAILURE);
    expect(() => db.exec('DELETE FROM records')).toThrow(STORE_FAILURE);
    expect(db.prepare('SELECT count(*) AS n FROM records').get()).toEqual({ n: 1 });
    restoreWrites(db, 'records');
    db.exec('DELETE FROM records');
    db.close();
  });

  it('still fails writes when setup made the guarded table again after the switch', () => {
    // Dropping a table drops its triggers: a plugin that replaces the bundled receipts table
    // (testing/handlers/input-bugs/digits-become-numbers.ts) keeps only the flag table.
    const db = new Database(':memory:');
    sqliteWorld.setup(db, DEFAULT_FIXTURE);
    db.exec(`DROP TABLE receipts;
      CREATE TABLE receipts(workspace_id TEXT, user_id TEXT, tool TEXT, request_id NUMERIC,
        payload TEXT, response TEXT, PRIMARY KEY(workspace_id, user_id, tool, request_id))`);
    sqliteWorld.failReceipts(db);
    expect(() => insertReceipt(db, 'r1')).toThrow(STORE_FAILURE);
    sqliteWorld.restoreReceipts(db);
    insertReceipt(db, 'r1');
    db.close();
  });
});
