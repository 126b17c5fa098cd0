/**
 * The snapshot comparison: equal snapshots give no difference, whether the rows come in the
 * model's order (the pairing-free path nearly every run takes) or in another; every kind of
 * difference is found on both paths, in targets-then-receipts order.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_ASSIGNED } from '../model/outcome.ts';
import type { Automation, Receipt, SetIntervalSnapshot } from '../model/world.ts';
import { diffSnapshots, singular } from './snapshot-diff.ts';

const row = (id: number, version = 1): Automation => ({
  id,
  workspace: 'team-a',
  version,
  intervalMinutes: 30,
});
const receipt = (requestId: string, version = 2): Receipt => ({
  workspace: 'team-a',
  user: 'alice',
  tool: 'set_interval',
  requestId,
  payload: { automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
  result: { id: 1, version },
});
const snap = (automations: Automation[], receipts: Receipt[]): SetIntervalSnapshot => ({
  automations,
  receipts,
});
const expected = snap([row(1, 2), row(2)], [receipt('r0'), receipt('r1', 3)]);

describe('equal snapshots', () => {
  it('give no difference in the same order, in another, and with extra fields', () => {
    expect(
      diffSnapshots(expected, snap([row(1, 2), row(2)], [receipt('r0'), receipt('r1', 3)])),
    ).toEqual([]);
    expect(
      diffSnapshots(expected, snap([row(2), row(1, 2)], [receipt('r1', 3), receipt('r0')])),
    ).toEqual([]);
    const extra = { ...row(1, 2), note: 'x' } as Automation;
    expect(
      diffSnapshots(expected, snap([extra, row(2)], [receipt('r0'), receipt('r1', 3)])),
    ).toEqual([]);
  });

  it('a server-assigned model field matches any value', () => {
    const model = snap(
      [row(1)],
      [{ ...receipt('r0'), result: { id: SERVER_ASSIGNED, version: 2 } }],
    );
    expect(diffSnapshots(model, snap([row(1)], [receipt('r0')]))).toEqual([]);
  });
});

describe('differences', () => {
  it('a changed field, in either order', () => {
    const changed = snap([row(1, 3), row(2)], [receipt('r0'), receipt('r1', 3)]);
    const want = [{ what: 'automation', id: 1, expected: row(1, 2), actual: row(1, 3) }];
    expect(diffSnapshots(expected, changed)).toEqual(want);
    expect(
      diffSnapshots(expected, snap([row(2), row(1, 3)], expected.receipts as Receipt[])),
    ).toEqual(want);
  });

  it('a missing, an extra and a duplicated row, and a receipt changed or missing', () => {
    expect(diffSnapshots(expected, snap([row(1, 2)], expected.receipts as Receipt[]))).toEqual([
      { what: 'automation', id: 2, expected: row(2) },
    ]);
    expect(
      diffSnapshots(expected, snap([row(1, 2), row(2), row(3)], expected.receipts as Receipt[])),
    ).toEqual([{ what: 'automation', id: 3, actual: row(3) }]);
    // Two rows under one id, the second as the model has it: the pairing keeps the last.
    expect(
      diffSnapshots(expected, snap([row(1, 2), row(1, 2)], expected.receipts as Receipt[])),
    ).toEqual([{ what: 'automation', id: 2, expected: row(2) }]);
    expect(
      diffSnapshots(
        expected,
        snap(expected.automations as Automation[], [receipt('r0'), receipt('r1', 4)]),
      ),
    ).toEqual([
      {
        what: 'receipt',
        key: 'team-a\u0000alice\u0000set_interval\u0000r1',
        expected: receipt('r1', 3),
        actual: receipt('r1', 4),
      },
    ]);
    expect(
      diffSnapshots(expected, snap([row(1, 5), row(2)], [receipt('r1', 3)])).map((d) => d.what),
    ).toEqual(['automation', 'receipt']);
  });
});

describe('a created table named as one of its rows', () => {
  it.each([
    ['invoices', 'invoice'],
    ['entries', 'entry'],
    ['boxes', 'box'],
    ['addresses', 'address'],
    ['keys', 'key'],
  ])('%s → %s', (table, row) => {
    expect(singular(table)).toBe(row);
  });
});
