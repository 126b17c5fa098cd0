/**
 * The final model state of a whole history from the final states of its independent parts.
 *
 * Parts touch disjoint pieces of state (`partition.ts`), and the model shares every row,
 * receipt, refusal and principal a step did not change. So each piece that differs from the
 * initial state, by reference, differs in exactly one part, and taking it from there gives the
 * state that replaying the merged order would give, without the 100,000 steps. A state field this
 * file does not know makes it replay instead.
 */
import type { Event } from '../../model/events.ts';
import type { ModelState } from '../../model/state.ts';
import { run } from '../../model/step.ts';

const KNOWN_FIELDS = new Set([
  'operation',
  'rows',
  'created',
  'receipts',
  'principals',
  'storeFailing',
  'refusals',
  'policy',
  'clock',
  'expiresAt',
  'claims',
  'errors',
]);

/** Overlays the parts' changes on `initial`; `replay` lists the merged order's events, for the fallback. */
export function mergeStates(
  initial: ModelState,
  finals: readonly ModelState[],
  replay: () => readonly Event[],
): ModelState {
  // A clock advance touches every key (`partition.ts` keeps such a history whole): replay.
  if (
    !Object.keys(initial).every((field) => KNOWN_FIELDS.has(field)) ||
    finals.some((f) => f.clock !== initial.clock)
  )
    return run(initial, replay()).state;
  const created = new Map(initial.created);
  const principals = [...initial.principals];
  let storeFailing = initial.storeFailing;
  for (const final of finals) {
    // Parts key the rows they create from the same counter; those ids are opaque (predicted
    // ids never split a history), so each new row gets a key of its own here.
    for (const [key, row] of final.created) {
      if (initial.created.get(key) === row) continue;
      let free = key;
      while (created.has(free)) free++;
      created.set(free, free === key ? row : { ...row, id: free });
    }
    final.principals.forEach((p, i) => {
      if (p !== initial.principals[i]) principals[i] = p;
    });
    if (final.storeFailing !== initial.storeFailing) storeFailing = final.storeFailing;
  }
  return {
    ...initial,
    rows: merged(
      initial.rows,
      finals.map((f) => f.rows),
    ),
    created,
    receipts: merged(
      initial.receipts,
      finals.map((f) => f.receipts),
    ),
    refusals: merged(
      initial.refusals,
      finals.map((f) => f.refusals),
    ),
    principals,
    storeFailing,
    expiresAt: merged(
      initial.expiresAt,
      finals.map((f) => f.expiresAt),
    ),
    claims: merged(
      initial.claims,
      finals.map((f) => f.claims),
    ),
    errors: merged(
      initial.errors,
      finals.map((f) => f.errors),
    ),
  };
}

/**
 * One map of the merged state. A map only one part changed is that part's own map, taken as it
 * is (the other parts left every entry of it as in `base`): a soak's receipts, a million of
 * them and all in one part, are not copied. Several changed ones are overlaid on a copy.
 */
function merged<K, V>(
  base: ReadonlyMap<K, V>,
  finals: readonly ReadonlyMap<K, V>[],
): ReadonlyMap<K, V> {
  const changed = finals.filter((map) => map !== base);
  if (changed.length === 0) return base;
  if (changed.length === 1) return changed[0] as ReadonlyMap<K, V>;
  const into = new Map(base);
  for (const final of changed) {
    for (const [key, value] of final) if (base.get(key) !== value) into.set(key, value);
    for (const key of base.keys()) if (!final.has(key)) into.delete(key);
  }
  return into;
}
