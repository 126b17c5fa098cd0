/**
 * Everything an operation's PostgreSQL handlers share besides `call`, as `operation-world.ts`
 * is for SQLite: the schema with the receipt store, the fixture's rows, the world events, the
 * receipt-store failure trigger and the snapshot in the model's shape. String fields are stored
 * through `pg-text.ts`, so a fixture string with a NUL byte round-trips.
 */
import type { OperationSpec, Payload, Result, Row } from '../../model/operation.ts';
import { createdRows, targetRows } from '../../model/operation.ts';
import {
  compareReceiptKeys,
  type Fixture,
  type Receipt,
  type Snapshot,
} from '../../model/world.ts';
import { STORE_FAILURE } from '../sqlite/receipt-store.ts';
import type { TableMap } from '../sqlite/table-map.ts';
import { fromPgText, toPgText } from './pg-text.ts';
import type { PgConnection, PostgresHandlerPlugin } from './plugin.ts';

/** What a PostgreSQL plugin needs besides its name, description, operation and `call`. */
export type PostgresWorld = Omit<PostgresHandlerPlugin<Fixture>, 'name' | 'description' | 'call'>;

/** An operation's tables on PostgreSQL: their DDL and how the model's rows map onto them. */
export interface PostgresTables {
  readonly spec: OperationSpec;
  /** `CREATE TABLE` statements for the target table and the created table, if any. */
  readonly ddl: string;
  readonly target: TableMap;
  readonly created?: TableMap;
}

/** The receipts table and the failure trigger's function, the same for every operation. */
export const PG_RECEIPTS_DDL = `
CREATE TABLE receipts(
  workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
  request_id TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
  PRIMARY KEY(workspace_id, user_id, tool, request_id));
CREATE FUNCTION fail_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION '${STORE_FAILURE}' USING ERRCODE = 'check_violation'; END $$;
`;

/** The setup, world events and snapshot for `tables`. */
export function postgresOperationWorld(tables: PostgresTables): PostgresWorld {
  const { spec, target, created } = tables;
  return {
    engine: 'postgres',
    async setup(db, fixture) {
      await db.query(tables.ddl + PG_RECEIPTS_DDL);
      for (const row of targetRows(fixture, spec)) await insertPgRow(db, target, row);
      if (created)
        for (const row of createdRows(fixture, spec)) await insertPgRow(db, created, row);
    },
    async move(db, id, workspace) {
      await db.query(`UPDATE ${target.table} SET workspace_id = $1 WHERE id = $2`, [
        toPgText(workspace),
        id,
      ]);
    },
    async delete(db, id) {
      await db.query(`DELETE FROM ${target.table} WHERE id = $1`, [id]);
    },
    async recreate(db, row) {
      await insertPgRow(db, target, row);
    },
    async failReceipts(db) {
      await db.query(
        'CREATE OR REPLACE TRIGGER fail_receipt BEFORE INSERT ON receipts FOR EACH ROW EXECUTE FUNCTION fail_receipt()',
      );
    },
    async restoreReceipts(db) {
      await db.query('DROP TRIGGER IF EXISTS fail_receipt ON receipts');
    },
    async snapshot(db): Promise<Snapshot> {
      return {
        [spec.table]: await readPgRows(db, target),
        ...(created && spec.created ? { [spec.created.table]: await readPgRows(db, created) } : {}),
        receipts: await readPgReceipts(db),
      };
    },
  };
}

/** Inserts `row` unless a row with its id exists (the re-create event's no-op rule). */
export async function insertPgRow(db: PgConnection, map: TableMap, row: Row): Promise<void> {
  const fields = Object.keys(map.columns);
  const columns = fields.map((f) => map.columns[f]).join(', ');
  const marks = fields.map((_, i) => `$${i + 1}`).join(', ');
  await db.query(
    `INSERT INTO ${map.table}(${columns}) VALUES (${marks}) ON CONFLICT (id) DO NOTHING`,
    fields.map((f) => {
      const value = row[f];
      return typeof value === 'string' ? toPgText(value) : value;
    }),
  );
}

/** Every row of the table in the model's shape, sorted by id. */
export async function readPgRows(db: PgConnection, map: TableMap): Promise<Row[]> {
  const select = Object.entries(map.columns)
    .map(([field, column]) => `${column} AS "${field}"`)
    .join(', ');
  const { rows } = await db.query<Record<string, number | string>>(
    `SELECT ${select} FROM ${map.table} ORDER BY id`,
  );
  return rows.map(
    (r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? fromPgText(v) : v]),
      ) as Row,
  );
}

/** Every stored receipt, parsed back to the model's shape and in the model's order. */
export async function readPgReceipts(db: PgConnection): Promise<Receipt[]> {
  const { rows } = await db.query<{
    workspace_id: string;
    user_id: string;
    tool: string;
    request_id: string;
    payload: string;
    response: string;
  }>('SELECT workspace_id, user_id, tool, request_id, payload, response FROM receipts');
  return rows
    .map((r) => ({
      workspace: fromPgText(r.workspace_id),
      user: fromPgText(r.user_id),
      tool: fromPgText(r.tool),
      requestId: fromPgText(r.request_id),
      payload: JSON.parse(r.payload) as Payload,
      result: JSON.parse(r.response) as Result,
    }))
    .sort(compareReceiptKeys);
}
