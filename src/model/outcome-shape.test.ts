/**
 * A snapshot's rows and payloads hold integers or strings (`Row`, `Payload`): a spec whose row
 * has a text field (a title) passes the shape check, and a row field of any other type fails it,
 * naming the row. Text in results and rows reads quoted in reports, since it may hold spaces.
 */
import { describe, expect, it } from 'vitest';
import { defineOperation } from './operation.ts';
import { createOnce, createOnceOpaque } from './operations/create-once.ts';
import { describeResult } from './outcome.ts';
import { checkSnapshotShape, isOutcome } from './outcome-shape.ts';
import { defaultPrincipals } from './world.ts';

const titled = defineOperation({
  name: 'retitle-test',
  description: 'a test spec with a text field',
  tool: 'retitle.v1',
  scope: 'doc:write',
  noun: 'doc',
  table: 'docs',
  rowFields: ['title'],
  targetField: 'docId',
  fields: [
    { name: 'docId', rule: { kind: 'id' } },
    { name: 'title', rule: { kind: 'custom', check: (v) => typeof v === 'string', valid: ['a'] } },
  ],
  resultFields: ['docId', 'title'],
  payload: (a) => ({ doc: a.docId as number, title: a.title as string }),
  effect: (row, a) => ({
    row: { ...row, title: a.title as string },
    result: { docId: row.id, title: a.title as string },
  }),
  recreated: (id, workspace) => ({ id, workspace, title: 'Untitled' }),
  fixture: { docs: [], principals: defaultPrincipals('doc:write'), workspaces: ['team-a'] },
});

const receipt = {
  workspace: 'team-a',
  user: 'alice',
  tool: 'retitle.v1',
  requestId: 'r0',
  payload: { doc: 1, title: 'Q3 plan' },
  result: { docId: 1, title: 'Q3 plan' },
};

describe('checkSnapshotShape with a text field', () => {
  it('accepts string row fields and payloads', () => {
    const snapshot = {
      docs: [{ id: 1, workspace: 'team-a', title: 'Q3 plan' }],
      receipts: [receipt],
    };
    expect(checkSnapshotShape(snapshot, 'mine', titled)).toBe(snapshot);
  });

  it('accepts a row field that is a number with a fraction (a price of 5.5)', () => {
    const snapshot = { docs: [{ id: 1, workspace: 'team-a', title: 5.5 }], receipts: [] };
    expect(checkSnapshotShape(snapshot, 'mine', titled)).toBe(snapshot);
  });

  it.each([null, true, { text: 'x' }, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects a row field %j, naming the row',
    (title) => {
      const snapshot = { docs: [{ id: 1, workspace: 'team-a', title }], receipts: [] };
      expect(() => checkSnapshotShape(snapshot, 'mine', titled)).toThrow(/malformed docs row/);
      // The message says which field is wrong, not only that the row is.
      expect(() => checkSnapshotShape(snapshot, 'mine', titled)).toThrow(
        /its title is .*: row fields are finite numbers or strings, never null/,
      );
    },
  );
});

describe('checkSnapshotShape: the plugin builds the shape, the handler stores the data', () => {
  const docs = [{ id: 1, workspace: 'team-a', title: 'Q3 plan' }];

  it.each([
    ['a refusal stored as a result', { kind: 'refused', reason: 'conflict' }],
    ['a result with other fields', { docId: 1, title: 'Q3 plan', status: 200 }],
    ['a result missing a field', { docId: 1 }],
  ])('passes a receipt holding %s, for the model to judge', (_what, result) => {
    const snapshot = { docs, receipts: [{ ...receipt, result }] };
    expect(checkSnapshotShape(snapshot, 'mine', titled)).toBe(snapshot);
  });

  it.each([
    ['a snapshot that is not an object', 'docs', /did not return an object/],
    ['no receipts array', { docs }, /no "receipts" array/],
    [
      'a result left as text',
      { docs, receipts: [{ ...receipt, result: '{"docId":1}' }] },
      /malformed receipt/,
    ],
    [
      'a payload that is null',
      { docs, receipts: [{ ...receipt, payload: null }] },
      /malformed receipt/,
    ],
    [
      'a receipt without its user',
      { docs, receipts: [{ ...receipt, user: undefined }] },
      /malformed receipt/,
    ],
  ])('stops on %s with E_SNAPSHOT_SHAPE', (_what, snapshot, message) => {
    expect(() => checkSnapshotShape(snapshot, 'mine', titled)).toThrow(message);
    expect(() => checkSnapshotShape(snapshot, 'mine', titled)).toThrow(
      expect.objectContaining({ code: 'E_SNAPSHOT_SHAPE' }),
    );
  });
});

describe("checkSnapshotShape with a payload that reads its fields' values", () => {
  // A payload that normalises a text field (an email lowercased) must meet a text, not the
  // placeholder a shape check might pass it, or every snapshot check throws from user code.
  const lowered = defineOperation({
    ...titled,
    name: 'retitle-lowered-test',
    payload: (a) => ({ doc: a.docId as number, title: (a.title as string).toLowerCase() }),
  });

  it('checks the snapshot, and names the payload keys when it is malformed', () => {
    const snapshot = { docs: [{ id: 1, workspace: 'team-a', title: 'a' }], receipts: [receipt] };
    expect(checkSnapshotShape(snapshot, 'mine', lowered)).toBe(snapshot);
    expect(() => checkSnapshotShape({ docs: 'x' }, 'mine', lowered)).toThrow(
      /payload: \{doc, title\}/,
    );
  });
});

describe('checkSnapshotShape with created rows', () => {
  const uuid = '7f368742-4d61-4840-aaa9-9528c5bd6441';
  const customers = [{ id: 1, workspace: 'team-a' }];
  const invoices = [{ id: uuid, customerId: 1, amount: 5 }];

  it('accepts a text id (a UUID) where the server assigns ids as it likes', () => {
    const snapshot = { customers, invoices, receipts: [] };
    expect(checkSnapshotShape(snapshot, 'mine', createOnceOpaque)).toBe(snapshot);
  });

  it('rejects it where the spec predicts ids (rowid), and on a target row', () => {
    expect(() =>
      checkSnapshotShape({ customers, invoices, receipts: [] }, 'mine', createOnce),
    ).toThrow(/malformed invoices row .*\(its id must be an integer\)/);
    const textTarget = {
      customers: [{ id: uuid, workspace: 'team-a' }],
      invoices: [],
      receipts: [],
    };
    expect(() => checkSnapshotShape(textTarget, 'mine', createOnceOpaque)).toThrow(
      /malformed customers row/,
    );
  });
});

describe('describeResult', () => {
  it('quotes text, leaves numbers bare', () => {
    expect(describeResult({ docId: 1, title: 'Q3 plan' })).toBe('docId 1 title "Q3 plan"');
  });
});

describe('isOutcome', () => {
  it('accepts a result holding a number with a fraction, and not NaN', () => {
    const ok = (qty: number) => ({ kind: 'ok', replayed: false, result: { id: 1, qty } });
    expect(isOutcome(ok(5.5))).toBe(true);
    expect(isOutcome(ok(Number.NaN))).toBe(false);
  });
});
