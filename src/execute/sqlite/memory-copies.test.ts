/**
 * Sequential mode reuses one in-memory copy of the template, reset between sequences: whatever a
 * sequence did, the next must find exactly what a fresh copy holds (rows under their rowids, the
 * schema, the settings), or be given a fresh copy.
 */
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../../api/check-handler.ts';
import type { Connection } from '../../handlers/plugin.ts';
import { runConnection } from './concurrent/run-connection.ts';
import { MemoryCopies } from './memory-copies.ts';
import { SCHEMA_SQL, STATE_SQL } from './memory-template.ts';

const MEMO = fileURLToPath(
  new URL('./concurrent/fixtures/per-connection-memo.ts', import.meta.url),
);

/** A template with what a faithful reset must get right: rowids with gaps, AUTOINCREMENT, a table without rowid, a generated column, a cascading foreign key. */
function testImage(): Buffer {
  const db = new Database(':memory:');
  db.exec(`
    CREATE TABLE parent(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL);
    CREATE TABLE child(parent INTEGER REFERENCES parent(id) ON DELETE CASCADE, note TEXT);
    CREATE TABLE pairs(a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
    CREATE TABLE wide(x INTEGER, doubled INTEGER GENERATED ALWAYS AS (x * 2));
    INSERT INTO parent(name) VALUES ('one'), ('two'), ('three');
    DELETE FROM parent WHERE id = 2;
    INSERT INTO child VALUES (1, 'a'), (3, 'b'), (3, 'c');
    DELETE FROM child WHERE note = 'a';
    INSERT INTO pairs VALUES ('p', 'q');
    INSERT INTO wide(x) VALUES (4);
  `);
  const image = db.serialize();
  db.close();
  return image;
}

/** Everything a connection could read back: every table's rows with rowids, the schema, the settings. */
function contents(db: Connection): unknown {
  const all = (sql: string) => db.prepare(sql).raw(true).all();
  return {
    parent: all('SELECT rowid, * FROM parent ORDER BY rowid'),
    child: all('SELECT rowid, * FROM child ORDER BY rowid'),
    pairs: all('SELECT * FROM pairs'),
    wide: all('SELECT rowid, * FROM wide ORDER BY rowid'),
    sequence: all('SELECT * FROM sqlite_sequence'),
    schema: all(SCHEMA_SQL),
    settings: STATE_SQL.slice(1).map((sql) => db.prepare(sql).pluck().get()),
  };
}

/** What a sequence might do to its database. */
const DAMAGE: Readonly<Record<string, (db: Connection) => void>> = {
  rows(db) {
    db.exec(`
      INSERT INTO parent(name) VALUES ('four');
      UPDATE parent SET name = 'ONE' WHERE id = 1;
      DELETE FROM parent WHERE id = 3;
      INSERT INTO child VALUES (4, 'd');
      INSERT INTO pairs VALUES ('r', 's');
      UPDATE wide SET x = 9;
    `);
  },
  'a trigger left behind': (db) => {
    db.exec("CREATE TRIGGER t BEFORE INSERT ON parent BEGIN SELECT RAISE(ABORT, 'no'); END");
    db.exec('DELETE FROM child');
  },
  'a trigger made and dropped': (db) => {
    db.exec('CREATE TRIGGER t BEFORE INSERT ON parent BEGIN SELECT 1; END; DROP TRIGGER t');
  },
  'a VACUUM (it may renumber rowids, and writes no change count)': (db) => {
    db.exec('VACUUM');
  },
  'rows deleted and then rolled back': (db) => {
    db.exec('BEGIN; DELETE FROM child; DELETE FROM pairs WHERE a = 1; ROLLBACK');
  },
  'nothing at all': () => {},
  'a transaction left open': (db) => {
    db.exec("BEGIN; INSERT INTO parent(name) VALUES ('open')");
  },
};

/** What only a fresh copy undoes. */
const ONLY_FRESH: Readonly<Record<string, (db: Connection) => void>> = {
  'a new table': (db) => db.exec('CREATE TABLE extra(x)'),
  'an index': (db) => db.exec('CREATE INDEX child_note ON child(note)'),
  'a temporary table': (db) => db.exec('CREATE TEMP TABLE scratch(x)'),
  'an attached database': (db) => db.exec("ATTACH ':memory:' AS other"),
  'foreign keys off': (db) => db.pragma('foreign_keys = OFF'),
  user_version: (db) => db.pragma('user_version = 7'),
  application_id: (db) => db.pragma('application_id = 7'),
  query_only: (db) => db.pragma('query_only = ON'),
  recursive_triggers: (db) => db.pragma('recursive_triggers = ON'),
  ignore_check_constraints: (db) => db.pragma('ignore_check_constraints = ON'),
  reverse_unordered_selects: (db) => db.pragma('reverse_unordered_selects = ON'),
  trusted_schema: (db) => db.pragma('trusted_schema = OFF'),
  legacy_alter_table: (db) => db.pragma('legacy_alter_table = ON'),
  // The routes past the pragma method that the settings watch must see (`settings-watch.ts`).
  'a pragma prepared in lower case': (db) => db.prepare('pragma user_version = 7').run(),
  'a pragma after a comment, by exec': (db) => db.exec('/* x */ SELECT 1; PrAgMa query_only = 1'),
  'a table in the temp schema, named so': (db) => db.exec('CREATE TABLE temp.scratch(x)'),
  'a pragma through a connection object over the copy': (db) =>
    runConnection(db).pragma('recursive_triggers = ON'),
};

describe('a kept in-memory copy', () => {
  const image = testImage();
  const fresh = new Database(image);
  const wanted = contents(fresh);
  fresh.close();

  for (const [name, damage] of Object.entries(DAMAGE)) {
    it(`is reset to the template after ${name}`, () => {
      const copies = new MemoryCopies(image);
      const first = copies.lease();
      damage(first.db);
      first.release(true);
      const second = copies.lease();
      expect(second.reused).toBe(true);
      expect(second.db).toBe(first.db);
      expect(contents(second.db)).toEqual(wanted);
      second.release(true);
      copies.close();
    });
  }

  for (const [name, damage] of Object.entries(ONLY_FRESH)) {
    it(`is replaced by a fresh copy after ${name}`, () => {
      const copies = new MemoryCopies(image);
      const first = copies.lease();
      damage(first.db);
      first.release(true);
      const second = copies.lease();
      expect(second.reused).toBe(false);
      expect(second.db).not.toBe(first.db);
      expect(first.db.open).toBe(false);
      expect(contents(second.db)).toEqual(wanted);
      second.release(true);
      copies.close();
    });
  }

  it('sees a setting changed by a statement a handler prepared a sequence earlier', () => {
    const copies = new MemoryCopies(image);
    const first = copies.lease();
    const later = first.db.prepare('PRAGMA user_version = 7');
    first.release(true);
    const second = copies.lease();
    expect(second.reused).toBe(true);
    later.run();
    second.release(true);
    const third = copies.lease();
    expect(third.reused).toBe(false);
    expect(contents(third.db)).toEqual(wanted);
    third.release(true);
    copies.close();
  });

  it('puts no row back after a sequence that wrote none, and does after one that did', () => {
    const copies = new MemoryCopies(image);
    const changes = (db: Connection) => db.prepare('SELECT total_changes()').pluck().get();
    const first = copies.lease();
    first.release(true);
    const second = copies.lease();
    const afterFirstReset = changes(second.db);
    second.db.prepare('SELECT * FROM parent').all();
    second.release(true);
    const third = copies.lease();
    expect(third.reused).toBe(true);
    expect(changes(third.db)).toBe(afterFirstReset);
    third.db.exec('DELETE FROM wide');
    third.release(true);
    const fourth = copies.lease();
    expect(changes(fourth.db)).toBeGreaterThan(afterFirstReset as number);
    expect(contents(fourth.db)).toEqual(wanted);
    fourth.release(true);
    copies.close();
  });

  it('sees a VACUUM as a schema change (the only bulk row rewrite total_changes() misses)', () => {
    const db = new Database(image);
    const version = db.pragma('schema_version', { simple: true }) as number;
    db.exec('VACUUM');
    expect(db.pragma('schema_version', { simple: true })).toBeGreaterThan(version);
    db.close();
  });

  it('is closed after a run that did not end cleanly (a hang), never lent again', () => {
    const copies = new MemoryCopies(image);
    const first = copies.lease();
    first.release(false);
    expect(first.db.open).toBe(false);
    const second = copies.lease();
    expect(second.reused).toBe(false);
    expect(contents(second.db)).toEqual(wanted);
    copies.close();
  });

  it('lends a fresh copy while the kept one is out', () => {
    const copies = new MemoryCopies(image);
    const first = copies.lease();
    const second = copies.lease();
    expect(second.db).not.toBe(first.db);
    second.release(true);
    expect(second.db.open).toBe(false);
    first.release(true);
    expect(copies.lease().db).toBe(first.db);
    copies.close();
  });

  it('never reuses a copy of a template with triggers (a reset would fire them)', () => {
    const db = new Database(':memory:');
    db.exec(
      'CREATE TABLE a(x); CREATE TABLE log(x); CREATE TRIGGER t AFTER DELETE ON a BEGIN INSERT INTO log VALUES (old.x); END',
    );
    const copies = new MemoryCopies(db.serialize());
    db.close();
    const first = copies.lease();
    first.release(true);
    expect(copies.lease().reused).toBe(false);
    copies.close();
  });

  it('never reuses a copy of a template with a trigger that skips rows (RAISE(IGNORE))', () => {
    const db = new Database(':memory:');
    db.exec(
      'CREATE TABLE a(x); INSERT INTO a VALUES (1); CREATE TRIGGER t BEFORE INSERT ON a BEGIN SELECT RAISE(IGNORE); END',
    );
    const copies = new MemoryCopies(db.serialize());
    db.close();
    copies.lease().release(true);
    expect(copies.lease().reused).toBe(false);
    copies.close();
  });

  it('gives a plugin keeping state per connection object a new object each sequence', async () => {
    const r = await checkHandler({ handler: MEMO, mode: 'sequential', runs: 150, seed: 7 });
    expect(r.counterexample?.failures).toBeUndefined();
    expect(r.verdict).toBe('passed');
  });
});
