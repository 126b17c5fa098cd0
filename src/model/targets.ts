/**
 * The target rows of a call, for an operation that writes one row or several (`otherTargets`):
 * rule 6 of the generic contract (every target exists in the principal's workspace) and the rows
 * an effect returns written back. Pure; the model's `step` and the generic handlers share it.
 */
import type { Args, Effect, OperationSpec, Row } from './operation.ts';

const NO_OTHERS: readonly Row[] = [];

/** A call's target rows as the precondition and the effect take them. */
export interface CallTargets {
  readonly row: Row;
  /** The other target rows, in `otherTargets` order; empty for a one-row operation. */
  readonly others: readonly Row[];
}

/**
 * The rows `args` names, when every one exists in `workspace`; undefined when one is missing or
 * elsewhere (the call is then `refused: unavailable`).
 */
export function accessibleTargets(
  rows: ReadonlyMap<number, Row>,
  spec: OperationSpec,
  args: Args,
  workspace: string,
): CallTargets | undefined {
  const row = rows.get(args[spec.targetField] as number);
  if (!row || row.workspace !== workspace) return undefined;
  const names = spec.otherTargets;
  if (!names || names.length === 0) return { row, others: NO_OTHERS };
  const others: Row[] = [];
  for (const name of names) {
    const other = rows.get(args[name] as number);
    if (!other || other.workspace !== workspace) return undefined;
    others.push(other);
  }
  return { row, others };
}

/**
 * The other target rows `args` names (`otherTargets` order), looked up with `rowOf`, wherever they
 * are; empty for a one-row operation, undefined when one is missing.
 */
export function otherRowsOf(
  spec: OperationSpec,
  args: Args,
  rowOf: (id: number) => Row | undefined,
): readonly Row[] | undefined {
  const names = spec.otherTargets;
  if (!names || names.length === 0) return NO_OTHERS;
  const others: Row[] = [];
  for (const name of names) {
    const other = rowOf(args[name] as number);
    if (!other) return undefined;
    others.push(other);
  }
  return others;
}

/** Every row an effect wrote: the target row, then the others it returned. */
export function rowsWritten(effect: Effect): readonly Row[] {
  return effect.others && effect.others.length > 0 ? [effect.row, ...effect.others] : [effect.row];
}
