/**
 * Brings an open connection's database back to the template's contents and schema, keeping the
 * connection (and whatever the handler cached on it) warm. The bench's raw loop uses it between
 * sequences, outside its timed part, so every sequence starts from the state the harness gives
 * it; scheduled mode uses it before each run on the database its lanes share.
 *
 * The template is read once. A reset then deletes and re-inserts every table's rows, several rows
 * an INSERT (a table the template has empty and that is still empty is left as it is), with the
 * template's triggers that can write dropped meanwhile and made again before the commit (those
 * that can only abort stay, see `memory-template.ts`), and the header's `user_version` and
 * `application_id` set back when a run changed them; it touches the schema only when
 * the run changed it (a failure trigger left behind, a table created): a schema change makes SQLite reload the schema on the next statement, a cost of fresh databases
 * that the ceiling must not pay. Whether the schema changed is read from `PRAGMA schema_version`,
 * which every DDL statement bumps, so an unchanged schema costs one pragma; the statements a
 * reset runs, its pragmas, BEGIN and COMMIT included, are prepared once per connection (a
 * `db.pragma()` or `db.exec()` compiles its text on every call: two pragmas and the schema query
 * were 4% of a scheduled run).
 */

import Database from 'better-sqlite3';
import type { Connection } from '../../handlers/plugin.ts';
import { rollbackLeaked } from './databases.ts';
import { abortsOnly, restoredColumns } from './memory-template.ts';

interface SchemaObject {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}

interface TableRows {
  readonly name: string;
  readonly rows: readonly unknown[][];
  /** The columns a row is read from and put back into (`restoredColumns`), quoted and joined. */
  readonly columnList: string;
  readonly columns: number;
  /** `rows` in batches of at most `batchRows` rows, each batch's values in one flat array. */
  readonly batches: readonly (readonly unknown[])[];
  readonly batchRows: number;
}

/**
 * Most rows one INSERT puts back, and most values it binds (SQLite's lowest default limit on
 * parameters is 999): one statement for a few rows instead of one each, the same rows in the
 * same order.
 */
const BATCH_ROWS_MAX = 64;
const BATCH_VALUES_MAX = 999;

/** Resets a connection to the template it was made for. */
export type ResetToTemplate = (db: Connection) => void;

/** How the connections a resetter is given are set up. */
export interface ResetterOptions {
  /**
   * Every connection it resets has foreign keys off for its whole life (a connection kept for
   * resets, as the shared database's is): the reset then does not read the pragma each time.
   */
  readonly foreignKeysOff?: boolean;
}

/**
 * Reads the database at `templatePath` (a copy of the template: opening a WAL file writes its
 * side files) and returns a function that resets any connection to it.
 */
export function templateResetter(
  templatePath: string,
  options: ResetterOptions = {},
): ResetToTemplate {
  const source = new Database(templatePath);
  let wanted: SchemaObject[];
  let tables: TableRows[];
  let header: Header;
  try {
    wanted = objects(source);
    header = HEADER.map((field) => source.pragma(field, { simple: true })) as unknown as Header;
    // Tables a trigger guards go last: what the trigger's WHEN clause reads (the receipt-store
    // switch's flag table, `store-switch.ts`) is then the template's again when their rows go.
    const guarded = new Set(wanted.filter((o) => o.type === 'trigger').map((o) => o.tbl_name));
    // Each table's kind: 'table' (with `wr` when it has no rowid), 'virtual' or 'shadow'.
    const kinds = new Map(
      (
        source
          .prepare("SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main'")
          .raw(true)
          .all() as [string, string, number][]
      ).map(([name, type, wr]) => [name, { type, withoutRowid: wr === 1 }]),
    );
    // A virtual table's shadow tables (an FTS5 index's) are its module's to write, which refuses
    // anyone else: they come back with the virtual table's own rows.
    const names = wanted
      .filter((o) => o.type === 'table' && kinds.get(o.name)?.type !== 'shadow')
      .map((o) => o.name)
      .sort((a, b) => Number(guarded.has(a)) - Number(guarded.has(b)));
    if (source.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get())
      names.push('sqlite_sequence');
    // An ordinary table's rows go back under their rowids, a gap left by `setup` included; a
    // virtual table's and one without rowid by their columns alone.
    tables = names.map((name) => {
      const kind = kinds.get(name);
      const withRowid = kind?.type === 'table' && !kind.withoutRowid;
      const columnList = (
        restoredColumns(source, name, !withRowid) ??
        (restoredColumns(source, name, true) as string[])
      ).join(', ');
      const stmt = source.prepare(`SELECT ${columnList} FROM ${quote(name)}`).raw(true);
      return tableRows(name, columnList, stmt.all() as unknown[][], stmt.columns().length);
    });
  } finally {
    source.close();
  }
  // A trigger that can write would fire as the rows go back (an audit of new rows would record
  // them again): it is dropped for the reset and made again before its commit.
  const writing = wanted.filter((o) => o.type === 'trigger' && !abortsOnly(o.sql));
  const prepared = new WeakMap<Connection, Prepared>();
  return (db) => {
    let p = prepared.get(db);
    if (!p) {
      p = prepare(db, tables);
      prepared.set(db, p);
    }
    reset(db, p, { wanted, tables, writing, header }, options.foreignKeysOff === true);
  };
}

/** What a reset puts back: the schema, every table's rows, and the triggers to quiet meanwhile. */
interface Template {
  readonly wanted: readonly SchemaObject[];
  readonly tables: readonly TableRows[];
  /** The template's triggers that can write rows (`abortsOnly` says which cannot). */
  readonly writing: readonly SchemaObject[];
  /** The template's `HEADER` fields, which no DDL changes and rows do not hold. */
  readonly header: Header;
}

/** The database header's fields a plugin may set (a migration's version): put back too. */
const HEADER = ['user_version', 'application_id'] as const;
type Header = readonly [number, number];

/** A table's template rows, and the same rows batched for `INSERT`s of several rows each. */
function tableRows(
  name: string,
  columnList: string,
  rows: unknown[][],
  columns: number,
): TableRows {
  const batchRows = Math.max(
    1,
    Math.min(BATCH_ROWS_MAX, Math.floor(BATCH_VALUES_MAX / Math.max(1, columns))),
  );
  const batches: unknown[][] = [];
  for (let i = 0; i < rows.length; i += batchRows)
    batches.push(rows.slice(i, i + batchRows).flat());
  return { name, rows, columnList, columns, batches, batchRows };
}

/** One connection's statements for resets, and the schema version it last saw aligned. */
interface Prepared {
  aligned: number | undefined;
  readonly clear: readonly Database.Statement[];
  /** Per table: the INSERT of a whole batch, and of the last batch when it is shorter. */
  readonly insert: readonly Database.Statement[];
  readonly insertLast: readonly Database.Statement[];
  /**
   * For a table the template has empty, whether it has a row now: an empty table needs no
   * `DELETE`, which would still write its root page (a WAL frame at every commit). A flag or
   * outbox table a run rarely fills costs a read instead.
   */
  readonly anyRow: readonly (Database.Statement | undefined)[];
  /** `PRAGMA foreign_keys` and `PRAGMA schema_version`, each plucked: what `pragma(…, {simple})` reads. */
  readonly foreignKeys: Database.Statement;
  readonly schemaVersion: Database.Statement;
  readonly begin: Database.Statement;
  readonly commit: Database.Statement;
  /** `HEADER`'s pragmas, each plucked. */
  readonly header: readonly Database.Statement[];
  /** The schema's objects, as `alignSchema` compares them. */
  readonly objects: Database.Statement;
}

function prepare(db: Connection, tables: readonly TableRows[]): Prepared {
  return {
    aligned: undefined,
    foreignKeys: db.prepare('PRAGMA foreign_keys').pluck(),
    schemaVersion: db.prepare('PRAGMA schema_version').pluck(),
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    header: HEADER.map((field) => db.prepare(`PRAGMA ${field}`).pluck()),
    objects: db.prepare(OBJECTS),
    clear: tables.map((t) => db.prepare(`DELETE FROM main.${quote(t.name)}`)),
    anyRow: tables.map((t) =>
      t.rows.length === 0
        ? db.prepare(`SELECT 1 FROM main.${quote(t.name)} LIMIT 1`).pluck()
        : undefined,
    ),
    insert: tables.map((t) => db.prepare(insertSql(t, t.batchRows))),
    insertLast: tables.map((t) =>
      db.prepare(insertSql(t, t.rows.length % t.batchRows || t.batchRows)),
    ),
  };
}

/** An INSERT of `rows` rows into `t`, every value a parameter. */
function insertSql(t: TableRows, rows: number): string {
  const row = `(${Array(t.columns).fill('?').join(', ')})`;
  return `INSERT INTO main.${quote(t.name)}(${t.columnList}) VALUES ${Array(rows).fill(row).join(', ')}`;
}

function reset(db: Connection, p: Prepared, template: Template, foreignKeysOff: boolean) {
  const { wanted, tables, writing, header } = template;
  rollbackLeaked(db);
  const foreignKeys = !foreignKeysOff && p.foreignKeys.get();
  if (foreignKeys) db.pragma('foreign_keys = OFF');
  p.begin.run();
  try {
    if (p.aligned === undefined || p.schemaVersion.get() !== p.aligned) {
      alignSchema(db, p.objects, wanted);
      p.aligned = p.schemaVersion.get() as number;
    }
    for (const t of writing) db.exec(`DROP TRIGGER main.${quote(t.name)}`);
    for (const [i, t] of tables.entries()) {
      const anyRow = p.anyRow[i];
      // Empty in the template and still empty: nothing to put back.
      if (anyRow && anyRow.get() === undefined) continue;
      (p.clear[i] as Database.Statement).run();
      const last = t.batches.length - 1;
      for (let b = 0; b <= last; b++)
        ((b === last ? p.insertLast[i] : p.insert[i]) as Database.Statement).run(t.batches[b]);
    }
    if (writing.length > 0) {
      for (const t of writing) db.exec(t.sql as string);
      // The schema this reset left is the template's: the next one need not compare it.
      p.aligned = p.schemaVersion.get() as number;
    }
    for (const [i, read] of p.header.entries())
      if (read.get() !== header[i]) db.pragma(`${HEADER[i]} = ${header[i]}`);
    p.commit.run();
  } catch (thrown) {
    rollbackLeaked(db);
    throw thrown;
  } finally {
    if (foreignKeys) db.pragma('foreign_keys = ON');
  }
}

/** Drops what the run created or changed and re-creates what it dropped; usually a no-op. */
function alignSchema(
  db: Connection,
  listed: Database.Statement,
  wanted: readonly SchemaObject[],
): void {
  const same = (a: SchemaObject, b: SchemaObject) =>
    a.type === b.type && a.name === b.name && a.sql === b.sql;
  const have = listed.all() as SchemaObject[];
  if (have.length === wanted.length && have.every((h) => wanted.some((w) => same(w, h)))) return;
  for (const h of have) {
    // An index with no SQL is a table's own (a primary key or unique constraint).
    if (h.sql === null || wanted.some((w) => same(w, h))) continue;
    db.exec(`DROP ${h.type} IF EXISTS main.${quote(h.name)}`);
  }
  const current = listed.all() as SchemaObject[];
  const order = ['table', 'view', 'index', 'trigger'];
  const missing = wanted
    .filter((w) => w.sql !== null && !current.some((c) => same(c, w)))
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
  for (const w of missing) db.exec(w.sql as string);
}

const OBJECTS =
  "SELECT type, name, tbl_name, sql FROM main.sqlite_master WHERE substr(name, 1, 7) <> 'sqlite_'";

function objects(db: Connection): SchemaObject[] {
  return db.prepare(OBJECTS).all() as SchemaObject[];
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
