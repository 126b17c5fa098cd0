/**
 * The world around a library plugin's call: the article's `automations` table, with the article's
 * `receipts` table replaced by the library's own record table. World events are the article's;
 * the receipt-store failure becomes a failure of every write to the library's table, and the
 * snapshot reads receipts out of the library's completed records.
 */
import type { Automation, Receipt, SetIntervalFixture, Snapshot } from '../../model/world.ts';
import { compareReceiptKeys } from '../../model/world.ts';
import { sqliteWorld } from '../operations/set-interval/sqlite/set-interval-world.ts';
import type { Connection, HandlerPlugin } from '../plugin.ts';
import {
  flagDdl,
  type GuardedWrite,
  storeDown,
  storeUp,
  triggerDdl,
} from '../sqlite/store-switch.ts';

/** How a library's records are kept: its table, its DDL, and which records are receipts. */
export interface LibraryStore {
  /** The table the storage adapter writes. */
  readonly table: string;
  /** `CREATE TABLE` for it. */
  readonly schema: string;
  /** The receipts its live records hold, in any order (completed successes only). */
  readonly receipts: (db: Connection) => Receipt[];
}

/** Setup, world events, store failure and snapshot for a plugin whose records live in `store`. */
export function libraryWorld(
  store: LibraryStore,
): Omit<HandlerPlugin, 'name' | 'description' | 'policy' | 'call'> {
  return {
    setup(db: Connection, fixture: SetIntervalFixture): void {
      sqliteWorld.setup(db, fixture);
      // The library keeps its own records; an unused receipts table would only mislead.
      db.exec('DROP TABLE receipts; DROP TABLE receiptcheck_receipts_down');
      db.exec(flagDdl(store.table));
      db.exec(store.schema);
      db.exec(triggerDdl(store.table, WRITES));
    },
    move: sqliteWorld.move,
    delete: sqliteWorld.delete,
    ...(sqliteWorld.recreate ? { recreate: sqliteWorld.recreate } : {}),
    failReceipts(db) {
      failWrites(db, store.table);
    },
    restoreReceipts(db) {
      restoreWrites(db, store.table);
    },
    snapshot(db): Snapshot {
      return {
        automations: automations(db),
        receipts: store.receipts(db).sort(compareReceiptKeys),
      };
    },
  };
}

const WRITES: readonly GuardedWrite[] = ['INSERT', 'UPDATE', 'DELETE'];

/**
 * Makes every write to `table` fail with the article's store-failure message, the way a store
 * that is down for writes fails: reads still work, so a stored record can still be replayed.
 * A row write when `libraryWorld`'s setup installed the switch; without it, the first call
 * installs it (a schema change).
 */
export function failWrites(db: Connection, table: string): void {
  storeDown(db, table, WRITES);
}

/** Lets writes to `table` succeed again. */
export function restoreWrites(db: Connection, table: string): void {
  storeUp(db, table);
}

/** The automation rows, by id. */
export function automations(db: Connection): Automation[] {
  const rows = db
    .prepare('SELECT id, workspace_id, interval_minutes, version FROM automations ORDER BY id')
    .all() as { id: number; workspace_id: string; interval_minutes: number; version: number }[];
  return rows.map((r) => ({
    id: r.id,
    workspace: r.workspace_id,
    intervalMinutes: r.interval_minutes,
    version: r.version,
  }));
}
