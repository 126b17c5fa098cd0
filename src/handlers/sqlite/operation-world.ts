/**
 * Everything an operation's SQLite handlers share besides `call`: the schema with the receipt
 * store, the fixture's rows, the world events (move, delete, re-create, receipt-store failure)
 * and the snapshot in the model's shape. A target table has a `workspace_id` column; an
 * operation that creates rows names their table too. Built from table maps, so each operation's
 * `<operation>-world.ts` holds only its DDL and columns.
 */
import type { OperationSpec, Row } from '../../model/operation.ts';
import { createdRows, targetRows } from '../../model/operation.ts';
import type { Fixture, Snapshot } from '../../model/world.ts';
import type { Connection, HandlerPlugin } from '../plugin.ts';
import { failReceipts, RECEIPTS_DDL, readReceipts, restoreReceipts } from './receipt-store.ts';
import { cachedStatement } from './statement-cache.ts';
import { insertRow, readRows, type TableMap } from './table-map.ts';

/** What a plugin needs besides its name, description, operation and `call`. */
export type SqliteWorld = Omit<HandlerPlugin<Fixture>, 'name' | 'description' | 'call'>;

/** An operation's tables: their DDL and how the model's rows map onto them. */
export interface OperationTables {
  readonly spec: OperationSpec;
  /** `CREATE TABLE` statements for the target table and the created table, if any. */
  readonly ddl: string;
  /** The target table; it must have a `workspace` field stored in `workspace_id`. */
  readonly target: TableMap;
  /** The table of created rows, when `spec.created` is set. */
  readonly created?: TableMap;
}

/** The setup, world events and snapshot for `tables`. */
export function operationWorld(tables: OperationTables): SqliteWorld {
  const { spec, target, created } = tables;
  return {
    setup(db: Connection, fixture: Fixture): void {
      db.exec(tables.ddl + RECEIPTS_DDL);
      for (const row of targetRows(fixture, spec)) insertRow(db, target, row);
      if (created) for (const row of createdRows(fixture, spec)) insertRow(db, created, row);
    },
    move(db, id, workspace) {
      cachedStatement(db, `UPDATE ${target.table} SET workspace_id = ? WHERE id = ?`).run(
        workspace,
        id,
      );
    },
    delete(db, id) {
      cachedStatement(db, `DELETE FROM ${target.table} WHERE id = ?`).run(id);
    },
    recreate(db, row: Row) {
      insertRow(db, target, row);
    },
    failReceipts,
    restoreReceipts,
    snapshot(db): Snapshot {
      return {
        [spec.table]: readRows(db, target),
        ...(created && spec.created ? { [spec.created.table]: readRows(db, created) } : {}),
        receipts: readReceipts(db),
      };
    },
  };
}
