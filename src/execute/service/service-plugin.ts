/**
 * A described service as a handler plugin: its world is the description's SQL, run on the
 * harness's connection to the database the service also opens (setup, world events, the store
 * failure, the snapshot), so everything above the runner (the model, the judge, reports, case
 * files) treats it as any plugin. Its calls are not the plugin's: they go to the running service
 * through a protocol client (`service-runner.ts`), and `call` here only says so.
 */
import { messageOf, ReceiptcheckError } from '../../errors.ts';
import { type Connection, type HandlerPlugin, pluginOperation } from '../../handlers/plugin.ts';
import type { Row } from '../../model/operation.ts';
import type { Fixture, Receipt } from '../../model/world.ts';
import type { ServiceDescription, SqlText } from './service-description.ts';
import { describedSnapshot, probeWorld } from './service-world-probe.ts';

/** The trigger the default store failure creates. */
const FAIL_TRIGGER = 'receiptcheck_fail_receipts';

/** Default `world.failReceipts`: every insert into `receipts` fails until the trigger goes. */
export const DEFAULT_FAIL_RECEIPTS = `CREATE TRIGGER IF NOT EXISTS ${FAIL_TRIGGER} BEFORE INSERT ON receipts BEGIN SELECT RAISE(ABORT, 'receipt store unavailable'); END`;

/** Default `world.restoreReceipts`. */
export const DEFAULT_RESTORE_RECEIPTS = `DROP TRIGGER IF EXISTS ${FAIL_TRIGGER}`;

/** Fixture keys that are not tables. */
const NOT_TABLES = new Set(['principals', 'workspaces', 'operation', 'policy']);

/** A plugin made from a service description; `service` marks it (`isServicePlugin`). */
export interface ServicePlugin extends HandlerPlugin<Fixture> {
  readonly service: ServiceDescription;
  /** The description's absolute path. */
  readonly source: string;
}

/** Whether `plugin` was made from a service description. */
export function isServicePlugin(plugin: object): plugin is ServicePlugin {
  return typeof (plugin as { service?: unknown }).service === 'object';
}

/** The plugin for `d`, read from `source`. */
export function servicePlugin(d: ServiceDescription, source: string): ServicePlugin {
  const recreate = d.world.recreate;
  const run = statementsOf(d.name);
  const plugin: ServicePlugin = {
    name: d.name,
    ...(d.description ? { description: d.description } : {}),
    ...(d.operation ? { operation: d.operation } : {}),
    ...(d.policy ? { policy: d.policy } : {}),
    service: d,
    source,
    setup(db, fixture) {
      list(d.setup.schema).forEach((s, i) => {
        described(d.name, fieldAt('setup.schema', d.setup.schema, i), () => db.exec(s));
      });
      for (const { insert, row, table } of setupRows(d, fixture))
        run(db, insert, row, `setup.rows.${table}`);
      // Every statement of the world tried once on the template, and rolled back: a mistake is
      // named before the first run rather than in the middle of one.
      probeWorld(plugin, db, fixture, pluginOperation(plugin));
    },
    call() {
      throw new Error(`service "${d.name}": calls go to the running service, not to its plugin`);
    },
    move: (db, id, workspace) => run(db, d.world.move, { id, workspace }, 'world.move'),
    delete: (db, id) => run(db, d.world.delete, { id }, 'world.delete'),
    ...(recreate
      ? { recreate: (db: Connection, row: Row) => run(db, recreate, row, 'world.recreate') }
      : {}),
    failReceipts: (db) =>
      run(
        db,
        d.world.failReceipts ?? DEFAULT_FAIL_RECEIPTS,
        {},
        'world.failReceipts',
        defaulted(d),
      ),
    restoreReceipts: (db) =>
      run(
        db,
        d.world.restoreReceipts ?? DEFAULT_RESTORE_RECEIPTS,
        {},
        'world.restoreReceipts',
        defaulted(d),
      ),
    snapshot(db) {
      const tables: Record<string, unknown> = {};
      for (const [table, select] of Object.entries(d.snapshot)) {
        const rows = described(
          d.name,
          `snapshot.${table}`,
          () => db.prepare(select).all() as Record<string, unknown>[],
        );
        tables[table] = table === 'receipts' ? rows.map(receiptOf) : rows;
      }
      return describedSnapshot(tables, d.name, pluginOperation(plugin));
    },
  };
  return plugin;
}

/** What to add to a store failure's error when the default stood in for the description's. */
function defaulted(d: ServiceDescription): string | undefined {
  return d.world.failReceipts === undefined
    ? 'not given, so the default ran: a trigger on a table named receipts; for another store give "world.failReceipts" and "world.restoreReceipts"'
    : undefined;
}

/** `field`, or `field[i]` when it holds a list of statements. */
function fieldAt(field: string, sql: SqlText, i: number): string {
  return typeof sql === 'string' ? field : `${field}[${i}]`;
}

/**
 * `work`, one of the description's statements; a failure is an `E_SERVICE_DESCRIPTION` naming
 * its field (`"world.move"`) and what SQLite said.
 */
function described<T>(service: string, field: string, work: () => T, note?: string): T {
  try {
    return work();
  } catch (thrown) {
    throw statementFailed(service, field, thrown, note);
  }
}

/** The `E_SERVICE_DESCRIPTION` for a statement of the description's `field` that threw `thrown`. */
export function statementFailed(
  service: string,
  field: string,
  thrown: unknown,
  note?: string,
): ReceiptcheckError {
  return new ReceiptcheckError(
    'E_SERVICE_DESCRIPTION',
    `service "${service}": its "${field}" statement failed: ${messageOf(thrown)}${note ? ` (${note})` : ''}`,
    { cause: thrown },
  );
}

/** Runs each statement with the named parameters `params` (one it does not name is ignored). */
function statementsOf(service: string) {
  return (
    db: Connection,
    sql: SqlText,
    params: Readonly<Record<string, unknown>>,
    field: string,
    note?: string,
  ): void => {
    list(sql).forEach((s, i) => {
      described(service, fieldAt(field, sql, i), () => db.prepare(s).run(params), note);
    });
  };
}

/** Each fixture row `setup` inserts, with the description's statement for its table, in order. */
export function setupRows(
  d: ServiceDescription,
  fixture: Fixture,
): { readonly insert: SqlText; readonly row: Row; readonly table: string }[] {
  const out: { insert: SqlText; row: Row; table: string }[] = [];
  for (const [table, rows] of Object.entries(fixture)) {
    if (NOT_TABLES.has(table) || !Array.isArray(rows) || rows.length === 0) continue;
    const insert = d.setup.rows[table];
    if (!insert)
      throw new Error(
        `the fixture has ${table} rows and the description's "setup.rows" has no "${table}" statement to insert them`,
      );
    for (const row of rows as Row[]) out.push({ insert, row, table });
  }
  return out;
}

/** The statements of `sql`, in order. */
export function list(sql: SqlText): readonly string[] {
  return typeof sql === 'string' ? [sql] : sql;
}

/** A receipt row as the model's: `payload` and `result` parsed when stored as JSON text. */
export function receiptOf(row: Record<string, unknown>): Receipt {
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return { ...row, payload: json(row.payload), result: json(row.result) } as Receipt;
}
