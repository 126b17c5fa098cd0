/**
 * The in-place reset the racing modes and the raw loop use: whatever a run did, the next finds
 * the template's rows and schema, a receipt store the run left down included (the switch's flag
 * row is the template's again before the rows its triggers guard go back).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { failWrites } from '../handlers/libraries/library-world.ts';
import { sqliteWorld } from '../handlers/sqlite-world.ts';
import { flagDdl, STORE_FAILURE, triggerDdl } from '../handlers/store-switch.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { templateResetter } from './reset-to-template.ts';
import { makeTempDir, removeTempDir } from './temp-dirs.ts';

const dir = makeTempDir('reset-test');
afterAll(() => removeTempDir(dir));

/** A template file made by `setup`, and a connection to a copy of it. */
function copyOf(name: string, setup: (db: Database.Database) => void) {
  const template = join(dir, `${name}.sqlite`);
  const db = new Database(template);
  setup(db);
  db.close();
  const path = join(dir, `${name}-run.sqlite`);
  copyFileSync(template, path);
  return { reset: templateResetter(template), db: new Database(path) };
}

const insertReceipt = (db: Database.Database, id: string) =>
  db.prepare("INSERT INTO receipts VALUES ('w1', 'alice', 't', ?, '{}', '{}')").run(id);

describe('a reset to the template', () => {
  it('brings the receipt store back up after a run that left it down', () => {
    const { reset, db } = copyOf('reference', (t) => sqliteWorld.setup(t, DEFAULT_FIXTURE));
    insertReceipt(db, 'r1');
    sqliteWorld.failReceipts(db);
    expect(() => insertReceipt(db, 'r2')).toThrow(STORE_FAILURE);
    reset(db);
    expect(db.prepare('SELECT count(*) FROM receipts').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM receiptcheck_receipts_down').pluck().get()).toBe(0);
    insertReceipt(db, 'r2');
    db.close();
  });

  it('clears the flag before the rows of a table guarded against deletes, made before its flag', () => {
    const { reset, db } = copyOf('guarded', (t) => {
      t.exec("CREATE TABLE a_records(k TEXT PRIMARY KEY); INSERT INTO a_records VALUES ('t')");
      t.exec(flagDdl('a_records') + triggerDdl('a_records', ['INSERT', 'UPDATE', 'DELETE']));
    });
    db.exec("INSERT INTO a_records VALUES ('run')");
    failWrites(db, 'a_records');
    expect(() => db.exec('DELETE FROM a_records')).toThrow(STORE_FAILURE);
    reset(db);
    expect(db.prepare('SELECT k FROM a_records').pluck().all()).toEqual(['t']);
    db.exec("INSERT INTO a_records VALUES ('next'); DELETE FROM a_records");
    db.close();
  });
});
