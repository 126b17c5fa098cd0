/**
 * Compares the database a handler ended with against the model's state, row by row and receipt
 * by receipt (created rows with server-assigned ids up to a renaming of those ids). Pure;
 * returns differences as data for the report to render.
 */

import {
  createdRows,
  type OperationSpec,
  opaqueIds,
  type Row,
  targetRows,
} from '../model/operation.ts';
import { DEFAULT_OPERATION } from '../model/operations/index.ts';
import { SERVER_ASSIGNED } from '../model/outcome.ts';
import type { Receipt, Snapshot } from '../model/world.ts';
import type { SnapshotDifference } from '../types/verdict.ts';
import { receiptKeyOf } from './run-record.ts';

/**
 * Every difference, target rows first (automations, accounts, customers), then created rows
 * (invoices), then receipts; empty when the snapshots are equal.
 */
export function diffSnapshots(
  expected: Snapshot,
  actual: Snapshot,
  spec: OperationSpec = DEFAULT_OPERATION,
): SnapshotDifference[] {
  const diffs: SnapshotDifference[] = [];
  const targetsSame = sameRowsInOrder(targetRows(expected, spec), targetRows(actual, spec));
  const createdSame =
    !spec.created ||
    (!opaqueIds(spec) && sameRowsInOrder(createdRows(expected, spec), createdRows(actual, spec)));
  const receiptsSame = sameReceiptsInOrder(expected.receipts, actual.receipts);
  // Nearly every run's snapshots agree row for row in the same order: said without a pairing.
  if (targetsSame && createdSame && receiptsSame) return diffs;
  const rowDiffs = (what: string, pairs: [number, Row | undefined, Row | undefined][]) => {
    for (const [id, e, a] of pairs) {
      if (!e || !a || !sameFields(e, a))
        diffs.push({ what, id, ...(e ? { expected: e } : {}), ...(a ? { actual: a } : {}) });
    }
  };
  const byId = (x: Row) => x.id;
  if (!targetsSame)
    rowDiffs(spec.noun, pairUp(targetRows(expected, spec), targetRows(actual, spec), byId));
  if (spec.created && !createdSame) {
    const what = singular(spec.created.table);
    const [e, a] = [createdRows(expected, spec), createdRows(actual, spec)];
    rowDiffs(what, opaqueIds(spec) ? pairByContent(e, a) : pairUp(e, a, byId));
  }
  if (receiptsSame) return diffs;
  for (const [key, e, a] of pairUp(expected.receipts, actual.receipts, receiptKeyOf)) {
    if (!e || !a || !sameFields(e.payload, a.payload) || !sameFields(e.result, a.result)) {
      diffs.push({
        what: 'receipt',
        key,
        ...(e ? { expected: e } : {}),
        ...(a ? { actual: a } : {}),
      });
    }
  }
  return diffs;
}

/** A table's name as one of its rows: `invoices` → `invoice`, `entries` → `entry`. */
export function singular(table: string): string {
  if (/[^aeiou]ies$/.test(table)) return `${table.slice(0, -3)}y`;
  if (/(ss|sh|ch|x)es$/.test(table)) return table.slice(0, -2);
  return table.replace(/s$/, '');
}

/**
 * Equal fields, whatever their order; extra fields a plugin returns beyond the model's are
 * ignored, and a model field the server assigns (`SERVER_ASSIGNED`) matches any value.
 */
function sameFields(
  expected: Readonly<Record<string, unknown>>,
  actual: Readonly<Record<string, unknown>>,
): boolean {
  // `for...in` over the model's own plain objects (no inherited enumerable keys): no key array.
  for (const k in expected) {
    const e = expected[k];
    if (e !== actual[k] && e !== SERVER_ASSIGNED) return false;
  }
  return true;
}

/**
 * Whether two row lists hold the same ids in the same order, each pair with the same fields:
 * then pairing them by id finds no difference. (The model's ids are distinct, so an `actual`
 * that matches it index by index has distinct ids too.) False says only "pair them".
 */
function sameRowsInOrder(expected: readonly Row[], actual: readonly Row[]): boolean {
  if (expected.length !== actual.length) return false;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] as Row;
    const a = actual[i] as Row;
    if (e.id !== a.id || !sameFields(e, a)) return false;
  }
  return true;
}

/** `sameRowsInOrder` for receipts: the same keys in the same order, payloads and results alike. */
function sameReceiptsInOrder(expected: readonly Receipt[], actual: readonly Receipt[]): boolean {
  if (expected.length !== actual.length) return false;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] as Receipt;
    const a = actual[i] as Receipt;
    if (
      e.workspace !== a.workspace ||
      e.user !== a.user ||
      e.tool !== a.tool ||
      e.requestId !== a.requestId ||
      !sameFields(e.payload, a.payload) ||
      !sameFields(e.result, a.result)
    )
      return false;
  }
  return true;
}

/**
 * Created rows whose ids the server assigns, paired by their other fields: the model's ids are
 * its own, so two databases agree when they hold the same rows up to a renaming of ids. A pair
 * carries the found row's id; a model row with no match keeps the model's.
 */
function pairByContent(
  expected: readonly Row[],
  actual: readonly Row[],
): [number, Row | undefined, Row | undefined][] {
  const content = (r: Row) => {
    const { id: _id, ...rest } = r;
    return JSON.stringify(Object.entries(rest).sort(([x], [y]) => (x < y ? -1 : 1)));
  };
  const unmatched = new Map<string, Row[]>();
  for (const a of actual) unmatched.set(content(a), [...(unmatched.get(content(a)) ?? []), a]);
  const pairs: [number, Row | undefined, Row | undefined][] = [];
  for (const e of expected) {
    const a = unmatched.get(content(e))?.shift();
    // A matched pair is equal up to its id: give it the model's row with the found id.
    pairs.push(a ? [a.id, { ...e, id: a.id }, a] : [e.id, e, undefined]);
  }
  for (const rest of unmatched.values()) for (const a of rest) pairs.push([a.id, undefined, a]);
  return pairs;
}

function pairUp<T, K>(
  expected: readonly T[],
  actual: readonly T[],
  keyOf: (t: T) => K,
): [K, T | undefined, T | undefined][] {
  const pairs = new Map<K, [K, T | undefined, T | undefined]>();
  for (const e of expected) pairs.set(keyOf(e), [keyOf(e), e, undefined]);
  for (const a of actual) {
    const k = keyOf(a);
    const pair = pairs.get(k);
    if (pair) pair[2] = a;
    else pairs.set(k, [k, undefined, a]);
  }
  return [...pairs.values()];
}
