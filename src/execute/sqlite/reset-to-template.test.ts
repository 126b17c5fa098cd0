/**
 * The in-place reset the racing modes and the raw loop use: whatever a run did, the next finds
 * the template's rows and schema, a receipt store the run left down included (the switch's flag
 * row is the template's again before the rows its triggers guard go back).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { failWrites } from '../../handlers/libraries/library-world.ts';
import { sqliteWorld } from '../../handlers/operations/set-interval/sqlite/set-interval-world.ts';
import { flagDdl, STORE_FAILURE, triggerDdl } from '../../handlers/sqlite/store-switch.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { makeTempDir, removeTempDir } from '../runtime/temp-dirs.ts';
import { templateResetter } from './reset-to-template.ts';

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

/** Every row of `table` with its rowid, in rowid order. */
const rowsOf = (db: Database.Database, table: string) =>
  db.prepare(`SELECT rowid AS _r, * FROM ${table} ORDER BY rowid`).raw(true).all();

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

  it('puts back tables of more rows than one INSERT takes, and of many columns, row for row', () => {
    const wideColumns = Array.from({ length: 600 }, (_, i) => `c${i}`);
    const { reset, db } = copyOf('batches', (t) => {
      // 150 rows: two whole batches and a short one; 128: whole batches only; 600 columns: a row
      // an INSERT; none has an INTEGER PRIMARY KEY, so the rowids come from the order of inserts.
      t.exec('CREATE TABLE big(a, b, c); CREATE TABLE exact(a); CREATE TABLE one(a, b)');
      t.exec(`CREATE TABLE wide(${wideColumns.join(', ')})`);
      const big = t.prepare('INSERT INTO big VALUES (?, ?, ?)');
      for (let i = 0; i < 150; i++) big.run(i, `text ${i}`, i % 3 === 0 ? null : i / 7);
      const exact = t.prepare('INSERT INTO exact VALUES (?)');
      for (let i = 0; i < 128; i++) exact.run(`e${i}`);
      t.prepare('INSERT INTO one VALUES (?, ?)').run('only', 1);
      const wide = t.prepare(`INSERT INTO wide VALUES (${wideColumns.map(() => '?').join(', ')})`);
      for (let r = 0; r < 3; r++) wide.run(wideColumns.map((_, i) => r * 1000 + i));
    });
    const tables = ['big', 'exact', 'one', 'wide'];
    const template = Object.fromEntries(tables.map((t) => [t, rowsOf(db, t)]));
    for (let round = 0; round < 2; round++) {
      db.exec("DELETE FROM big WHERE a % 5 = 0; UPDATE big SET b = 'changed' WHERE a = 149");
      db.exec("INSERT INTO big VALUES (1000, 'new', 1); DELETE FROM exact WHERE rowid = 1");
      db.exec("DELETE FROM one; UPDATE wide SET c599 = 'x' WHERE rowid = 3");
      reset(db);
      for (const t of tables) expect(rowsOf(db, t)).toEqual(template[t]);
    }
    db.close();
  });

  it('puts the rows back without firing the triggers of the schema, which come back as they were', () => {
    const { reset, db } = copyOf('audited', (t) => {
      // An audit of every new or changed automation, and a stamp the row's own trigger writes:
      // the seed rows put back must fire neither.
      t.exec(`CREATE TABLE audit(automation_id INTEGER, what TEXT);
        CREATE TABLE automations(id INTEGER PRIMARY KEY, workspace TEXT, stamped INTEGER DEFAULT 0);
        INSERT INTO automations(id, workspace) VALUES (1, 'w1'), (2, 'w2');
        CREATE TRIGGER audit_new AFTER INSERT ON automations
          BEGIN INSERT INTO audit VALUES (NEW.id, 'new'); END;
        CREATE TRIGGER stamp AFTER INSERT ON automations
          BEGIN UPDATE automations SET stamped = stamped + 1 WHERE id = NEW.id; END;
        CREATE TRIGGER audit_moved AFTER UPDATE OF workspace ON automations
          BEGIN INSERT INTO audit VALUES (NEW.id, 'moved'); END;`);
    });
    const template = { automations: rowsOf(db, 'automations'), audit: rowsOf(db, 'audit') };
    expect(template.audit).toEqual([]);
    for (let round = 0; round < 2; round++) {
      db.exec("UPDATE automations SET workspace = 'w9'; INSERT INTO automations(id) VALUES (3)");
      expect(rowsOf(db, 'audit')).toHaveLength(3);
      reset(db);
      expect(rowsOf(db, 'automations')).toEqual(template.automations);
      expect(rowsOf(db, 'audit')).toEqual(template.audit);
      // The triggers are there again, and fire for what a run does.
      db.exec("UPDATE automations SET workspace = 'w8' WHERE id = 1");
      expect(rowsOf(db, 'audit')).toEqual([[1, 1, 'moved']]);
      reset(db);
    }
    db.close();
  });

  it('puts a full-text index back through its virtual table, not its shadow tables', () => {
    const { reset, db } = copyOf('fts', (t) => {
      t.exec(
        "CREATE VIRTUAL TABLE docs USING fts5(body); INSERT INTO docs VALUES ('hello world'), ('good bye')",
      );
    });
    const template = rowsOf(db, 'docs');
    const hello = db.prepare("SELECT rowid FROM docs WHERE docs MATCH 'hello'").pluck();
    for (let round = 0; round < 2; round++) {
      db.exec("INSERT INTO docs VALUES ('hello again'); DELETE FROM docs WHERE rowid = 2");
      reset(db);
      expect(rowsOf(db, 'docs')).toEqual(template);
      expect(hello.all()).toEqual([1]);
    }
    db.close();
  });

  it('puts back a table and its external-content full-text index, which its triggers keep in step', () => {
    const { reset, db } = copyOf('fts-external', (t) => {
      t.exec(`CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
        CREATE VIRTUAL TABLE notes_fts USING fts5(body, content='notes', content_rowid='id');
        CREATE TRIGGER notes_ai AFTER INSERT ON notes
          BEGIN INSERT INTO notes_fts(rowid, body) VALUES (NEW.id, NEW.body); END;
        CREATE TRIGGER notes_ad AFTER DELETE ON notes
          BEGIN INSERT INTO notes_fts(notes_fts, rowid, body) VALUES ('delete', OLD.id, OLD.body); END;
        INSERT INTO notes VALUES (1, 'hello world'), (2, 'good bye')`);
    });
    const matching = (word: string) =>
      db
        .prepare('SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rowid')
        .pluck()
        .all(word);
    for (let round = 0; round < 2; round++) {
      db.exec("INSERT INTO notes VALUES (3, 'hello again'); DELETE FROM notes WHERE id = 2");
      expect(matching('hello')).toEqual([1, 3]);
      reset(db);
      expect(rowsOf(db, 'notes')).toEqual([
        [1, 1, 'hello world'],
        [2, 2, 'good bye'],
      ]);
      expect(matching('hello')).toEqual([1]);
      expect(matching('bye')).toEqual([2]);
    }
    db.close();
  });

  it('puts back the stored columns of a table with generated ones, which come back from them', () => {
    const { reset, db } = copyOf('generated', (t) => {
      t.exec(`CREATE TABLE a(id INTEGER PRIMARY KEY, x INTEGER,
          y INTEGER GENERATED ALWAYS AS (x * 2) STORED, z GENERATED ALWAYS AS (x + 1));
        INSERT INTO a(id, x) VALUES (1, 10), (2, 20)`);
    });
    const all = db.prepare('SELECT * FROM a ORDER BY id').raw(true);
    for (let round = 0; round < 2; round++) {
      db.exec('UPDATE a SET x = 5; INSERT INTO a(id, x) VALUES (3, 30)');
      reset(db);
      expect(all.all()).toEqual([
        [1, 10, 20, 11],
        [2, 20, 40, 21],
      ]);
    }
    db.close();
  });

  it('puts rows back under the rowids setup left them, gaps included', () => {
    const { reset, db } = copyOf('gaps', (t) => {
      t.exec(`CREATE TABLE a(x TEXT); INSERT INTO a VALUES ('p'), ('q'), ('r');
        DELETE FROM a WHERE x = 'q'`);
    });
    const template = rowsOf(db, 'a');
    expect(template).toEqual([
      [1, 'p'],
      [3, 'r'],
    ]);
    for (let round = 0; round < 2; round++) {
      db.exec("DELETE FROM a; INSERT INTO a VALUES ('s')");
      reset(db);
      expect(rowsOf(db, 'a')).toEqual(template);
    }
    db.close();
  });

  it('puts back the header fields setup set, which no DDL changes: user_version, application_id', () => {
    const { reset, db } = copyOf('header', (t) => {
      t.exec('CREATE TABLE a(x)');
      t.pragma('user_version = 3');
      t.pragma('application_id = 5');
    });
    const header = () => [
      db.pragma('user_version', { simple: true }),
      db.pragma('application_id', { simple: true }),
    ];
    db.pragma('user_version = 7');
    db.pragma('application_id = 9');
    db.exec('INSERT INTO a VALUES (1)');
    reset(db);
    expect(header()).toEqual([3, 5]);
    db.close();
  });
});
