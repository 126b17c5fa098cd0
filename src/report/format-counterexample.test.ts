/**
 * The counterexample renderer: numbered steps, one lane per client in a group, the model's
 * outcome on calls that agreed, expected vs actual where they did not, the rows that differ and
 * the commands that reproduce it; what was injected into a call (a statement fault, a crash, the
 * failing receipt store) and what the checker accepts there; stacks only with `verbose`.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { outcome } from '../model/outcome.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { formatCounterexample } from './format-counterexample.ts';
import type { ReadableCase } from './readable-case.ts';

const send = (client: number, intent: CallEvent['intent']): CallEvent => ({
  kind: 'call',
  client,
  request: { requestId: 'r0', automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
  delivery: 'delivered',
  intent,
});
const result = { id: 1, intervalMinutes: 30, version: 2 };

const race: ReadableCase = {
  spec: setIntervalSpec,
  handler: './my-handler.ts',
  handlerName: 'mine',
  mode: 'sequential',
  fixture: DEFAULT_FIXTURE,
  seed: 42,
  path: '3:1',
  runsToFailure: 3,
  shrinks: 9,
  steps: [
    { kind: 'delete', resourceId: 2 },
    { kind: 'concurrent', events: [send(0, 'new'), send(0, 'retry')] },
  ],
  failures: [
    {
      kind: 'outcome',
      step: 1,
      lane: 1,
      event: send(0, 'retry'),
      expected: outcome.replayed(result),
      actual: outcome.fresh({ ...result, version: 3 }),
    },
    {
      kind: 'snapshot',
      differences: [
        {
          what: 'automation',
          id: 1,
          expected: { id: 1, workspace: 'team-a', intervalMinutes: 30, version: 2 },
          actual: { id: 1, workspace: 'team-a', intervalMinutes: 30, version: 3 },
        },
      ],
    },
  ],
};

describe('formatCounterexample', () => {
  const text = formatCounterexample(race, { savedPath: 'counterexamples/mine.json' });

  it('numbers the steps and gives a group one lane per client', () => {
    expect(text).toContain('  1.  automation 2 is deleted (its receipts stay)');
    expect(text).toContain('  2.  at the same moment, on separate connections:');
    expect(text).toContain(
      '      lane 1  alice@team-a sends r0: set automation 1 to 30 min expecting v1\n              → ok(fresh, id 1 interval 30 v2)',
    );
    expect(text).toContain('      lane 2  alice@team-a retries r0');
  });

  it('shows expected vs actual, the rule, the rows that differ and how to reproduce', () => {
    expect(text).toContain(
      '✗ expected ok(replayed, id 1 interval 30 v2)\n                actual   ok(fresh, id 1 interval 30 v3)',
    );
    expect(text).toContain('  - step 2 lane 2: rule 7: a receipt exists');
    expect(text).toContain(
      '  automation 1: expected interval 30 v2 in team-a, found interval 30 v3 in team-a',
    );
    expect(text).toContain('  seed 42, fast-check path 3:1');
    expect(text).toContain('  replay:  npx receiptcheck replay counterexamples/mine.json');
    expect(text).toContain(
      '  re-run:  npx receiptcheck run --handler ./my-handler.ts --seed 42 --mode sequential',
    );
  });

  it('re-runs in the mode that found it, with the runs to reach it past the default', () => {
    // `--mode sequential --runs 2000` found a case at run 914: `--seed 42` alone runs sequential
    // mode for 100 runs, then scheduled mode, and never meets it.
    const late = formatCounterexample({ ...race, runsToFailure: 914 }, {});
    expect(late).toContain(
      '  re-run:  npx receiptcheck run --handler ./my-handler.ts --seed 42 --mode sequential --runs 914',
    );
  });

  it('says when the database agrees, and leaves out CLI commands when asked', () => {
    const quiet = formatCounterexample(
      { ...race, failures: race.failures.slice(0, 1) },
      { commands: false },
    );
    expect(quiet).toContain('Database (expected by the model vs found):\n  no difference');
    expect(quiet).not.toContain('npx receiptcheck');
  });
});

describe('formatCounterexample on a concurrent run', () => {
  const lane = (l: number, observed: ReturnType<typeof outcome.fresh>) => ({
    id: l,
    step: 0,
    lane: l,
    event: send(0, l === 0 ? 'new' : 'retry'),
    observed,
    invokedAt: 1,
    completedAt: 2,
  });
  const raced: ReadableCase = {
    ...race,
    mode: 'concurrent',
    steps: [{ kind: 'concurrent', events: [send(0, 'new'), send(0, 'retry')] }],
    failures: [
      {
        kind: 'linearizability',
        verdict: 'illegal',
        longestPrefix: [lane(1, outcome.fresh(result))],
        stuck: [
          { ...lane(0, outcome.error('database is locked')), expected: outcome.replayed(result) },
        ],
      },
    ],
  };
  const text = formatCounterexample(raced);

  it('shows what each client saw, and expected vs actual on the call no order explains', () => {
    expect(text).toContain(
      '      lane 2  alice@team-a retries r0: set automation 1 to 30 min expecting v1\n              → ok(fresh, id 1 interval 30 v2)',
    );
    expect(text).toContain(
      '✗ expected ok(replayed, id 1 interval 30 v2) (after the order that fits)\n                actual   error(database is locked)',
    );
  });

  it('names the order that fitted and the rule the stuck call broke', () => {
    expect(text).toContain(
      "  - rule 7: the concurrent calls' outcomes match no serial order consistent with real time; the longest order that fits is step 1 lane 2; after it, step 1 lane 1 got error(database is locked)",
    );
  });
});

describe('formatCounterexample: what was injected, and stacks with --verbose', () => {
  const thrown = {
    kind: 'unexpected' as const,
    message: 'boom',
    stack:
      'Error: boom\n    at chargeCard (/app/pay.ts:3:9)\n    at Object.call (/app/my-handler.ts:9:5)',
  };
  const faultedCase: ReadableCase = {
    ...race,
    mode: 'scheduled',
    steps: [{ kind: 'storeFail' }, send(0, 'new')],
    failures: [
      {
        kind: 'outcome',
        step: 1,
        lane: 0,
        event: send(0, 'new'),
        expected: outcome.fresh(result),
        actual: thrown,
        faulted: true,
      },
      {
        kind: 'snapshot',
        faulted: [{ step: 1, lane: 0 }],
        differences: [
          {
            what: 'automation',
            id: 1,
            expected: { id: 1, workspace: 'team-a', intervalMinutes: 30, version: 2 },
            actual: { id: 1, workspace: 'team-a', intervalMinutes: 30, version: 3 },
          },
        ],
      },
    ],
    detail: {
      entries: [
        { step: 1, lane: 0, point: 'statement', grant: 'run', sql: 'BEGIN IMMEDIATE' },
        {
          step: 1,
          lane: 0,
          point: 'statement',
          grant: 'fault',
          sql: 'UPDATE automations\n   SET interval_minutes = ?',
          result: 'SQLITE_CONSTRAINT_TRIGGER',
        },
      ],
    },
  };

  it('names the fault, the failing store and both accepted answers on the step', () => {
    const text = formatCounterexample(faultedCase);
    expect(text).toContain(
      [
        '  2.  alice@team-a sends r0: set automation 1 to 30 min expecting v1',
        '      ↯ fault injected: `UPDATE automations SET interval_minutes = ?` did not run and failed with SQLITE_CONSTRAINT_TRIGGER, as a failing receipt store does',
        '      ↯ the receipt store is failing (since step 1): receipt inserts fail',
        '      ✗ expected error(…) with nothing changed (the fault surfaced), or ok(fresh, id 1 interval 30 v2) (had the handler recovered from the fault)',
        '        actual   unexpected error(boom)',
        '',
      ].join('\n'),
    );
    expect(text).toContain('  - step 2: rule 10: a write of this call failed');
    expect(text).toContain(
      '  (expected as if the faulted call at step 2 lane 1 took effect; the checker would also accept it changing nothing, and the database fits neither)',
    );
    expect(text).not.toContain('chargeCard');
  });

  it('prints the stack of an unexpected error under it with --verbose', () => {
    expect(formatCounterexample(faultedCase, { verbose: true })).toContain(
      '        actual   unexpected error(boom)\n          at chargeCard (/app/pay.ts:3:9)\n          at Object.call (/app/my-handler.ts:9:5)\n',
    );
  });

  it('names a crash on the lane it hit, and says nothing of faults where none was injected', () => {
    const crashed = formatCounterexample({
      ...faultedCase,
      steps: [send(0, 'new')],
      failures: [],
      detail: {
        entries: [{ step: 0, lane: 0, point: 'statement', grant: 'crash', sql: 'COMMIT' }],
      },
    });
    expect(crashed).toContain(
      '      ↯ crash injected before `COMMIT`: its connection died, its open transaction rolled back, the client gets no answer',
    );
    expect(formatCounterexample(race)).not.toContain('↯');
  });
});
