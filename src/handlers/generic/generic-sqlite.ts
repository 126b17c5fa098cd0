/**
 * A correct SQLite handler for any operation spec, built from the spec alone: the generic steps
 * every built-in shares (`operations/operation-steps.ts`, in the contract's order, in one
 * `BEGIN IMMEDIATE` transaction) with the operation's part computed in JavaScript from the spec
 * itself: the precondition and the effect are the spec's own pure functions, applied to the row
 * as read inside the transaction, and the new row, the created row and the result are written
 * back. The world is the built-ins' (`operations/operation-world.ts`) over columns without a
 * declared type, which keep numbers and strings exactly as given. Correct by construction, so a
 * red check of it is the harness's bug: the drawn-spec guard's handler.
 */
import type { Args, OperationSpec, Row } from '../../model/operation.ts';
import { rowsWritten } from '../../model/targets.ts';
import type { Fixture } from '../../model/world.ts';
import { type Connection, defineHandler, type HandlerPlugin } from '../plugin.ts';
import {
  type CallChanges,
  type OperationParts,
  operationCall,
} from '../sqlite/operation-handler.ts';
import type { OperationSql, ValidCall } from '../sqlite/operation-steps.ts';
import { operationWorld } from '../sqlite/operation-world.ts';
import { cachedStatement } from '../sqlite/statement-cache.ts';
import type { TableMap } from '../sqlite/table-map.ts';
import { type GenericPolicy, genericPolicyWorld } from './generic-policy.ts';
import { createdMap, targetMap, valueColumns } from './generic-tables.ts';
import { nextServerId, type ServerIds } from './server-ids.ts';
import { storingRefusals } from './stored-refusals.ts';

/** A call after validation: the request id and the spec's arguments by name. */
export type GenericCall = ValidCall & Args;

/** `CREATE TABLE` for `map`: an integer id, a text workspace, untyped value columns. */
export function sqliteDdl(map: TableMap): string {
  const columns = Object.entries(map.columns).map(([field, column]) =>
    field === 'id'
      ? `${column} INTEGER PRIMARY KEY`
      : field === 'workspace'
        ? `${column} TEXT NOT NULL`
        : `${column} NOT NULL`,
  );
  return `CREATE TABLE ${map.table}(${columns.join(', ')});\n`;
}

/** What the effect reads: the target row, and the created table's largest id and row count. */
interface EffectInput {
  readonly row: Row;
  readonly largest: number;
  readonly count: number;
}

/**
 * The statement reading the target row `?` as the model sees it (the caller has checked it
 * exists), with `created`'s largest id and count when given: one statement, so a call has few
 * yield points and scheduled mode's crashes reach past its commit.
 */
function readSql(target: TableMap, created?: TableMap): string {
  const select = Object.entries(target.columns)
    .map(([field, column]) => `${column} AS "${field}"`)
    .join(', ');
  const extra = created
    ? `, (SELECT coalesce(max(id), 0) FROM ${created.table}) AS "${LARGEST}", (SELECT count(*) FROM ${created.table}) AS "${COUNT}"`
    : '';
  return `SELECT ${select}${extra} FROM ${target.table} WHERE id = ?`;
}

const LARGEST = '.largest';
const COUNT = '.count';

function readInput(db: Connection, sql: string, id: number): EffectInput {
  const { [LARGEST]: largest, [COUNT]: count, ...row } = cachedStatement(db, sql).get(id) as Row;
  return { row: row as Row, largest: (largest as number) ?? 0, count: (count as number) ?? 0 };
}

/** The spec's operation part, for the generic steps; created ids by `ids` (default `next`). */
export function genericSqliteSql(
  spec: OperationSpec,
  ids: ServerIds = 'next',
): OperationSql<GenericCall> {
  const target = targetMap(spec);
  const created = createdMap(spec);
  const targetOf = (r: GenericCall) => r[spec.targetField] as number;
  const othersOf = (r: GenericCall) => (spec.otherTargets ?? []).map((f) => r[f] as number);
  const rowSql = readSql(target);
  const inputSql = readSql(target, created);
  const rowColumns = valueColumns(target);
  const update =
    rowColumns.length > 0
      ? `UPDATE ${target.table} SET ${rowColumns.map(([, c]) => `${c} = ?`).join(', ')} WHERE id = ?`
      : undefined;
  const insert = created
    ? `INSERT INTO ${created.table}(${Object.values(created.columns).join(', ')}) VALUES (${Object.keys(
        created.columns,
      )
        .map(() => '?')
        .join(', ')})`
    : undefined;
  const precondition = spec.precondition;
  const readOthers = (db: Connection, r: GenericCall) =>
    othersOf(r).map((id) => readInput(db, rowSql, id).row);
  return {
    spec,
    targetOf,
    ...(spec.otherTargets ? { targetsOf: (r: GenericCall) => [targetOf(r), ...othersOf(r)] } : {}),
    payloadOf: (r) => spec.payload(r),
    ...(precondition
      ? {
          precondition: (db, _caller, r) =>
            precondition(readInput(db, rowSql, targetOf(r)).row, r, readOthers(db, r)),
        }
      : {}),
    applyEffect(db, _caller, r) {
      const { row, largest, count } = readInput(db, inputSql, targetOf(r));
      const nextId = created ? nextServerId(ids, largest, count) : 0;
      const effect = spec.effect(row, r, nextId, readOthers(db, r));
      if (update)
        for (const written of rowsWritten(effect))
          cachedStatement(db, update).run(...rowColumns.map(([f]) => written[f]), written.id);
      if (insert && created && effect.created) {
        const made = effect.created;
        cachedStatement(db, insert).run(...Object.keys(created.columns).map((f) => made[f]));
      }
      return effect.result;
    },
  };
}

/** The spec's SQL and world, for `defineOperationMutant` (a broken variant, in tests). */
export function genericSqliteParts(
  spec: OperationSpec,
  ids: ServerIds = 'next',
): OperationParts<GenericCall> {
  const target = targetMap(spec);
  const created = createdMap(spec);
  return {
    op: genericSqliteSql(spec, ids),
    world: operationWorld({
      spec,
      ddl: sqliteDdl(target) + (created ? sqliteDdl(created) : ''),
      target,
      ...(created ? { created } : {}),
    }),
  };
}

/**
 * The correct SQLite handler for `spec`, named `name`; `changes` make a broken one. It declares
 * and honours `policy` (`genericPolicyWorld`: the switches it implements; others are refused).
 */
export function genericSqlitePlugin(
  spec: OperationSpec,
  name: string,
  ids: ServerIds = 'next',
  changes: CallChanges<GenericCall> = {},
  policy: GenericPolicy = {},
): HandlerPlugin<Fixture> {
  const parts = genericSqliteParts(spec, ids);
  return defineHandler<Fixture>({
    name,
    description: `the generic handler for ${spec.name}, built from its spec (ids: ${ids})`,
    operation: spec,
    replayable: true,
    ...genericPolicyWorld(parts.world, policy),
    call: operationCall(
      parts.op,
      policy.storesRefusals
        ? { ...changes, body: changes.body ?? storingRefusals(parts.op) }
        : changes,
    ),
  });
}
