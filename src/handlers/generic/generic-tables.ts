/**
 * Where a generic handler keeps an operation's rows: the target rows in the spec's `table` (id,
 * workspace, one column per row field), created rows in `created.table` (id, one column per
 * created field). The tables keep the spec's names, as the generic steps name the target table
 * by the spec's (`operations/operation-steps.ts`); columns are `c0`, `c1`, … in the spec's field
 * order, so no field name has to be a valid SQL identifier.
 */
import type { OperationSpec } from '../../model/operation.ts';
import type { TableMap } from '../sqlite/table-map.ts';

/** The target table: `id`, `workspace` and each row field. */
export function targetMap(spec: OperationSpec): TableMap {
  return {
    table: spec.table,
    columns: {
      id: 'id',
      workspace: 'workspace_id',
      ...Object.fromEntries(spec.rowFields.map((f, i) => [f, `c${i}`])),
    },
  };
}

/** The created rows' table, when the spec creates rows: `id` and each created field. */
export function createdMap(spec: OperationSpec): TableMap | undefined {
  if (!spec.created) return undefined;
  return {
    table: spec.created.table,
    columns: {
      id: 'id',
      ...Object.fromEntries(spec.created.fields.map((f, i) => [f, `c${i}`])),
    },
  };
}

/** The columns of `map` besides `id` (and `workspace`), in field order: what a call writes. */
export function valueColumns(map: TableMap): [field: string, column: string][] {
  return Object.entries(map.columns).filter(([f]) => f !== 'id' && f !== 'workspace');
}
