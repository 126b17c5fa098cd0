/**
 * What a replay and a saved concurrent counterexample say about reproduction: a verdict of the
 * three, how it was reached, and never "held" for a case that was only searched.
 */

import { describe, expect, it } from 'vitest';
import type { CallEvent } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { ReplayResult } from '../types/replay.ts';
import type { CaseResult, CheckResult } from '../types/results.ts';
import { formatCounterexample } from './format-counterexample.ts';
import { formatReplay, replayVerdictText } from './format-replay.ts';
import {
  describeReproduction,
  formatSummary,
  reproducesDeterministically,
} from './format-summary.ts';
import { emptyInputCoverage } from './input-coverage.ts';
import { toJsonReport } from './json-report.ts';

const send: CallEvent = {
  kind: 'call',
  client: 0,
  request: { requestId: 'r0', automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
  delivery: 'delivered',
};
const c: CaseFile = {
  name: 'race',
  description: '',
  handler: 'check-then-act',
  mode: 'concurrent',
  fixture: DEFAULT_FIXTURE,
  steps: [{ kind: 'concurrent', events: [send, send] }],
  expectations: [],
  extra: {},
};
const passed: CaseResult = {
  spec: setIntervalSpec,
  verdict: 'passed',
  handler: 'reference',
  mode: 'concurrent',
  failures: [],
  expectationFailures: [],
  trace: { observations: [], snapshot: { automations: [], receipts: [] } },
};
const replay = (r: Partial<ReplayResult>): ReplayResult => ({
  verdict: 'notReproduced',
  route: 'real threads',
  schedules: 200,
  schedulesMax: 200,
  realThreads: true,
  result: passed,
  ...r,
});

describe('formatReplay', () => {
  it('a searched pass is "not reproduced in N schedules", with what was tried', () => {
    const text = formatReplay(c, replay({}));
    expect(text).toMatch(
      /^\? race: not reproduced in 200 schedules nor on real threads against reference\n/,
    );
    expect(text).toContain('not proof of a fix');
    expect(text).not.toMatch(/held|passes|no longer fails/);
    expect(replayVerdictText(replay({}))).toBe('not reproduced');
  });

  it('an exact pass is held', () => {
    const text = formatReplay(c, replay({ verdict: 'held', route: 'exact', schedules: 0 }));
    expect(text).toContain('✓ race: passes against reference');
    expect(text).toContain('held: the case no longer fails (1 step replayed exactly)');
  });

  it('a pass of a schedule the server ordered is not held: N runs of it, and why', () => {
    const r = replay({ route: 'repeated schedule', schedules: 20, schedulesMax: 20 });
    const text = formatReplay(c, { ...r, realThreads: false });
    expect(text).toMatch(/^\? race: not reproduced in 20 runs of its schedule against reference\n/);
    expect(text).toContain('PostgreSQL chose which of the lanes waiting on one lock went first');
    expect(text).toContain("20 runs of the case's schedule passed: that is not proof of a fix.");
    expect(text).not.toMatch(/held|no longer fails|replayed exactly/);
  });

  it('lane order alone is not held either', () => {
    const text = formatReplay(c, replay({ route: 'lane order', schedules: 0, realThreads: false }));
    expect(text).toContain('not reproduced in lane order (sequential mode)');
    expect(text).toContain('replay without --mode to search schedules');
  });
});

describe('a concurrent counterexample says whether it replays deterministically', () => {
  const found = {
    found: true as const,
    reproduction: {
      schedule: [{ choices: [0, 0, 1] }],
      traceHash: 'h',
      foundAt: 4,
      schedulesMax: 200,
    },
  };

  it('in the summary, under the saved file', () => {
    const result: CheckResult = {
      verdict: 'failed',
      handler: 'check-then-act',
      handlerName: 'check-then-act',
      mode: 'concurrent',
      modes: ['concurrent'],
      seed: 42,
      shard: undefined,
      runs: 3,
      runsPlanned: 300,
      steps: 9,
      coverage: {} as CheckResult['coverage'],
      elapsedMs: 10,
      timedOut: false,
      inputCoverage: emptyInputCoverage(setIntervalSpec),
    };
    const text = formatSummary(result, { savedPath: 'cx/a.json', reproduction: found });
    expect(text).toContain(
      '  saved     cx/a.json\n            replays deterministically: schedule 4 of a search of at most 200',
    );
    const json = toJsonReport(
      {
        ...result,
        counterexample: {
          spec: setIntervalSpec,
          ...c,
          handlerName: 'check-then-act',
          failures: [],
          seed: 42,
          path: '',
          runsToFailure: 3,
          shrinks: 0,
        },
      },
      { savedPath: 'cx/a.json', reproduction: found },
    ) as { counterexample: { scheduledReproduction: unknown } };
    expect(json.counterexample.scheduledReproduction).toEqual(found);
    expect(describeReproduction({ found: false, schedules: 200 })).toContain(
      'no schedule of 200 reproduced it',
    );
    expect(describeReproduction({ found: false, schedules: 3, error: 'boom' })).toContain(
      'the search stopped after 3 schedule(s): boom',
    );
  });

  it('beside the replay command', () => {
    const readable = {
      ...c,
      spec: setIntervalSpec,
      handlerName: 'check-then-act',
      failures: [],
      seed: 42,
    };
    const text = formatCounterexample(readable, {
      savedPath: 'cx/a.json',
      reproducesDeterministically: true,
    });
    expect(text).toContain(
      'replay:  npx receiptcheck replay cx/a.json   (deterministic: runs the scheduled reproduction saved with it)',
    );
    expect(formatCounterexample(readable, { savedPath: 'cx/a.json' })).not.toContain(
      'deterministic',
    );
  });

  it('not when the server chose the order of the run that reproduced it', () => {
    const ordered = {
      ...found,
      reproduction: { ...found.reproduction, serverOrdered: true as const },
    };
    expect(reproducesDeterministically(found)).toBe(true);
    expect(reproducesDeterministically(ordered)).toBe(false);
    expect(reproducesDeterministically({ found: false, schedules: 3 })).toBe(false);
    const line = describeReproduction(ordered);
    expect(line).not.toContain('deterministic');
    expect(line).toContain('PostgreSQL chose which of the lanes waiting on one lock went first');
    // And a replay that reproduced it through such a run does not say it did so deterministically.
    const detail = { mode: 'scheduled', serverOrdered: true };
    const failed = { ...passed, verdict: 'failed' as const, detail };
    for (const route of ['saved schedule', 'schedule search'] as const) {
      const text = formatReplay(
        c,
        replay({ verdict: 'reproduced', route, schedules: 1, result: failed }),
      );
      expect(text).toContain('a replay of it may take another path');
      expect(text).not.toMatch(/deterministically|the same way every time/);
    }
  });
});
