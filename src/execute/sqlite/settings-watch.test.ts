/**
 * The settings watch lets a kept copy's reset skip reading its settings: it must see every SQL
 * text that could change one, by every method, and nothing the harness reads itself.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { watchSettings } from './settings-watch.ts';

function watched() {
  const db = new Database(':memory:');
  return { db, watch: watchSettings(db) };
}

describe('the settings watch', () => {
  it('is not touched by SQL that names no setting, prepared or run', () => {
    const { db, watch } = watched();
    db.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1)');
    db.prepare('UPDATE t SET x = 2').run();
    db.transaction(() => db.prepare('DELETE FROM t').run())();
    expect(watch.touched).toBe(false);
    db.close();
  });

  const ROUTES: Readonly<Record<string, (db: Database.Database) => unknown>> = {
    'the pragma method': (db) => db.pragma('user_version'),
    'prepare, lower case': (db) => db.prepare('pragma user_version'),
    'exec, after another statement': (db) => db.exec('SELECT 1; PRAGMA query_only = 0'),
    'an attached database': (db) => db.exec("ATTACH ':memory:' AS other"),
    'a temporary table': (db) => db.exec('CREATE TEMPORARY TABLE s(x)'),
    'the temp schema by name': (db) => db.prepare('CREATE TABLE "temp".s(x)'),
    'an extension, whatever it runs': (db) => {
      try {
        db.loadExtension('/nonexistent/extension');
      } catch {
        // The watch marks the connection before the load is tried.
      }
    },
  };
  for (const [name, route] of Object.entries(ROUTES))
    it(`is touched by ${name}, and stays touched`, () => {
      const { db, watch } = watched();
      route(db);
      expect(watch.touched).toBe(true);
      db.exec('SELECT 1');
      expect(watch.touched).toBe(true);
      db.close();
    });

  it("does not count the harness's own reads, made unwatched", () => {
    const { db, watch } = watched();
    const version = watch.unwatched(() => db.pragma('user_version', { simple: true }));
    expect(version).toBe(0);
    expect(watch.touched).toBe(false);
    db.pragma('user_version');
    expect(watch.touched).toBe(true);
    db.close();
  });
});
