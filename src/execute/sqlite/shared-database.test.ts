/**
 * The shared database's reset: whatever another connection committed (rows, a trigger) is gone
 * after it, the coordinator's statements stay prepared across it, and a reset after a run that
 * committed nothing (only a rolled-back transaction) writes nothing at all.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import reference from '../../handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { makeTempDir, removeTempDir } from '../runtime/temp-dirs.ts';
import { withTemplateFile } from './scheduled/template-file.ts';
import { openSharedConnection, SharedDatabase } from './shared-database.ts';

const opened: { close(): void }[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

function shared(): { database: SharedDatabase; lane: Database.Database } {
  const database = withTemplateFile(reference, DEFAULT_FIXTURE, (path) => new SharedDatabase(path));
  opened.push({ close: () => database.dispose() });
  const lane = openSharedConnection(database.path) as Database.Database;
  opened.unshift(lane);
  return { database, lane };
}

const contents = (db: Database.Database) => ({
  rows: db.prepare('SELECT * FROM automations ORDER BY id').all(),
  receipts: db.prepare('SELECT * FROM receipts').all(),
  schema: db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all(),
});

/** How many commits `db` has seen from other connections, as far as `PRAGMA data_version` tells. */
const commitsSeen = (db: Database.Database) => db.pragma('data_version', { simple: true });

describe('SharedDatabase.reset', () => {
  it('undoes what another connection committed, rows and schema, every time', () => {
    const { database, lane } = shared();
    database.reset();
    const template = contents(lane);
    for (let i = 0; i < 3; i++) {
      lane.prepare('UPDATE automations SET version = version + 1').run();
      lane.prepare("INSERT INTO receipts VALUES ('w', 'u', 't', ?, '{}', '{}')").run(`r${i}`);
      if (i === 1) lane.exec('CREATE TRIGGER t AFTER INSERT ON receipts BEGIN SELECT 1; END');
      expect(contents(lane)).not.toEqual(template);
      database.reset();
      expect(contents(lane)).toEqual(template);
    }
  });

  it("keeps the coordinator's prepared statements valid across resets", () => {
    const { database, lane } = shared();
    const read = database.db.prepare('SELECT count(*) FROM receipts').pluck();
    lane.prepare("INSERT INTO receipts VALUES ('w', 'u', 't', 'r', '{}', '{}')").run();
    expect(read.get()).toBe(1);
    database.reset();
    expect(read.get()).toBe(0);
  });

  it('writes nothing after a run that committed nothing', () => {
    const { database, lane } = shared();
    database.reset();
    lane.exec('BEGIN IMMEDIATE');
    lane.prepare('UPDATE automations SET version = version + 1').run();
    lane.exec('ROLLBACK');
    const before = commitsSeen(lane);
    database.reset();
    expect(commitsSeen(lane)).toBe(before);
    lane.prepare('UPDATE automations SET version = version + 1').run();
    const after = commitsSeen(lane);
    database.reset();
    expect(commitsSeen(lane)).not.toBe(after);
  });

  it('resets a template whose rows reference each other, whatever order they go back in', () => {
    // The resetter is told its connection has foreign keys off for life and never reads the
    // pragma: with them on, clearing `parent` while `child` still points at it would fail.
    const dir = makeTempDir('shared-fk-test');
    opened.push({ close: () => removeTempDir(dir) });
    const path = join(dir, 'template.sqlite');
    const t = new Database(path);
    t.pragma('journal_mode = WAL');
    t.exec('CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT)');
    t.exec(
      'CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parent(id))',
    );
    t.exec(
      "INSERT INTO parent VALUES (1, 'a'), (2, 'b'); INSERT INTO child VALUES (10, 1), (11, 2)",
    );
    t.close();
    const database = new SharedDatabase(path);
    opened.unshift({ close: () => database.dispose() });
    const lane = openSharedConnection(database.path) as Database.Database;
    opened.unshift(lane);
    const rows = () => ({
      parent: lane.prepare('SELECT * FROM parent ORDER BY id').all(),
      child: lane.prepare('SELECT * FROM child ORDER BY id').all(),
    });
    database.reset();
    const template = rows();
    lane.exec("INSERT INTO parent VALUES (3, 'c'); INSERT INTO child VALUES (12, 3)");
    lane.exec("UPDATE parent SET name = 'z' WHERE id = 1");
    database.reset();
    expect(rows()).toEqual(template);
  });
});
