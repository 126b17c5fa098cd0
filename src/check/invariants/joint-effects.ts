/**
 * The row half of "every effect has its receipt and every receipt its effect" for an operation
 * that writes several rows per call (`otherTargets`, a transfer): the receipted effects are
 * replayed together over all the starting rows, since one call's effect reads and writes each of
 * its rows, and every live target row must end as that replay leaves it.
 *
 * Effects apply in step order; the effects of one concurrent step in every order within it
 * (`stepOrders`). A row on which the orders disagree is not checked here, as for one-row
 * operations: the other invariants and the linearizability check cover it. A re-created row
 * starts again from the spec's re-created row after its last re-create, and a receipted call in
 * or before that step touched the row's earlier incarnation.
 */
import {
  type Args,
  type OperationSpec,
  type Row,
  targetIdsOf,
  targetRows,
} from '../../model/operation.ts';
import { rowsWritten } from '../../model/targets.ts';
import type { Observation } from '../../types/trace.ts';
import { lastRecreate, type RunRecord } from '../run-record.ts';
import { sameFields, stepOrders } from './step-orders.ts';

/**
 * The first live target row that is not its starting row with exactly the receipted effects
 * applied, described; undefined when every row matches (or no order can be checked).
 */
export function jointRowMismatch(
  run: RunRecord,
  spec: OperationSpec,
  written: readonly Observation[],
): string | undefined {
  const recreatedAt = lastRecreate(run.steps);
  const finals = targetRows(run.trace.snapshot, spec);
  const workspaceOf = new Map(finals.map((r) => [r.id, String(r.workspace)]));
  const start = targetRows(run.fixture, spec);
  const replay = (order: readonly Observation[]): Map<number, Row> => {
    const rows = new Map(start.map((r) => [r.id, r]));
    const renewed = new Set<number>();
    const renew = (id: number, before: number) => {
      const since = recreatedAt.get(id);
      if (since === undefined || since >= before || renewed.has(id)) return;
      renewed.add(id);
      rows.set(id, spec.recreated(id, workspaceOf.get(id) ?? String(rows.get(id)?.workspace)));
    };
    let nextId = 1;
    for (const o of order) {
      const ids = targetIdsOf(spec, o.event.request);
      for (const id of ids) renew(id, o.step);
      const named = ids.map((id) => rows.get(id));
      if (named.some((r) => r === undefined)) continue;
      const [first, ...others] = (named as Row[]).map((r) => ({
        ...r,
        workspace: workspaceOf.get(r.id) ?? String(r.workspace),
      }));
      const effect = spec.effect(first as Row, o.event.request as Args, nextId++, others);
      for (const row of rowsWritten(effect)) rows.set(row.id, row);
    }
    for (const id of recreatedAt.keys()) renew(id, Number.POSITIVE_INFINITY);
    return rows;
  };
  const ends = stepOrders(written).map(replay);
  if (ends.length === 0) return undefined;
  for (const row of finals) {
    const expected = ends[0]?.get(row.id);
    if (!expected || !ends.every((e) => sameFields(spec.rowFields, e.get(row.id), expected)))
      continue;
    if (!spec.rowFields.every((f) => expected[f] === row[f])) {
      const mine = written.filter((o) => targetIdsOf(spec, o.event.request).includes(row.id));
      return `${spec.noun} ${row.id} ends as ${JSON.stringify(row)}, but its starting row with the ${mine.length} receipted effect(s) on it applied is ${JSON.stringify({ ...expected, workspace: row.workspace })}`;
    }
  }
  return undefined;
}
