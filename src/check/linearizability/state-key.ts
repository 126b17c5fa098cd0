import type { Row } from '../../model/operation.ts';
import type { Policy } from '../../model/policy.ts';
import type { ModelState, StoredClaim, StoredError, StoredRefusal } from '../../model/state.ts';
import type { Principal, Receipt } from '../../model/world.ts';

/**
 * A canonical text rendering of a state: equal exactly when `sameState` holds. Slow (it sorts);
 * meant for tests, debugging and reports, not for the search's inner loop.
 */
export function stateKey(state: ModelState): string {
  const rows = [...state.rows.values()].sort((a, b) => a.id - b.id).map(rowText);
  const created = [...state.created.values()].sort((a, b) => a.id - b.id).map(rowText);
  const receipts = [...state.receipts.entries()]
    .map(([key, r]) => `${JSON.stringify(key)}=${receiptText(r)}`)
    .sort();
  const principals = state.principals.map((p) => `${p.user}@${p.workspace}[${scopeText(p)}]`);
  const refusals = [...state.refusals.entries()]
    .map(([key, r]) => `${JSON.stringify(key)}=${refusalText(r)}`)
    .sort();
  return [
    `rows ${rows.join(' ')}`,
    ...(created.length ? [`created ${created.join(' ')}`] : []),
    `receipts ${receipts.join(' ')}`,
    `principals ${principals.join(' ')}`,
    `store ${state.storeFailing ? 'failing' : 'ok'}`,
    `refusals ${refusals.join(' ')}`,
    `policy ${policyText(state.policy)}`,
    `clock ${state.clock}`,
    `expires ${expiriesText(state.expiresAt)}`,
    `claims ${claimsText(state.claims)}`,
    `errors ${errorsText(state.errors)}`,
  ].join(' | ');
}

/** A row as text, its fields in name order: `1@team-a:intervalMinutes=30,version=2`. */
export function rowText(row: Row): string {
  return `${row.id}@${row.workspace}:${fieldsText(row, ['id', 'workspace'])}`;
}

/** An object's fields as `name=value`, in name order, leaving out `skip`. */
export function fieldsText(
  o: Readonly<Record<string, unknown>>,
  skip: readonly string[] = [],
): string {
  return Object.keys(o)
    .filter((k) => !skip.includes(k))
    .sort()
    .map((k) => `${k}=${JSON.stringify(o[k])}`)
    .join(',');
}

export function refusalText(r: StoredRefusal): string {
  return `${fieldsText(r.payload)}->${r.reason}`;
}

export function policyText(p: Policy): string {
  return `${p.idempotencyFirst ? 'first' : 'after'},${p.storesRefusals ? 'stores' : 'drops'},${p.storesErrors ? 'stores' : 'drops'},${p.inFlightDuplicate},${p.receiptExpiry},${p.claimExpiry}`;
}

/** Expiry times as `key@ms`, sorted. */
export function expiriesText(expiresAt: ReadonlyMap<string, number>): string {
  return [...expiresAt]
    .map(([key, at]) => `${JSON.stringify(key)}@${at}`)
    .sort()
    .join(' ');
}

/**
 * Claims as `key=payload@expiry`, sorted; empty for nearly every state (only a crash's reading
 * adds a claim), so it is computed, not cached.
 */
export function claimsText(claims: ReadonlyMap<string, StoredClaim>): string {
  if (claims.size === 0) return '';
  return [...claims]
    .map(([key, c]) => `${JSON.stringify(key)}=${fieldsText(c.payload)}@${c.expiresAt ?? 'never'}`)
    .sort()
    .join(' ');
}

/**
 * Stored errors as `key=payload`, sorted; empty for nearly every state (only a faulted call's
 * reading under `storesErrors` adds one), so it is computed, not cached.
 */
export function errorsText(errors: ReadonlyMap<string, StoredError>): string {
  if (errors.size === 0) return '';
  return [...errors]
    .map(([key, e]) => `${JSON.stringify(key)}=${fieldsText(e.payload)}`)
    .sort()
    .join(' ');
}

export function receiptText(r: Receipt): string {
  return `${JSON.stringify([r.workspace, r.user, r.tool, r.requestId])}:${fieldsText(r.payload)}->${fieldsText(r.result)}`;
}

/** Scopes as a set: revoke and restore may reorder them without changing their meaning. */
export function scopeText(p: Principal): string {
  return [...new Set(p.scopes)].sort().join(',');
}
