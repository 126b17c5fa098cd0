/**
 * Sequential mode's kept in-memory copy of a template that carries the receipt-store switch
 * (abort-only triggers and their flag): a reset puts the switch back off, whatever a sequence
 * left set, and guarded writes behave again as on a fresh copy.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { libraryWorld } from '../../handlers/libraries/library-world.ts';
import reference from '../../handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import { sqliteWorld } from '../../handlers/operations/set-interval/sqlite/set-interval-world.ts';
import type { Connection } from '../../handlers/plugin.ts';
import { STORE_FAILURE } from '../../handlers/sqlite/store-switch.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { templateImage } from './databases.ts';
import { MemoryCopies } from './memory-copies.ts';
import { SCHEMA_SQL } from './memory-template.ts';

describe('a kept in-memory copy', () => {
  describe('of a template with the receipt-store switch (abort-only triggers)', () => {
    const switchImage = templateImage(reference, DEFAULT_FIXTURE);
    const all = (db: Connection) => ({
      automations: db.prepare('SELECT rowid, * FROM automations ORDER BY rowid').raw(true).all(),
      receipts: db.prepare('SELECT rowid, * FROM receipts ORDER BY rowid').raw(true).all(),
      down: db.prepare('SELECT * FROM receiptcheck_receipts_down').raw(true).all(),
      schema: db.prepare(SCHEMA_SQL).raw(true).all() as string[][],
    });
    const freshSwitch = new Database(switchImage);
    const wantedSwitch = all(freshSwitch);
    freshSwitch.close();
    const insert = (db: Connection, id: string) =>
      db.prepare("INSERT INTO receipts VALUES ('w1', 'alice', 't', ?, '{}', '{}')").run(id);

    const reusedAfter = (damage: (db: Connection) => void) => {
      const copies = new MemoryCopies(switchImage);
      const first = copies.lease();
      damage(first.db);
      first.release(true);
      const second = copies.lease();
      const seen = { reused: second.reused, contents: all(second.db) };
      if (second.reused) insert(second.db, 'after');
      second.release(true);
      copies.close();
      return seen;
    };

    it('is reset with the store left down: the flag row cleared, the trigger kept', () => {
      expect(wantedSwitch.schema.some(([type]) => type === 'trigger')).toBe(true);
      const seen = reusedAfter((db) => {
        insert(db, 'r1');
        sqliteWorld.failReceipts(db);
        expect(() => insert(db, 'r2')).toThrow(STORE_FAILURE);
      });
      expect(seen).toEqual({ reused: true, contents: wantedSwitch });
    });

    it("drops a trigger a run added and keeps the template's", () => {
      const seen = reusedAfter((db) => {
        db.exec(
          "CREATE TRIGGER added BEFORE DELETE ON automations BEGIN SELECT RAISE(ABORT, 'no'); END",
        );
        insert(db, 'r1');
      });
      expect(seen.reused).toBe(true);
      expect(seen.contents).toEqual(wantedSwitch);
    });

    it("is replaced by a fresh copy after the template's trigger was dropped or replaced", () => {
      const [, name, , sql] = wantedSwitch.schema.find(([type]) => type === 'trigger') as string[];
      const dropped = reusedAfter((db) => db.exec(`DROP TRIGGER "${name}"`));
      expect(dropped).toEqual({ reused: false, contents: wantedSwitch });
      const replaced = reusedAfter((db) =>
        db.exec(
          `DROP TRIGGER "${name}"; ${(sql as string).replace('BEFORE INSERT', 'AFTER INSERT')}`,
        ),
      );
      expect(replaced).toEqual({ reused: false, contents: wantedSwitch });
    });
  });

  it('clears a flag left set before the tables its triggers guard (deletes guarded too)', () => {
    const world = libraryWorld({
      table: 'a_records',
      schema: 'CREATE TABLE a_records(k TEXT PRIMARY KEY)',
      receipts: () => [],
    });
    const copies = new MemoryCopies(templateImage({ ...reference, ...world }, DEFAULT_FIXTURE));
    const first = copies.lease();
    first.db.exec("INSERT INTO a_records VALUES ('k1')");
    world.failReceipts(first.db);
    expect(() => first.db.exec('DELETE FROM a_records')).toThrow(STORE_FAILURE);
    first.release(true);
    const second = copies.lease();
    expect(second.reused).toBe(true);
    expect(second.db.prepare('SELECT count(*) FROM a_records').pluck().get()).toBe(0);
    second.db.exec("INSERT INTO a_records VALUES ('k2'); DELETE FROM a_records");
    second.release(true);
    copies.close();
  });
});
