/**
 * Compares the database a handler ended with against the model's state, row by row and receipt
 * by receipt. Pure; returns differences as data for the report to render.
 */

import { createdRows, type OperationSpec, type Row, targetRows } from '../model/operation.ts';
import { DEFAULT_OPERATION } from '../model/operations/index.ts';
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
  const tables: [string, (s: Snapshot) => readonly Row[]][] = [
    [spec.noun, (s) => targetRows(s, spec)],
  ];
  if (spec.created)
    tables.push([spec.created.table.replace(/s$/, ''), (s) => createdRows(s, spec)]);
  for (const [what, rowsOf] of tables) {
    for (const [id, e, a] of pairUp(rowsOf(expected), rowsOf(actual), (x) => x.id)) {
      if (!e || !a || !sameFields(e, a)) {
        diffs.push({ what, id, ...(e ? { expected: e } : {}), ...(a ? { actual: a } : {}) });
      }
    }
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

/** Equal fields, whatever their order; extra fields a plugin returns beyond the model's are ignored. */
function sameFields(
  expected: Readonly<Record<string, unknown>>,
  actual: Readonly<Record<string, unknown>>,
): boolean {
  return Object.keys(expected).every((k) => expected[k] === actual[k]);
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
