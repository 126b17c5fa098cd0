/**
 * Compares the database a handler ended with against the model's state, row by row and receipt
 * by receipt. Pure; returns differences as data for the report to render.
 */

import type { Receipt, Snapshot } from '../model/world.ts';
import type { SnapshotDifference } from '../types/verdict.ts';
import { receiptKeyOf } from './run-record.ts';

/** Every difference, automations first; empty when the snapshots are equal. */
export function diffSnapshots(expected: Snapshot, actual: Snapshot): SnapshotDifference[] {
  const diffs: SnapshotDifference[] = [];
  for (const [id, e, a] of pairUp(expected.automations, actual.automations, (x) => x.id)) {
    if (
      !e ||
      !a ||
      e.workspace !== a.workspace ||
      e.intervalMinutes !== a.intervalMinutes ||
      e.version !== a.version
    ) {
      diffs.push({
        what: 'automation',
        id,
        ...(e ? { expected: e } : {}),
        ...(a ? { actual: a } : {}),
      });
    }
  }
  for (const [key, e, a] of pairUp(expected.receipts, actual.receipts, receiptKeyOf)) {
    if (!e || !a || JSON.stringify(canonical(e)) !== JSON.stringify(canonical(a))) {
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

function canonical(r: Receipt): unknown[] {
  return [
    r.payload.id,
    r.payload.version,
    r.payload.interval,
    r.result.id,
    r.result.intervalMinutes,
    r.result.version,
  ];
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
