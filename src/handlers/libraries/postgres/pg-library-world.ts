/**
 * The world around a library plugin on PostgreSQL (`../library-world.ts` on SQLite): the
 * article's `automations` table with the library's own record table in place of `receipts`. The
 * receipt-store failure becomes a failure of every write to the library's table; the snapshot
 * reads receipts out of the library's completed records.
 */
import type { Receipt, SetIntervalFixture, Snapshot } from '../../../model/world.ts';
import { compareReceiptKeys } from '../../../model/world.ts';
import {
  pgAutomations,
  postgresSetIntervalWorld,
} from '../../operations/set-interval/postgres/set-interval-pg-world.ts';
import type { PgConnection, PostgresHandlerPlugin } from '../../postgres/plugin.ts';

/** How a library's records are kept on PostgreSQL: its table, its DDL, which records are receipts. */
export interface PgLibraryStore {
  readonly table: string;
  readonly schema: string;
  readonly receipts: (db: PgConnection) => Promise<Receipt[]>;
}

/** Setup, world events, store failure and snapshot for a PostgreSQL plugin whose records live in `store`. */
export function pgLibraryWorld(
  store: PgLibraryStore,
): Omit<PostgresHandlerPlugin<SetIntervalFixture>, 'name' | 'description' | 'policy' | 'call'> {
  const base = postgresSetIntervalWorld;
  return {
    engine: 'postgres',
    async setup(db, fixture) {
      await base.setup(db, fixture);
      // The library keeps its own records; an unused receipts table would only mislead.
      await db.query('DROP TABLE receipts');
      await db.query(store.schema);
    },
    move: base.move,
    delete: base.delete,
    ...(base.recreate ? { recreate: base.recreate } : {}),
    async failReceipts(db) {
      await db.query(
        `CREATE OR REPLACE TRIGGER fail_writes BEFORE INSERT OR UPDATE OR DELETE ON ${store.table}
           FOR EACH ROW EXECUTE FUNCTION fail_receipt()`,
      );
    },
    async restoreReceipts(db) {
      await db.query(`DROP TRIGGER IF EXISTS fail_writes ON ${store.table}`);
    },
    async snapshot(db): Promise<Snapshot> {
      return {
        automations: await pgAutomations(db),
        receipts: (await store.receipts(db)).sort(compareReceiptKeys),
      };
    },
  };
}
