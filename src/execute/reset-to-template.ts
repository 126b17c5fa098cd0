/**
 * Brings an open connection's database back to the template's contents and schema, keeping the
 * connection (and whatever the handler cached on it) warm. The bench's raw loop uses it between
 * sequences, outside its timed part, so every sequence starts from the state the harness gives
 * it; scheduled mode uses it before each run on the database its lanes share.
 *
 * The template is read once. A reset then deletes and re-inserts every table's rows, and touches
 * the schema only when the run changed it (a failure trigger left behind, a table created): a
 * schema change makes SQLite reload the schema on the next statement, a cost of fresh databases
 * that the ceiling must not pay. Whether the schema changed is read from `PRAGMA schema_version`,
 * which every DDL statement bumps, so an unchanged schema costs one pragma; the statements a
 * reset runs are prepared once per connection.
 */

import Database from 'better-sqlite3';
import type { Connection } from '../handlers/plugin.ts';
import { rollbackLeaked } from './databases.ts';

interface SchemaObject {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}

interface TableRows {
  readonly name: string;
  readonly rows: readonly unknown[][];
  readonly columns: number;
}

/** Resets a connection to the template it was made for. */
export type ResetToTemplate = (db: Connection) => void;

/**
 * Reads the database at `templatePath` (a copy of the template: opening a WAL file writes its
 * side files) and returns a function that resets any connection to it.
 */
export function templateResetter(templatePath: string): ResetToTemplate {
  const source = new Database(templatePath);
  let wanted: SchemaObject[];
  let tables: TableRows[];
  try {
    wanted = objects(source);
    // Tables a trigger guards go last: what the trigger's WHEN clause reads (the receipt-store
    // switch's flag table, `store-switch.ts`) is then the template's again when their rows go.
    const guarded = new Set(wanted.filter((o) => o.type === 'trigger').map((o) => o.tbl_name));
    const names = wanted
      .filter((o) => o.type === 'table')
      .map((o) => o.name)
      .sort((a, b) => Number(guarded.has(a)) - Number(guarded.has(b)));
    if (source.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get())
      names.push('sqlite_sequence');
    tables = names.map((name) => {
      const stmt = source.prepare(`SELECT * FROM ${quote(name)}`).raw(true);
      return { name, rows: stmt.all() as unknown[][], columns: stmt.columns().length };
    });
  } finally {
    source.close();
  }
  const prepared = new WeakMap<Connection, Prepared>();
  return (db) => {
    let p = prepared.get(db);
    if (!p) {
      p = prepare(db, tables);
      prepared.set(db, p);
    }
    reset(db, p, wanted, tables);
  };
}

/** One connection's statements for resets, and the schema version it last saw aligned. */
interface Prepared {
  aligned: number | undefined;
  readonly clear: readonly Database.Statement[];
  readonly insert: readonly Database.Statement[];
}

function prepare(db: Connection, tables: readonly TableRows[]): Prepared {
  return {
    aligned: undefined,
    clear: tables.map((t) => db.prepare(`DELETE FROM main.${quote(t.name)}`)),
    insert: tables.map((t) =>
      db.prepare(
        `INSERT INTO main.${quote(t.name)} VALUES (${Array(t.columns).fill('?').join(', ')})`,
      ),
    ),
  };
}

function reset(
  db: Connection,
  p: Prepared,
  wanted: readonly SchemaObject[],
  tables: readonly TableRows[],
) {
  rollbackLeaked(db);
  const foreignKeys = db.pragma('foreign_keys', { simple: true });
  if (foreignKeys) db.pragma('foreign_keys = OFF');
  db.exec('BEGIN IMMEDIATE');
  try {
    if (p.aligned === undefined || schemaVersion(db) !== p.aligned) {
      alignSchema(db, wanted);
      p.aligned = schemaVersion(db);
    }
    for (const [i, t] of tables.entries()) {
      (p.clear[i] as Database.Statement).run();
      const insert = p.insert[i] as Database.Statement;
      for (const row of t.rows) insert.run(row);
    }
    db.exec('COMMIT');
  } catch (thrown) {
    rollbackLeaked(db);
    throw thrown;
  } finally {
    if (foreignKeys) db.pragma('foreign_keys = ON');
  }
}

/** Drops what the run created or changed and re-creates what it dropped; usually a no-op. */
function alignSchema(db: Connection, wanted: readonly SchemaObject[]): void {
  const same = (a: SchemaObject, b: SchemaObject) =>
    a.type === b.type && a.name === b.name && a.sql === b.sql;
  const have = objects(db);
  if (have.length === wanted.length && have.every((h) => wanted.some((w) => same(w, h)))) return;
  for (const h of have) {
    // An index with no SQL is a table's own (a primary key or unique constraint).
    if (h.sql === null || wanted.some((w) => same(w, h))) continue;
    db.exec(`DROP ${h.type} IF EXISTS main.${quote(h.name)}`);
  }
  const current = objects(db);
  const order = ['table', 'view', 'index', 'trigger'];
  const missing = wanted
    .filter((w) => w.sql !== null && !current.some((c) => same(c, w)))
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
  for (const w of missing) db.exec(w.sql as string);
}

function schemaVersion(db: Connection): number {
  return db.pragma('schema_version', { simple: true }) as number;
}

function objects(db: Connection): SchemaObject[] {
  return db
    .prepare(
      "SELECT type, name, tbl_name, sql FROM main.sqlite_master WHERE substr(name, 1, 7) <> 'sqlite_'",
    )
    .all() as SchemaObject[];
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
