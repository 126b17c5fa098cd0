/**
 * Values that make a concurrent group's calls on one row conflict through the precondition: a
 * first value that passes it, and others that each pass it alone but not after the first one's
 * effect (two debits that each fit the balance but not both). Found by probing the spec's pure
 * precondition and effect (`precondition-edges.ts`) against the row the group will meet, so no
 * spec needs to say how its calls collide. Pure.
 */
import type { Args, ArgumentField, OperationSpec, Row } from '../model/operation.ts';
import { fieldHolds } from '../model/validate.ts';
import { edgeCandidates } from './precondition-edges.ts';

/** Most first values tried before giving up on a conflict through `field`. */
const FIRSTS_MAX = 8;

/** Whether a value may be sent in a field (not in an excluded input class). */
export type Allows = (field: string, value: number) => boolean;

/**
 * A first value for `field` and the values the other members may send, each passing the
 * precondition on `row` alone and refused after the first's effect; undefined when the
 * precondition cannot be crossed through `field` from `row`. `args` holds the other arguments
 * and, in `field`, the value drawn for the first member, tried first.
 */
export function conflictingValues(
  spec: OperationSpec,
  row: Row,
  others: readonly Row[],
  args: Args,
  field: ArgumentField,
  allows: Allows,
): { readonly first: number; readonly others: readonly number[] } | undefined {
  const precondition = spec.precondition;
  if (!precondition) return undefined;
  const at = (v: number) => ({ ...args, [field.name]: v }) as Args;
  const usable = (v: number) => fieldHolds(field, v) && allows(field.name, v);
  const passes = (r: Row, o: readonly Row[], v: number) => precondition(r, at(v), o) === undefined;
  const drawn = args[field.name];
  try {
    const firsts = [
      ...(typeof drawn === 'number' ? [drawn] : []),
      ...edgeCandidates(spec, row, others, args, field),
    ]
      .filter((v) => usable(v) && passes(row, others, v))
      .slice(0, FIRSTS_MAX);
    for (const first of firsts) {
      const effect = spec.effect(row, at(first), 0, others);
      const [after, othersAfter] = [effect.row, effect.others ?? others];
      const seconds = edgeCandidates(spec, after, othersAfter, args, field).filter(
        (v) => usable(v) && passes(row, others, v) && !passes(after, othersAfter, v),
      );
      if (seconds.length > 0) return { first, others: seconds };
    }
  } catch {
    return undefined;
  }
  return undefined;
}
