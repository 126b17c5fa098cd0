/**
 * A snapshot's rows and payloads hold integers or strings (`Row`, `Payload`): a spec whose row
 * has a text field (a title) passes the shape check, and a row field of any other type fails it,
 * naming the row. Text in results and rows reads quoted in reports, since it may hold spaces.
 */
import { describe, expect, it } from 'vitest';
import { defineOperation } from './operation.ts';
import { describeResult } from './outcome.ts';
import { checkSnapshotShape } from './outcome-shape.ts';
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

  it.each([null, true, { text: 'x' }, 1.5])('rejects a row field %j, naming the row', (title) => {
    const snapshot = { docs: [{ id: 1, workspace: 'team-a', title }], receipts: [] };
    expect(() => checkSnapshotShape(snapshot, 'mine', titled)).toThrow(/malformed docs row/);
  });
});

describe('describeResult', () => {
  it('quotes text, leaves numbers bare', () => {
    expect(describeResult({ docId: 1, title: 'Q3 plan' })).toBe('docId 1 title "Q3 plan"');
  });
});
