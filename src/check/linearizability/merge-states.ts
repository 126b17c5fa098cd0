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
  const rows = new Map(initial.rows);
  const created = new Map(initial.created);
  const receipts = new Map(initial.receipts);
  const refusals = new Map(initial.refusals);
  const expiresAt = new Map(initial.expiresAt);
  const claims = new Map(initial.claims);
  const principals = [...initial.principals];
  let storeFailing = initial.storeFailing;
  for (const final of finals) {
    overlay(rows, initial.rows, final.rows);
    // Parts key the rows they create from the same counter; those ids are opaque (predicted
    // ids never split a history), so each new row gets a key of its own here.
    for (const [key, row] of final.created) {
      if (initial.created.get(key) === row) continue;
      let free = key;
      while (created.has(free)) free++;
      created.set(free, free === key ? row : { ...row, id: free });
    }
    overlay(receipts, initial.receipts, final.receipts);
    overlay(refusals, initial.refusals, final.refusals);
    overlay(expiresAt, initial.expiresAt, final.expiresAt);
    overlay(claims, initial.claims, final.claims);
    final.principals.forEach((p, i) => {
      if (p !== initial.principals[i]) principals[i] = p;
    });
    if (final.storeFailing !== initial.storeFailing) storeFailing = final.storeFailing;
  }
  return {
    ...initial,
    rows,
    created,
    receipts,
    refusals,
    principals,
    storeFailing,
    expiresAt,
    claims,
  };
}

function overlay<K, V>(into: Map<K, V>, base: ReadonlyMap<K, V>, final: ReadonlyMap<K, V>): void {
  if (final === base) return;
  for (const [key, value] of final) if (base.get(key) !== value) into.set(key, value);
  for (const key of base.keys()) if (!final.has(key)) into.delete(key);
}
