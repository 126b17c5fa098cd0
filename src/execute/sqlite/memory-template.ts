/**
 * What a reset of a kept in-memory copy (`memory-copies.ts`) must restore, read once from a fresh
 * copy of the template: every table's rows under their own rowids, the schema, and the settings a
 * fresh copy starts with. A template whose rows a delete and an insert would not restore
 * faithfully has none, and every sequence then gets a fresh copy: one with virtual tables, or
 * with a trigger that can do more than abort (it would fire during the reset and write rows).
 * A trigger that can only abort (`ABORT_ONLY`, such as the bundled handlers' receipt-store
 * switch, `store-switch.ts`) cannot make a reset unfaithful: the reset either puts back the
 * template's rows or fails, and a failed reset gets a fresh copy.
 */
import type Database from 'better-sqlite3';
import type { Connection } from '../../handlers/plugin.ts';

/**
 * What a reset must find as a fresh copy has it, one value per statement prepared once (a
 * table-valued pragma costs five times a plain one): the schema version, the two header fields no
 * DDL bumps (read when run), the connection flags that change what a statement does or returns,
 * temporary schema objects and attached databases. A flag pragma is read when its statement is
 * prepared, but setting one expires every prepared statement on the connection, so the next read
 * prepares it again (`memory-copies.test.ts` sets each). Left out: `case_sensitive_like` (it
 * cannot be read), the busy timeout (no other connection shares the copy), and the settings that
 * change speed, not results, or are deprecated. The schema version comes first.
 */
export const STATE_SQL = [
  'PRAGMA schema_version',
  'PRAGMA user_version',
  'PRAGMA application_id',
  // The rest is the connection's own, not the database's (`CONNECTION_STATE_SQL`).
  'PRAGMA foreign_keys',
  'PRAGMA recursive_triggers',
  'PRAGMA query_only',
  'PRAGMA ignore_check_constraints',
  'PRAGMA reverse_unordered_selects',
  'PRAGMA trusted_schema',
  'PRAGMA legacy_alter_table',
  'PRAGMA writable_schema',
  'SELECT count(*) FROM sqlite_temp_master',
  'SELECT count(*) FROM pragma_database_list',
] as const;

/**
 * What of `STATE_SQL` belongs to a connection rather than to its database: its flags, its
 * temporary objects, its attached databases. A connection kept from run to run must have them as
 * when it was opened (`kept-connections.ts`).
 */
export const CONNECTION_STATE_SQL = STATE_SQL.slice(3);

/** The schema, in an order that does not depend on how it was made. */
export const SCHEMA_SQL =
  'SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY type, name';

/**
 * A trigger whose body is nothing but `SELECT RAISE(ABORT|FAIL|ROLLBACK, '…');` statements: it
 * writes no row, whatever its `WHEN` clause reads. `RAISE(IGNORE)` is not one: it would silently
 * skip a row the reset puts back.
 */
const ABORT_ONLY =
  /\bBEGIN(?:\s+SELECT\s+RAISE\s*\(\s*(?:ABORT|FAIL|ROLLBACK)\s*,\s*'(?:[^']|'')*'\s*\)\s*;)+\s*END\s*$/i;

/** Whether the trigger `sql` creates can only abort (`ABORT_ONLY`): it writes no row. */
export function abortsOnly(sql: string | null): boolean {
  return sql !== null && ABORT_ONLY.test(sql);
}

/** A table's template rows, and how to put them back: a delete, then a few multi-row inserts. */
export interface TableRows {
  readonly clearSql: string;
  readonly inserts: readonly { readonly sql: string; readonly values: readonly unknown[] }[];
}

/**
 * Parameters per insert, at most: SQLite's historical limit. Each statement run costs a native
 * call, which in the middle of a check (its caches cold) costs several times its tight-loop
 * figure, so rows go back many at a time.
 */
const PARAMETERS_MAX = 999;

/** What a reset restores. */
export interface TemplateContents {
  /** `STATE_SQL`'s values on a fresh copy. */
  readonly state: readonly unknown[];
  /** `SCHEMA_SQL`'s rows but the triggers, as JSON. */
  readonly schema: string;
  /** `SCHEMA_SQL`'s trigger rows, each as JSON: each can only abort (`ABORT_ONLY`). */
  readonly triggers: ReadonlySet<string>;
  readonly tables: readonly TableRows[];
  /** Some table has a foreign key: enforcement is off while rows are deleted and put back. */
  readonly foreignKeys: boolean;
}

/** `STATE_SQL` prepared on `db`, each statement giving its one value. */
export function stateStatements(db: Connection): Database.Statement[] {
  return STATE_SQL.map((sql) => db.prepare(sql).pluck());
}

/**
 * Reads what resets restore from `db`, a fresh copy of the template, or `undefined` when its rows
 * cannot be restored by deleting and inserting them.
 */
export function readTemplateContents(db: Connection): TemplateContents | undefined {
  const virtual = db
    .prepare("SELECT count(*) FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'")
    .pluck()
    .get();
  if (virtual !== 0) return undefined;
  const objects = db.prepare(SCHEMA_SQL).raw(true).all() as [string, string, string, string][];
  const triggers = objects.filter(([type]) => type === 'trigger');
  if (!triggers.every(([, , , sql]) => abortsOnly(sql))) return undefined;
  // Tables a trigger guards go last: what their triggers' WHEN clauses read (a flag table) is
  // then the template's again when their rows go back.
  const names = db
    .prepare(
      "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND (name NOT LIKE 'sqlite%' OR name = 'sqlite_sequence') ORDER BY name IN (SELECT tbl_name FROM main.sqlite_master WHERE type = 'trigger'), name",
    )
    .raw(true)
    .all() as [string, number][];
  const tables: TableRows[] = [];
  for (const [name, withoutRowid] of names) {
    const table = tableRows(db, name, withoutRowid === 1);
    if (!table) return undefined;
    tables.push(table);
  }
  const foreignKeys = db
    .prepare(
      "SELECT count(*) FROM pragma_table_list AS t, pragma_foreign_key_list(t.name) WHERE t.schema = 'main'",
    )
    .pluck()
    .get();
  return {
    state: stateStatements(db).map((statement) => statement.get()),
    schema: JSON.stringify(objects.filter(([type]) => type !== 'trigger')),
    triggers: new Set(triggers.map((trigger) => JSON.stringify(trigger))),
    tables,
    foreignKeys: foreignKeys !== 0,
  };
}

/**
 * `name`'s rows with their rowid (the table's own, under a name no column took), and the SQL that
 * restores them; `undefined` when every name for the rowid is a column's.
 */
function tableRows(db: Connection, name: string, withoutRowid: boolean): TableRows | undefined {
  const listed = restoredColumns(db, name, withoutRowid);
  if (!listed) return undefined;
  const rows = db
    .prepare(`SELECT ${listed.join(', ')} FROM main.${quote(name)}`)
    .raw(true)
    .all() as unknown[][];
  const row = `(${listed.map(() => '?').join(', ')})`;
  const perInsert = Math.max(1, Math.floor(PARAMETERS_MAX / listed.length));
  const inserts = [];
  for (let from = 0; from < rows.length; from += perInsert) {
    const chunk = rows.slice(from, from + perInsert);
    inserts.push({
      sql: `INSERT INTO main.${quote(name)} (${listed.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}`,
      values: chunk.flat(),
    });
  }
  return { clearSql: `DELETE FROM main.${quote(name)}`, inserts };
}

/**
 * The columns a reset reads `name`'s rows from and puts them back into, quoted: its rowid first
 * (unless `withoutRowid`), under a name no column took, then every stored column (a generated one
 * is computed again on insert, and cannot be inserted). Undefined when every name for the rowid
 * is a column's.
 */
export function restoredColumns(
  db: Connection,
  name: string,
  withoutRowid: boolean,
): string[] | undefined {
  const info = db.prepare('SELECT name, hidden FROM pragma_table_xinfo(?)').raw(true).all(name) as [
    string,
    number,
  ][];
  const columns = info.filter(([, hidden]) => hidden === 0).map(([column]) => quote(column));
  if (withoutRowid) return columns;
  const taken = new Set(info.map(([column]) => column.toLowerCase()));
  const rowid = ['rowid', '_rowid_', 'oid'].find((r) => !taken.has(r));
  return rowid === undefined ? undefined : [rowid, ...columns];
}

/** `name` as an SQL identifier. */
export function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
