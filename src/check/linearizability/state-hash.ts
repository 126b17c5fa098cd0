/**
 * `stateHash`, the linearizability search's memo-cache fingerprint of a model state: fast because
 * it is cached per component. The model shares every map and array a step did not change, so a
 * search over 100,000 entries hashes a receipts map only when a fresh write created it. Hashes
 * can collide; callers confirm a hash hit with `sameState` (`same-state.ts`).
 */
import { PersistentMap } from '../../lib/persistent-map.ts';
import type { Row } from '../../model/operation.ts';
import type { ModelState, StoredRefusal } from '../../model/state.ts';
import type { Principal, Receipt } from '../../model/world.ts';
import { claimsText, errorsText, policyText, refusalText, scopeText } from './state-key.ts';

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
export function entriesHash<V>(
  map: ReadonlyMap<string, V>,
  entryHash: (key: string, value: V) => number,
  token: object,
): number {
  if (map instanceof PersistentMap) return (map.size + map.hashSum(entryHash, token)) | 0;
  let h = map.size;
  for (const [key, value] of map) h = (h + entryHash(key, value)) | 0;
  return h;
}

const expiriesHashes = new WeakMap<ReadonlyMap<string, number>, number>();

function hashExpiries(expiresAt: ReadonlyMap<string, number>): number {
  let h = expiriesHashes.get(expiresAt);
  if (h !== undefined) return h;
  h = entriesHash(expiresAt, (key, at) => hashText(`${key}@${at}`), expiryNodeSums);
  expiriesHashes.set(expiresAt, h);
  return h;
}

/** FNV-1a over UTF-16 code units. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** Combines two 32-bit hashes, order-sensitively (murmur3's finaliser on a rotate-xor). */
export function mix(h: number, v: number): number {
  let x = Math.imul(h ^ v, 0x85ebca6b) ^ ((h << 13) | (h >>> 19));
  x ^= x >>> 16;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 13);
}
