/** `sameState`: whether two model states are the same world, for confirming a `stateHash` hit. */
import { PersistentMap } from '../../lib/persistent-map.ts';
import type { Row } from '../../model/operation.ts';
import type { ModelState, StoredRefusal } from '../../model/state.ts';
import type { Principal, Receipt } from '../../model/world.ts';
import { claimsText, errorsText, policyText, refusalText, scopeText } from './state-key.ts';

/**
 * Whether two states are the same world: same rows, receipts, scopes, store flag, refusals,
 * policy, clock, expiries, claims and stored errors.
 */
export function sameState(a: ModelState, b: ModelState): boolean {
  if (a === b) return true;
  return (
    a.storeFailing === b.storeFailing &&
    a.operation === b.operation &&
    sameRows(a.rows, b.rows) &&
    sameRows(a.created, b.created) &&
    sameReceipts(a.receipts, b.receipts) &&
    samePrincipals(a.principals, b.principals) &&
    sameRefusals(a.refusals, b.refusals) &&
    a.clock === b.clock &&
    sameExpiries(a.expiresAt, b.expiresAt) &&
    (a.claims === b.claims || claimsText(a.claims) === claimsText(b.claims)) &&
    (a.errors === b.errors || errorsText(a.errors) === errorsText(b.errors)) &&
    (a.policy === b.policy || policyText(a.policy) === policyText(b.policy))
  );
}

/** Whether two maps hold the same keys with `same` values; shared subtrees are skipped. */
function sameEntries<V>(
  a: ReadonlyMap<string, V>,
  b: ReadonlyMap<string, V>,
  same: (x: V, y: V) => boolean,
): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  if (a instanceof PersistentMap && b instanceof PersistentMap) return a.sameEntries(b, same);
  for (const [key, x] of a) {
    const y = b.get(key);
    if (y === undefined || !same(x, y)) return false;
  }
  return true;
}

function sameRows(a: ReadonlyMap<number, Row>, b: ReadonlyMap<number, Row>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [id, x] of a) {
    const y = b.get(id);
    if (!y || (x !== y && !sameFields(x, y))) return false;
  }
  return true;
}

function sameFields(x: Readonly<Record<string, unknown>>, y: Readonly<Record<string, unknown>>) {
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

function sameReceipts(a: ReadonlyMap<string, Receipt>, b: ReadonlyMap<string, Receipt>): boolean {
  return sameEntries(a, b, (x, y) => x === y || sameReceipt(x, y));
}

function sameReceipt(x: Receipt, y: Receipt): boolean {
  return (
    x.workspace === y.workspace &&
    x.user === y.user &&
    x.tool === y.tool &&
    x.requestId === y.requestId &&
    sameFields(x.payload, y.payload) &&
    sameFields(x.result, y.result)
  );
}

function samePrincipals(a: readonly Principal[], b: readonly Principal[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((p, i) => {
    const q = b[i];
    return (
      q !== undefined &&
      p.user === q.user &&
      p.workspace === q.workspace &&
      scopeText(p) === scopeText(q)
    );
  });
}

function sameRefusals(
  a: ReadonlyMap<string, StoredRefusal>,
  b: ReadonlyMap<string, StoredRefusal>,
): boolean {
  return sameEntries(a, b, (x, y) => x === y || refusalText(x) === refusalText(y));
}

function sameExpiries(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return sameEntries(a, b, (x, y) => x === y);
}
