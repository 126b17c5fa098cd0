/**
 * A described service's world on PostgreSQL: the description's SQL as a PostgreSQL plugin's
 * world functions (setup, world events, the store failure, the snapshot), run by the harness on
 * its own connection to the database the service also uses, so `PostgresSession` makes, resets
 * and drops that database as it does a plugin's. `:name` parameters become numbered ones
 * (`pg-named-params.ts`). Its `call` only says that calls go to the service.
 *
 * The default store failure is a trigger, as on SQLite; its function is made by `setup`, in the
 * template, so that failing and restoring the store adds and drops a trigger only, which a reset
 * undoes in place (a function made mid-run would change the schema, and every reset would then
 * copy the template anew, ending the service's connections).
 */
import { isReceiptcheckError } from '../../../errors.ts';
import { pluginOperation } from '../../../handlers/plugin.ts';
import type { PgConnection, PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { Row } from '../../../model/operation.ts';
import type { ServiceDescription, SqlText } from '../service-description.ts';
import { list, receiptOf, setupRows, statementFailed } from '../service-plugin.ts';
import { describedSnapshot } from '../service-world-probe.ts';
import { toPositional, valuesFor } from './pg-named-params.ts';

/** The trigger and function the default store failure uses. */
const FAIL_TRIGGER = 'receiptcheck_fail_receipts';

/** Made in the template when the description gives no `world.failReceipts`. */
export const PG_FAIL_FUNCTION = `CREATE FUNCTION ${FAIL_TRIGGER}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'receipt store unavailable'; END $$`;

/** Default `world.failReceipts` on PostgreSQL: every insert into `receipts` fails. */
export const PG_DEFAULT_FAIL_RECEIPTS = `CREATE OR REPLACE TRIGGER ${FAIL_TRIGGER} BEFORE INSERT ON receipts FOR EACH ROW EXECUTE FUNCTION ${FAIL_TRIGGER}()`;

/** Default `world.restoreReceipts` on PostgreSQL. */
export const PG_DEFAULT_RESTORE_RECEIPTS = `DROP TRIGGER IF EXISTS ${FAIL_TRIGGER} ON receipts`;

const worlds = new WeakMap<ServiceDescription, PostgresHandlerPlugin>();

/**
 * The world of `d` as a PostgreSQL plugin: one per description, so a runner that follows another
 * (`--mode auto`) takes the databases the last one kept on the embedded server (`idle-database.ts`).
 */
export function pgServiceWorld(d: ServiceDescription): PostgresHandlerPlugin {
  const found = worlds.get(d);
  if (found) return found;
  const recreate = d.world.recreate;
  const world: PostgresHandlerPlugin = {
    engine: 'postgres',
    name: d.name,
    ...(d.operation ? { operation: d.operation } : {}),
    ...(d.policy ? { policy: d.policy } : {}),
    async setup(db, fixture) {
      // Whole statements, unparameterized: a schema may hold several, and dollar-quoted bodies.
      for (const s of list(d.setup.schema)) await db.query(s);
      if (d.world.failReceipts === undefined) await db.query(PG_FAIL_FUNCTION);
      for (const { insert, row, table } of setupRows(d, fixture))
        await run(d.name, db, insert, row, `setup.rows.${table}`);
    },
    call() {
      throw new Error(`service "${d.name}": calls go to the running service, not to its plugin`);
    },
    move: (db, id, workspace) => run(d.name, db, d.world.move, { id, workspace }, 'world.move'),
    delete: (db, id) => run(d.name, db, d.world.delete, { id }, 'world.delete'),
    ...(recreate
      ? {
          recreate: (db: PgConnection, row: Row) =>
            run(d.name, db, recreate, row, 'world.recreate'),
        }
      : {}),
    failReceipts: (db) =>
      run(d.name, db, d.world.failReceipts ?? PG_DEFAULT_FAIL_RECEIPTS, {}, 'world.failReceipts'),
    restoreReceipts: (db) =>
      run(
        d.name,
        db,
        d.world.restoreReceipts ?? PG_DEFAULT_RESTORE_RECEIPTS,
        {},
        'world.restoreReceipts',
      ),
    async snapshot(db) {
      const tables: Record<string, unknown> = {};
      for (const [table, select] of Object.entries(d.snapshot)) {
        const { rows } = await described(d.name, `snapshot.${table}`, () =>
          db.query<Record<string, unknown>>(select),
        );
        tables[table] = table === 'receipts' ? rows.map(receiptOf) : rows;
      }
      return describedSnapshot(tables, d.name, pluginOperation(world));
    },
  };
  worlds.set(d, world);
  return world;
}

/**
 * Runs each statement of `sql` (the description's `field`) with its `:name` parameters taken
 * from `params`; a failure is an `E_SERVICE_DESCRIPTION` naming the field.
 */
async function run(
  service: string,
  db: PgConnection,
  sql: SqlText,
  params: Readonly<Record<string, unknown>>,
  field: string,
): Promise<void> {
  const statements = list(sql);
  for (let i = 0; i < statements.length; i++) {
    const { text, names } = toPositional(statements[i] as string);
    const at = typeof sql === 'string' ? field : `${field}[${i}]`;
    // No parameters: the simple protocol, which takes several statements and dollar quotes.
    await described(service, at, () =>
      names.length === 0 ? db.query(text) : db.query(text, valuesFor(names, params, 'it')),
    );
  }
}

/** `work`, a statement of the description's `field`; its failure named as the description's. */
async function described<T>(service: string, field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (thrown) {
    if (isReceiptcheckError(thrown)) throw thrown;
    throw statementFailed(service, field, thrown);
  }
}
