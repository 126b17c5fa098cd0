/**
 * A seek move made concrete: a new request whose value in one ordered field is drawn from the
 * candidates around the precondition's edge against the row the call will meet, or the field's
 * limits (`precondition-edges.ts`). The other arguments are a new intent's usual ones, so the
 * call is about that one value. Pure.
 */
import type { CallRequest } from '../model/events.ts';
import type { Args } from '../model/operation.ts';
import { otherRowsOf } from '../model/targets.ts';
import type { Move } from './moves.ts';
import { edgeCandidates, seekableFields } from './precondition-edges.ts';
import type { RequestMaker } from './race-events.ts';

/** The request a seek move sends: `request` (a new intent's) with the sought value in place. */
export function seekRequest(
  r: RequestMaker,
  move: Extract<Move, { kind: 'seek' }>,
  request: CallRequest,
): CallRequest {
  const fields = seekableFields(r.spec);
  const field = fields[move.field % Math.max(1, fields.length)];
  if (!field) return request;
  const args = request as unknown as Args;
  const others = otherRowsOf(r.spec, args, (id) => r.rowOf(id));
  // A missing other target refuses the call before the precondition: the field's limits only.
  const row = others ? r.rowOf(request[r.spec.targetField] as number) : undefined;
  const candidates = edgeCandidates(r.spec, row, others ?? [], args, field).filter((v) =>
    r.allows(field.name, v),
  );
  const value = candidates[move.pick % Math.max(1, candidates.length)];
  return value === undefined ? request : { ...request, [field.name]: value };
}
