/**
 * Fingerprints and equality for model states, for the linearizability checker's memo cache.
 * Every field of `ModelState` takes part (the operation by identity); a new field must be added here too (the state-key test
 * fails when `stateKey` misses one).
 *
 * `stateHash` is fast because it is cached per component: the model shares every map and array a
 * step did not change, so a search over 100,000 entries hashes a receipts map only when a fresh
 * write created it. Hashes can collide; callers confirm a hash hit with `sameState`.
 */
import type { Row } from './operation.ts';
import { PersistentMap } from './persistent-map.ts';
import type { Policy } from './policy.ts';
import type { ModelState, StoredClaim, StoredError, StoredRefusal } from './state.ts';
import type { Principal, Receipt } from './world.ts';

const rowsHashes = new WeakMap<ReadonlyMap<number, Row>, number>();
const rowHashes = new WeakMap<Row, number>();
const stateHashes = new WeakMap<ModelState, number>();
const receiptsHashes = new WeakMap<ReadonlyMap<string, Receipt>, number>();
const receiptHashes = new WeakMap<Receipt, number>();
const principalsHashes = new WeakMap<readonly Principal[], number>();
const refusalsHashes = new WeakMap<ReadonlyMap<string, StoredRefusal>, number>();
/** Tokens naming each kind of entry hash, for the sums a `PersistentMap` keeps on its nodes. */
const receiptNodeSums = { entries: 'receipts' };
const refusalNodeSums = { entries: 'refusals' };
const expiryNodeSums = { entries: 'expiries' };

/**
 * A 32-bit hash of a state; equal states (by `sameState`) always hash equal, whatever order their
 * maps were filled in. Treats states as immutable: mutating a hashed map gives stale hashes.
 */
export function stateHash(state: ModelState): number {
  let h = stateHashes.get(state);
  if (h === undefined) {
    h = computeStateHash(state);
    stateHashes.set(state, h);
  }
  return h;
}

function computeStateHash(state: ModelState): number {
  let h = mix(0x9e3779b9, hashRows(state.rows));
  h = mix(h, hashRows(state.created));
  h = mix(h, hashReceipts(state.receipts));
  h = mix(h, hashPrincipals(state.principals));
  h = mix(h, hashRefusals(state.refusals));
  h = mix(h, hashText(policyText(state.policy)));
  h = mix(h, state.clock | 0);
  h = mix(h, hashExpiries(state.expiresAt));
  h = mix(h, hashText(claimsText(state.claims)));
  h = mix(h, hashText(errorsText(state.errors)));
  return mix(h, state.storeFailing ? 1 : 2);
}

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

function hashRows(rows: ReadonlyMap<number, Row>): number {
  let h = rowsHashes.get(rows);
  if (h !== undefined) return h;
  h = rows.size;
  // Summing makes the hash independent of insertion order (here and for the other maps).
  for (const a of rows.values()) h = (h + hashRow(a)) | 0;
  rowsHashes.set(rows, h);
  return h;
}

/** A row's hash, cached: a step copies a map but keeps every row it did not change. */
function hashRow(row: Row): number {
  let h = rowHashes.get(row);
  if (h === undefined) {
    h = fieldsHash(row);
    rowHashes.set(row, h);
  }
  return h;
}

/**
 * A hash of an object of primitive fields, equal whenever `sameFields` holds: a sum over its
 * fields, so no sorting, and no text built (the search hashes a new row per write).
 */
function fieldsHash(o: Readonly<Record<string, unknown>>): number {
  let h = 0;
  for (const key of Object.keys(o)) h = (h + mix(keyHash(key), valueHash(o[key]))) | 0;
  return h;
}

const keyHashes = new Map<string, number>();

function keyHash(key: string): number {
  let h = keyHashes.get(key);
  if (h === undefined) {
    h = hashText(key);
    keyHashes.set(key, h);
  }
  return h;
}

/** Equal primitives hash equal; a number and its text may collide, which `sameFields` settles. */
function valueHash(v: unknown): number {
  if (typeof v === 'number' && (v | 0) === v) return mix(0x27d4eb2f, v);
  return hashText(typeof v === 'string' ? v : String(v));
}

/** A row as text, its fields in name order: `1@team-a:intervalMinutes=30,version=2`. */
function rowText(row: Row): string {
  return `${row.id}@${row.workspace}:${fieldsText(row, ['id', 'workspace'])}`;
}

/** An object's fields as `name=value`, in name order, leaving out `skip`. */
function fieldsText(o: Readonly<Record<string, unknown>>, skip: readonly string[] = []): string {
  return Object.keys(o)
    .filter((k) => !skip.includes(k))
    .sort()
    .map((k) => `${k}=${JSON.stringify(o[k])}`)
    .join(',');
}

function hashReceipts(receipts: ReadonlyMap<string, Receipt>): number {
  // A receipt's own fields include its key, so the map key need not be hashed again. A
  // persistent map keeps each node's sum on the node, its root's too, so it needs no cache
  // here: a WeakMap entry per map (a fresh write makes one) is an ephemeron every collection walks.
  if (receipts instanceof PersistentMap)
    return entriesHash(receipts, receiptHashUncached, receiptNodeSums);
  let h = receiptsHashes.get(receipts);
  if (h !== undefined) return h;
  h = entriesHash(receipts, (_, r) => hashReceipt(r), receiptNodeSums);
  receiptsHashes.set(receipts, h);
  return h;
}

/** A receipt's hash over exactly the fields `sameReceipt` compares. */
function receiptHashUncached(_: string, r: Receipt): number {
  let h = mix(hashText(r.workspace), hashText(r.user));
  h = mix(h, hashText(r.tool));
  h = mix(h, hashText(r.requestId));
  h = mix(h, fieldsHash(r.payload));
  return mix(h, fieldsHash(r.result));
}

function hashReceipt(r: Receipt): number {
  let h = receiptHashes.get(r);
  if (h === undefined) {
    // The same hash a persistent map's leaf gets: equal states hash alike whichever map holds them.
    h = receiptHashUncached('', r);
    receiptHashes.set(r, h);
  }
  return h;
}

function hashPrincipals(principals: readonly Principal[]): number {
  let h = principalsHashes.get(principals);
  if (h !== undefined) return h;
  h = principals.length;
  for (const p of principals) h = mix(h, hashText(`${p.user}@${p.workspace}[${scopeText(p)}]`));
  principalsHashes.set(principals, h);
  return h;
}

function hashRefusals(refusals: ReadonlyMap<string, StoredRefusal>): number {
  let h = refusalsHashes.get(refusals);
  if (h !== undefined) return h;
  h = entriesHash(refusals, refusalHash, refusalNodeSums);
  refusalsHashes.set(refusals, h);
  return h;
}

function refusalHash(key: string, r: StoredRefusal): number {
  return mix(hashText(key), hashText(refusalText(r)));
}

/**
 * The map's size plus the sum of `entryHash` over its entries: summing makes it independent of
 * order. A `PersistentMap` keeps its sums on its nodes under `token`, so a map one step from a hashed one
 * costs its changed path, not its size.
 */
function entriesHash<V>(
  map: ReadonlyMap<string, V>,
  entryHash: (key: string, value: V) => number,
  token: object,
): number {
  if (map instanceof PersistentMap) return (map.size + map.hashSum(entryHash, token)) | 0;
  let h = map.size;
  for (const [key, value] of map) h = (h + entryHash(key, value)) | 0;
  return h;
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

function refusalText(r: StoredRefusal): string {
  return `${fieldsText(r.payload)}->${r.reason}`;
}

function policyText(p: Policy): string {
  return `${p.idempotencyFirst ? 'first' : 'after'},${p.storesRefusals ? 'stores' : 'drops'},${p.storesErrors ? 'stores' : 'drops'},${p.inFlightDuplicate},${p.receiptExpiry},${p.claimExpiry}`;
}

const expiriesHashes = new WeakMap<ReadonlyMap<string, number>, number>();

function hashExpiries(expiresAt: ReadonlyMap<string, number>): number {
  let h = expiriesHashes.get(expiresAt);
  if (h !== undefined) return h;
  h = entriesHash(expiresAt, (key, at) => hashText(`${key}@${at}`), expiryNodeSums);
  expiriesHashes.set(expiresAt, h);
  return h;
}

function sameExpiries(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return sameEntries(a, b, (x, y) => x === y);
}

/** Expiry times as `key@ms`, sorted. */
function expiriesText(expiresAt: ReadonlyMap<string, number>): string {
  return [...expiresAt]
    .map(([key, at]) => `${JSON.stringify(key)}@${at}`)
    .sort()
    .join(' ');
}

/**
 * Claims as `key=payload@expiry`, sorted; empty for nearly every state (only a crash's reading
 * adds a claim), so it is computed, not cached.
 */
function claimsText(claims: ReadonlyMap<string, StoredClaim>): string {
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
function errorsText(errors: ReadonlyMap<string, StoredError>): string {
  if (errors.size === 0) return '';
  return [...errors]
    .map(([key, e]) => `${JSON.stringify(key)}=${fieldsText(e.payload)}`)
    .sort()
    .join(' ');
}

function receiptText(r: Receipt): string {
  return `${JSON.stringify([r.workspace, r.user, r.tool, r.requestId])}:${fieldsText(r.payload)}->${fieldsText(r.result)}`;
}

/** Scopes as a set: revoke and restore may reorder them without changing their meaning. */
function scopeText(p: Principal): string {
  return [...new Set(p.scopes)].sort().join(',');
}

/** FNV-1a over UTF-16 code units. */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** Combines two 32-bit hashes, order-sensitively (murmur3's finaliser on a rotate-xor). */
function mix(h: number, v: number): number {
  let x = Math.imul(h ^ v, 0x85ebca6b) ^ ((h << 13) | (h >>> 19));
  x ^= x >>> 16;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 13);
}
