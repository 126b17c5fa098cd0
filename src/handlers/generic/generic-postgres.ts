/**
 * A correct PostgreSQL handler for any operation spec, built from the spec alone, as
 * `generic-sqlite.ts` is for SQLite: the built-ins' generic transaction (`postgres/
 * operation-call.ts`: an advisory lock on the receipt key, the target row `FOR UPDATE`, the
 * receipt, the precondition, the effect and the receipt insert) with the spec's own precondition
 * and effect computed in JavaScript on the locked row. A created row's id is chosen under a
 * table lock taken last, as the create-once reference does. Row values are kept as JSON text, so
 * any number or string (a NUL byte included) round-trips whatever the field.
 */
import type { OperationSpec, Row } from '../../model/operation.ts';
import { createdRows, targetRows } from '../../model/operation.ts';
import { rowsWritten } from '../../model/targets.ts';
import type { Fixture, Snapshot } from '../../model/world.ts';
import { type PostgresOperationSql, postgresOperationCall } from '../postgres/operation-call.ts';
import {
  PG_RECEIPTS_DDL,
  postgresOperationWorld,
  readPgReceipts,
} from '../postgres/operation-world.ts';
import { fromPgText, toPgText } from '../postgres/pg-text.ts';
import {
  definePostgresHandler,
  type PgConnection,
  type PostgresHandlerPlugin,
} from '../postgres/plugin.ts';
import type { TableMap } from '../sqlite/table-map.ts';
import type { GenericCall } from './generic-sqlite.ts';
import { createdMap, targetMap, valueColumns } from './generic-tables.ts';
import { nextServerId, type ServerIds } from './server-ids.ts';

/** `CREATE TABLE` for `map`: an integer id, a text workspace, JSON-text value columns. */
function pgDdl(map: TableMap): string {
  const columns = Object.entries(map.columns).map(([field, column]) =>
    field === 'id' ? `${column} INTEGER PRIMARY KEY` : `${column} TEXT NOT NULL`,
  );
  return `CREATE TABLE ${map.table}(${columns.join(', ')});\n`;
}

/** A value as stored: a workspace as `toPgText`, any other field as JSON text. */
function encode(field: string, value: unknown): unknown {
  if (field === 'id') return value;
  if (field === 'workspace') return toPgText(value as string);
  return JSON.stringify(value);
}

function decode(field: string, stored: unknown): unknown {
  if (field === 'id') return stored;
  if (field === 'workspace') return fromPgText(stored as string);
  return JSON.parse(stored as string);
}

/** Inserts `row`; with `ignoreExisting`, not when its id exists (the re-create event's no-op rule). */
async function insertRow(
  db: PgConnection,
  map: TableMap,
  row: Row,
  ignoreExisting = true,
): Promise<void> {
  const fields = Object.keys(map.columns);
  await db.query(
    `INSERT INTO ${map.table}(${Object.values(map.columns).join(', ')}) VALUES (${fields.map((_, i) => `$${i + 1}`).join(', ')})${ignoreExisting ? ' ON CONFLICT (id) DO NOTHING' : ''}`,
    fields.map((f) => encode(f, row[f])),
  );
}

/** The rows of `map` (one, when `id` is given) in the model's shape, sorted by id. */
async function readRows(db: PgConnection, map: TableMap, id?: number): Promise<Row[]> {
  const select = Object.entries(map.columns)
    .map(([field, column]) => `${column} AS "${field}"`)
    .join(', ');
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${select} FROM ${map.table}${id === undefined ? ' ORDER BY id' : ' WHERE id = $1'}`,
    id === undefined ? [] : [id],
  );
  return rows.map(
    (r) => Object.fromEntries(Object.entries(r).map(([f, v]) => [f, decode(f, v)])) as Row,
  );
}

/** The target row `id` with the created table's largest id and count, in one statement. */
async function readWithCreated(
  db: PgConnection,
  target: TableMap,
  created: TableMap,
  id: number,
): Promise<{ row: Row; largest: number; count: number }> {
  const select = Object.entries(target.columns)
    .map(([field, column]) => `${column} AS "${field}"`)
    .join(', ');
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${select}, (SELECT coalesce(max(id), 0) FROM ${created.table}) AS "${LARGEST}", (SELECT count(*)::integer FROM ${created.table}) AS "${COUNT}" FROM ${target.table} WHERE id = $1`,
    [id],
  );
  const { [LARGEST]: largest, [COUNT]: count, ...stored } = rows[0] as Record<string, unknown>;
  const row = Object.fromEntries(Object.entries(stored).map(([f, v]) => [f, decode(f, v)])) as Row;
  return { row, largest: largest as number, count: count as number };
}

const LARGEST = '.largest';
const COUNT = '.count';

/** The spec's operation part on PostgreSQL; created ids by `ids` (default `next`). */
export function genericPostgresSql(
  spec: OperationSpec,
  ids: ServerIds = 'next',
): PostgresOperationSql<GenericCall> {
  const target = targetMap(spec);
  const created = createdMap(spec);
  const targetOf = (r: GenericCall) => r[spec.targetField] as number;
  const othersOf = (r: GenericCall) => (spec.otherTargets ?? []).map((f) => r[f] as number);
  const readRow = async (db: PgConnection, r: GenericCall) =>
    (await readRows(db, target, targetOf(r)))[0] as Row;
  const readOthers = async (db: PgConnection, r: GenericCall) => {
    const others: Row[] = [];
    for (const id of othersOf(r)) others.push((await readRows(db, target, id))[0] as Row);
    return others;
  };
  const rowColumns = valueColumns(target);
  const precondition = spec.precondition;
  return {
    spec,
    targetOf,
    ...(spec.otherTargets ? { targetsOf: (r: GenericCall) => [targetOf(r), ...othersOf(r)] } : {}),
    payloadOf: (r) => spec.payload(r),
    ...(precondition
      ? {
          precondition: async (db, _caller, r) =>
            precondition(await readRow(db, r), r, await readOthers(db, r)),
        }
      : {}),
    async applyEffect(db, _caller, r) {
      let nextId = 0;
      let row: Row;
      if (created) {
        // Taken last, after the key and row locks, as the create-once reference does.
        await db.query(`LOCK TABLE ${created.table} IN SHARE ROW EXCLUSIVE MODE`);
        const read = await readWithCreated(db, target, created, targetOf(r));
        nextId = nextServerId(ids, read.largest, read.count);
        row = read.row;
      } else row = await readRow(db, r);
      const effect = spec.effect(row, r, nextId, await readOthers(db, r));
      if (rowColumns.length > 0)
        for (const written of rowsWritten(effect))
          await db.query(
            `UPDATE ${target.table} SET ${rowColumns.map(([, c], i) => `${c} = $${i + 1}`).join(', ')} WHERE id = $${rowColumns.length + 1}`,
            [...rowColumns.map(([f]) => encode(f, written[f])), written.id],
          );
      if (created && effect.created) await insertRow(db, created, effect.created, false);
      return effect.result;
    },
  };
}

/** The correct PostgreSQL handler for `spec`, named `name`. */
export function genericPostgresPlugin(
  spec: OperationSpec,
  name: string,
  ids: ServerIds = 'next',
): PostgresHandlerPlugin<Fixture> {
  const target = targetMap(spec);
  const created = createdMap(spec);
  // Move, delete and the receipt store's switch are the built-ins'; rows go through JSON here.
  const base = postgresOperationWorld({ spec, ddl: '', target });
  return definePostgresHandler<Fixture>({
    ...base,
    name,
    description: `the generic handler for ${spec.name} on PostgreSQL, built from its spec (ids: ${ids})`,
    operation: spec,
    async setup(db, fixture) {
      await db.query(pgDdl(target) + (created ? pgDdl(created) : '') + PG_RECEIPTS_DDL);
      for (const row of targetRows(fixture, spec)) await insertRow(db, target, row);
      if (created) for (const row of createdRows(fixture, spec)) await insertRow(db, created, row);
    },
    async recreate(db, row) {
      await insertRow(db, target, row);
    },
    async snapshot(db): Promise<Snapshot> {
      return {
        [spec.table]: await readRows(db, target),
        ...(created && spec.created ? { [spec.created.table]: await readRows(db, created) } : {}),
        receipts: await readPgReceipts(db),
      };
    },
    call: postgresOperationCall(genericPostgresSql(spec, ids)),
  });
}
