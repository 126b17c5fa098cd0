/**
 * The further target rows of an operation that writes several (`otherTargets`, a transfer's
 * credited account): what a new intent draws for each, and how a pick becomes a row id. Kept
 * apart from the one-target generation, which stays as it was for every one-row operation.
 *
 * A pick is a small index, like a move's `target`, so it shrinks towards the ordinary case: a
 * row of the client's workspace other than the rows the call already names. Some picks name the
 * first target again (invalid input: the targets must be distinct) or any row, including one in
 * another workspace and a missing one (`unavailable`).
 */
import fc from 'fast-check';
import type { CallRequest } from '../model/events.ts';
import type { OperationSpec, Row } from '../model/operation.ts';
import { VALUE_KEY } from './value-arbitrary.ts';

/** Picks below this name a row of the client's workspace the call names nowhere else. */
const OWN_PICKS = 6;
/** This pick names the first target again. */
const SAME_PICK = 6;

/**
 * A pick per other target, as keys of an intent's drawn record (gathered into its `values` by
 * `withValues`); none for a one-row operation, whose intents are drawn exactly as before.
 */
export function otherTargetKeys(spec: OperationSpec): Record<string, fc.Arbitrary<number>> {
  const keys: Record<string, fc.Arbitrary<number>> = {};
  for (const name of spec.otherTargets ?? []) keys[`${VALUE_KEY}${name}`] = fc.nat({ max: 9 });
  return keys;
}

/**
 * Sets each other target of `args` (whose first target is set) from its pick in `picks`, 0 when
 * there is none (a race member or an edge value: the ordinary case).
 */
export function fillOtherTargets(
  spec: OperationSpec,
  args: Record<string, unknown>,
  picks: Readonly<Record<string, unknown>>,
  own: readonly number[],
  anyIds: readonly number[],
): void {
  const named = [args[spec.targetField] as number];
  for (const name of spec.otherTargets ?? []) {
    const pick = typeof picks[name] === 'number' ? (picks[name] as number) : 0;
    const id = pickedRow(pick, named, own, anyIds);
    args[name] = id;
    named.push(id);
  }
}

function pickedRow(
  pick: number,
  named: readonly number[],
  own: readonly number[],
  anyIds: readonly number[],
): number {
  if (pick < OWN_PICKS) {
    const free = own.filter((id) => !named.includes(id));
    if (free.length > 0) return free[pick % free.length] as number;
  }
  if (pick === SAME_PICK) return named[0] as number;
  const others = anyIds.filter((id) => !named.includes(id));
  const pool = others.length > 0 ? others : anyIds;
  return pool[pick % pool.length] as number;
}

/**
 * `request` with other target `field` naming another row (a key reused for another credited
 * account): the next of `rows` that the request names nowhere, one in the first target's
 * workspace if any (so the reuse reaches the receipt), else `missing`.
 */
export function withOtherTargetChanged(
  spec: OperationSpec,
  request: CallRequest,
  field: string,
  rows: readonly Row[],
  missing: number,
): CallRequest {
  const named = [spec.targetField, ...(spec.otherTargets ?? [])].map((f) => request[f]);
  const home = rows.find((r) => r.id === request[spec.targetField])?.workspace;
  const free = rows.filter((r) => !named.includes(r.id));
  const next = free.find((r) => r.workspace === home) ?? free[0];
  return { ...request, [field]: next?.id ?? missing };
}

/** The rows of `rows` in `workspace`, by id. */
export function ownRowIds(rows: Iterable<Row>, workspace: string | undefined): number[] {
  const own: number[] = [];
  for (const row of rows) if (row.workspace === workspace) own.push(row.id);
  return own;
}

/**
 * `request` with its first target and first other target exchanged: the same rows, written in
 * the opposite order (two transfers between the same accounts, one each way), the pair that
 * deadlocks a handler locking its rows in the order the call names them.
 */
export function withTargetsSwapped(spec: OperationSpec, request: CallRequest): CallRequest {
  const other = spec.otherTargets?.[0];
  if (other === undefined) return request;
  return { ...request, [spec.targetField]: request[other], [other]: request[spec.targetField] };
}
