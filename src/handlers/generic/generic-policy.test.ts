/**
 * The generic SQLite handler's declared policy: a receipt lifetime is declared and honoured (a
 * receipt lapses once more than its lifetime has passed on the harness's clock since its commit,
 * and not before), and a switch it does not implement is refused rather than declared.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { setInterval } from '../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { genericSqlitePlugin } from './generic-sqlite.ts';

const receipt = (db: Database.Database, id: string) =>
  db.prepare("INSERT INTO receipts VALUES ('w1', 'alice', 't', ?, '{}', '{}')").run(id);
const receiptIds = (db: Database.Database) =>
  (db.prepare('SELECT request_id AS id FROM receipts ORDER BY 1').all() as { id: string }[]).map(
    (r) => r.id,
  );

describe('the generic handler under a declared receipt expiry', () => {
  it('declares the lifetime and drops a receipt only once more than it has passed', () => {
    const plugin = genericSqlitePlugin(setInterval, 'g', 'next', {}, { receiptExpiry: 1000 });
    expect(plugin.policy).toEqual({ receiptExpiry: 1000 });
    const db = new Database(':memory:');
    plugin.setup(db, DEFAULT_FIXTURE);
    receipt(db, 'r0');
    plugin.advanceClock?.(db, 600);
    receipt(db, 'r1');
    plugin.advanceClock?.(db, 400);
    // r0 committed at 0: exactly its lifetime has passed, so it stays.
    expect(receiptIds(db)).toEqual(['r0', 'r1']);
    plugin.advanceClock?.(db, 1);
    expect(receiptIds(db)).toEqual(['r1']);
    // The key's next life is stamped anew: a receipt under r0 again lasts from its own commit.
    receipt(db, 'r0');
    plugin.advanceClock?.(db, 600);
    expect(receiptIds(db)).toEqual(['r0']);
    plugin.advanceClock?.(db, 1000);
    expect(receiptIds(db)).toEqual([]);
  });

  it('keeps the contract without a policy: no clock, nothing declared', () => {
    const plugin = genericSqlitePlugin(setInterval, 'g');
    expect(plugin.policy).toBeUndefined();
    expect(plugin.advanceClock).toBeUndefined();
  });

  it('refuses a switch it does not implement, and stored refusals with an expiry', () => {
    const policy = { storesErrors: true } as never;
    expect(() => genericSqlitePlugin(setInterval, 'g', 'next', {}, policy)).toThrow(
      /does not implement policy\.storesErrors/,
    );
    const both = { storesRefusals: true, receiptExpiry: 1000 };
    expect(() => genericSqlitePlugin(setInterval, 'g', 'next', {}, both)).toThrow(
      /does not implement policy\.storesRefusals with policy\.receiptExpiry/,
    );
  });
});
