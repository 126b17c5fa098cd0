/**
 * `set-interval`, the article's tool and the default: change an automation's interval under an
 * expected version. The precondition is the version (a stale one is a conflict); the effect
 * writes the interval and advances the version; the result is the row after the write.
 */
import { defineOperation } from '../operation.ts';
import { DEFAULT_FIXTURE, TOOL, WRITE_SCOPE } from '../world.ts';

/** Smallest and largest interval the illustrative domain rule allows. */
export const INTERVAL_MIN = 5;
export const INTERVAL_MAX = 1440;

/** The interval a re-created automation starts with. */
export const RECREATED_INTERVAL = 15;

export const setInterval = defineOperation({
  name: 'set-interval',
  description: "the article's tool: set an automation's interval under an expected version",
  tool: TOOL,
  scope: WRITE_SCOPE,
  noun: 'automation',
  table: 'automations',
  rowFields: ['intervalMinutes', 'version'],
  targetField: 'automationId',
  fields: [
    { name: 'automationId', rule: { kind: 'id' } },
    { name: 'expectedVersion', rule: { kind: 'id' } },
    {
      name: 'intervalMinutes',
      rule: { kind: 'integer', min: INTERVAL_MIN, max: INTERVAL_MAX },
      typical: [5, 15, 30, 60, 1440],
    },
  ],
  resultFields: ['id', 'intervalMinutes', 'version'],
  payload: (a) => ({
    id: a.automationId as number,
    version: a.expectedVersion as number,
    interval: a.intervalMinutes as number,
  }),
  precondition: (row, a) => (row.version !== a.expectedVersion ? 'conflict' : undefined),
  effect: (row, a) => {
    const version = (row.version as number) + 1;
    const intervalMinutes = a.intervalMinutes as number;
    return {
      row: { ...row, intervalMinutes, version },
      result: { id: row.id, intervalMinutes, version },
    };
  },
  recreated: (id, workspace) => ({
    id,
    workspace,
    intervalMinutes: RECREATED_INTERVAL,
    version: 1,
  }),
  fixture: DEFAULT_FIXTURE,
  versioned: true,
});
