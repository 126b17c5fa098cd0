/**
 * How a model table maps onto a SQLite table: its name and, for each of the model row's fields,
 * the column that stores it. One map gives the fixture insert, the re-create insert and the
 * snapshot read, so an operation's world states its columns once.
 */
import type { Row } from '../../model/operation.ts';
import type { Connection } from '../plugin.ts';
import { cachedStatement } from './statement-cache.ts';

/** A table's name and its columns by the model's field names (`id` among them). */
export interface TableMap {
  readonly table: string;
  /** Model field → column, e.g. `{id: 'id', workspace: 'workspace_id'}`. */
  readonly columns: Readonly<Record<string, string>>;
}

/** Inserts `row` unless a row with its id exists (the re-create event's no-op rule). */
export function insertRow(db: Connection, map: TableMap, row: Row): void {
  const fields = Object.keys(map.columns);
  const columns = fields.map((f) => map.columns[f]).join(', ');
  const marks = fields.map(() => '?').join(', ');
  cachedStatement(db, `INSERT OR IGNORE INTO ${map.table}(${columns}) VALUES (${marks})`).run(
    ...fields.map((f) => row[f]),
  );
}

/** Every row of the table in the model's shape, sorted by id. */
export function readRows(db: Connection, map: TableMap): Row[] {
  const select = Object.entries(map.columns)
    .map(([field, column]) => `${column} AS "${field}"`)
    .join(', ');
  return cachedStatement(db, `SELECT ${select} FROM ${map.table} ORDER BY id`).all() as Row[];
}
