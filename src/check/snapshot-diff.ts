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
import type { Snapshot } from '../model/world.ts';
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
  const rowDiffs = (what: string, pairs: [number, Row | undefined, Row | undefined][]) => {
    for (const [id, e, a] of pairs) {
      if (!e || !a || !sameFields(e, a))
        diffs.push({ what, id, ...(e ? { expected: e } : {}), ...(a ? { actual: a } : {}) });
    }
  };
  const byId = (x: Row) => x.id;
  rowDiffs(spec.noun, pairUp(targetRows(expected, spec), targetRows(actual, spec), byId));
  if (spec.created) {
    const what = spec.created.table.replace(/s$/, '');
    const [e, a] = [createdRows(expected, spec), createdRows(actual, spec)];
    rowDiffs(what, opaqueIds(spec) ? pairByContent(e, a) : pairUp(e, a, byId));
  }
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

/**
 * Equal fields, whatever their order; extra fields a plugin returns beyond the model's are
 * ignored, and a model field the server assigns (`SERVER_ASSIGNED`) matches any value.
 */
function sameFields(
  expected: Readonly<Record<string, unknown>>,
  actual: Readonly<Record<string, unknown>>,
): boolean {
  return Object.keys(expected).every(
    (k) => expected[k] === actual[k] || expected[k] === SERVER_ASSIGNED,
  );
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
