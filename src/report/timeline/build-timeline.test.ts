/**
 * The timeline's data, from saved counterexamples of every kind (`testing/timeline/`, real runs
 * kept as files so nothing here depends on timing) and from built cases: the lanes, the bars with
 * what each call saw and what the contract gives, the statements of a scheduled run, the verdict
 * with the rule a stuck call breaks, the database, and the reproduce commands.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Step } from '../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { TraceEntry } from '../../types/scheduled-trace.ts';
import { parseCaseFile } from '../case-file.ts';
import { decodeJson } from '../encode.ts';
import { buildTimeline } from './build-timeline.ts';
import { caseFileTimelineCase } from './case-timeline.ts';
import { buildSoakTimeline, type SoakReportInput } from './soak-timeline.ts';

const fixtureUrl = (name: string) => new URL(`../../../testing/timeline/${name}`, import.meta.url);
const saved = (name: string) =>
  caseFileTimelineCase(
    parseCaseFile(readFileSync(fixtureUrl(name), 'utf8'), name),
    setIntervalSpec,
  );

describe('buildTimeline', () => {
  it('draws a sequential counterexample on a step axis, the wrong call with the rule it breaks', () => {
    const t = buildTimeline(saved('sequential-version-before-receipt.json'), {
      savedPath: 'cx.json',
    });
    expect(t.status).toBe('failed');
    expect(t.axis.unit).toBe('step');
    expect(t.lanes.map((l) => l.label)).toEqual(['lane 1', 'lane 2']);
    const [first, retry] = t.bars;
    expect(first).toMatchObject({ outcomeClass: 'fresh', wrong: false });
    expect(retry).toMatchObject({
      place: 'step 1 lane 2',
      outcome: 'refused(conflict)',
      expected: 'ok(replayed, id 1 interval 5 v2)',
      rule: '7',
      wrong: true,
      outcomeClass: 'refused',
    });
    // A group runs in lane order in sequential mode: the retry starts after the first call.
    expect(retry?.start).toBeGreaterThanOrEqual(first?.end ?? Number.POSITIVE_INFINITY);
    expect(t.verdict.kind).toBe('order');
    if (t.verdict.kind === 'order')
      expect(t.verdict.order[1]).toMatchObject({
        outcome: 'refused(conflict)',
        expected: 'ok(replayed, id 1 interval 5 v2)',
      });
    expect(t.reproduce.join('\n')).toContain('receiptcheck replay cx.json');
  });

  it('draws a scheduled counterexample on the grant axis, every statement a tick with its full SQL', () => {
    const t = buildTimeline(saved('scheduled-check-then-act.json'));
    expect(t.axis).toMatchObject({ unit: 'grant', end: 6 });
    expect(t.lanes).toHaveLength(2);
    const [call, move] = t.bars;
    expect(call?.ticks.map((k) => k.at)).toEqual([0, 2, 3, 4, 5]);
    // The full statement, not the lanes view's 44 characters.
    expect(call?.ticks[3]?.sql).toContain('RETURNING id, interval_minutes, version');
    // With its parameters: interval, id, workspace, expected version.
    expect(call?.ticks[3]?.params).toEqual(['5', '1', '"team-a"', '1']);
    expect(call).toMatchObject({ start: 0, end: 6, wrong: true, rule: '6' });
    expect(move).toMatchObject({ outcomeClass: 'world', start: 1, end: 2 });
    expect(move?.ticks[0]?.durable).toBe(true);
    if (t.verdict.kind !== 'order') throw new Error(t.verdict.kind);
    expect(t.verdict.order.map((o) => o.place)).toEqual(['step 1 lane 2', 'step 1 lane 1']);
  });

  it('shows a lock wait that ended in an error as a tick with its SQLite code', () => {
    const t = buildTimeline(saved('scheduled-deferred-transaction.json'));
    const loser = t.bars.find((b) => b.wrong);
    expect(loser?.outcomeClass).toBe('unexpected');
    expect(loser?.ticks.some((k) => k.result === 'SQLITE_BUSY_SNAPSHOT')).toBe(true);
  });

  it('draws a concurrent counterexample on its clock: the longest order, and the stuck call with its rule', () => {
    const t = buildTimeline(saved('concurrent-check-then-act.json'));
    expect(t.axis.unit).toBe('ms');
    expect(t.verdict.kind).toBe('illegal');
    if (t.verdict.kind !== 'illegal') return;
    expect(t.verdict.order.map((o) => o.place)).toEqual(['step 1 lane 2']);
    expect(t.verdict.stuck[0]).toMatchObject({
      place: 'step 1 lane 1',
      blamed: true,
      rule: '7',
      outcome: 'refused(conflict)',
    });
    const stuck = t.bars.filter((b) => b.stuck);
    expect(stuck.map((b) => b.place)).toEqual(['step 1 lane 1']);
    expect(stuck[0]).toMatchObject({ wrong: true, expected: 'ok(replayed, id 1 interval 5 v2)' });
    for (const b of t.bars) expect(b.end).toBeGreaterThanOrEqual(b.start);
  });

  it('draws faults, crashes, lock waits and stalls of a scheduled run, a crashed call open-ended', () => {
    const steps: Step[] = [
      {
        kind: 'concurrent',
        events: [call('a'), call('b'), call('c')],
      },
    ];
    const entries: TraceEntry[] = [
      { step: 0, lane: 0, point: 'statement', grant: 'run', sql: 'BEGIN IMMEDIATE', result: 'ok' },
      {
        step: 0,
        lane: 1,
        point: 'statement',
        grant: 'run',
        sql: 'BEGIN IMMEDIATE',
        result: 'blocked',
      },
      {
        step: 0,
        lane: 0,
        point: 'statement',
        grant: 'fault',
        sql: 'INSERT INTO receipts …',
        result: 'SQLITE_CONSTRAINT_TRIGGER',
      },
      { step: 0, lane: 2, point: 'statement', grant: 'crash', sql: 'BEGIN IMMEDIATE' },
      { step: 0, lane: -1, point: 'stall', grant: 'run', sql: 'every lane left is blocked' },
      {
        step: 0,
        lane: 1,
        point: 'statement',
        grant: 'giveUp',
        sql: 'BEGIN IMMEDIATE',
        result: 'SQLITE_BUSY',
      },
    ];
    const t = buildTimeline({
      handlerName: 'built',
      mode: 'scheduled',
      fixture: DEFAULT_FIXTURE,
      spec: setIntervalSpec,
      steps,
      failures: [],
      detail: { mode: 'scheduled', entries, order: [] },
    });
    const [faulted, waited, crashed] = t.bars;
    expect(faulted?.ticks.map((k) => k.grant)).toEqual(['run', 'fault']);
    expect(faulted?.notes.join(' ')).toContain('fault injected');
    expect(waited?.ticks.map((k) => k.result)).toEqual(['blocked', 'SQLITE_BUSY']);
    expect(waited?.ticks[1]?.label).toContain('busy timeout');
    expect(crashed).toMatchObject({ open: true, outcomeClass: 'crashed' });
    expect(crashed?.notes.join(' ')).toContain('crash injected');
    expect(t.markers).toEqual([{ at: 4, label: 'every lane left is blocked' }]);
  });

  it("draws a scenario without a run: the file's promises, not a verdict", () => {
    const file = new URL(
      '../../../scenarios/article/02-lost-response-replays.json',
      import.meta.url,
    );
    const t = buildTimeline(
      caseFileTimelineCase(parseCaseFile(readFileSync(file, 'utf8'), 'x'), setIntervalSpec),
    );
    expect(t.status).toBe('not run');
    expect(t.verdict.kind).toBe('notRun');
    expect(t.bars.some((b) => b.outcome?.startsWith('the file expects'))).toBe(true);
    expect(t.bars.some((b) => b.open)).toBe(true);
  });

  it('stops the bars at a hang: the hung call marked, the steps after it not run', () => {
    const t = buildTimeline({
      handlerName: 'hangs',
      mode: 'sequential',
      fixture: DEFAULT_FIXTURE,
      spec: setIntervalSpec,
      steps: [call('a'), call('b')],
      failures: [{ kind: 'hang', step: 0, lane: 0, event: call('a'), limitMs: 50, how: 'busy' }],
    });
    expect(t.bars.map((b) => b.outcomeClass)).toEqual(['hang', 'unknown']);
    expect(t.bars[0]?.wrong).toBe(true);
    expect(t.database.summary).toContain('not compared');
  });

  it('says which order explains a passing run', () => {
    const t = buildTimeline({
      handlerName: 'reference',
      mode: 'sequential',
      fixture: DEFAULT_FIXTURE,
      spec: setIntervalSpec,
      steps: [call('a'), call('a', 'retry')],
      failures: [],
    });
    expect(t.status).toBe('passed');
    expect(t.verdict).toMatchObject({ kind: 'order', text: expect.stringContaining('explains') });
    expect(t.bars.map((b) => b.outcomeClass)).toEqual(['fresh', 'replayed']);
  });

  it("draws what the handler answered, and the model's outcome beside it only where the two differ", () => {
    const t = buildTimeline({
      handlerName: 'x',
      mode: 'sequential',
      fixture: DEFAULT_FIXTURE,
      spec: setIntervalSpec,
      steps: [{ kind: 'storeFail' }, call('a'), call('a', 'retry')],
      failures: [{ kind: 'invariant', invariant: 'receipts count fresh', message: 'x' }],
      answers: [
        // The model accepts any error's words: drawn as the handler gave them.
        { step: 1, lane: 0, observed: { kind: 'error', message: 'Failed to update the record' } },
        // An answer the failures do not speak of, yet not the model's: both drawn.
        { step: 2, lane: 0, observed: { kind: 'refused', reason: 'conflict' } },
      ],
    });
    const [, failed, retried] = t.bars;
    expect(failed).toMatchObject({ outcome: 'error(Failed to update the record)', wrong: false });
    expect(failed?.expected).toBeUndefined();
    expect(retried).toMatchObject({
      outcome: 'refused(conflict)',
      expected: 'error(receipt store unavailable)',
    });
    if (t.verdict.kind !== 'order') throw new Error(t.verdict.kind);
    expect(t.verdict.order.find((o) => o.place === 'step 2 lane 1')?.outcome).toBe(
      'error(Failed to update the record)',
    );
  });

  it('lists the rows of the database that differ, both sides in full', () => {
    const t = buildTimeline({
      handlerName: 'x',
      mode: 'sequential',
      fixture: DEFAULT_FIXTURE,
      spec: setIntervalSpec,
      steps: [call('a')],
      failures: [
        {
          kind: 'snapshot',
          differences: [
            {
              what: 'automation',
              id: 1,
              expected: { id: 1, workspace: 'team-a', intervalMinutes: 30, version: 2 },
              actual: { id: 1, workspace: 'team-a', intervalMinutes: 15, version: 1 },
            },
          ],
        },
      ],
    });
    expect(t.database.rows).toEqual([
      {
        what: 'automation',
        key: '1',
        expected: expect.stringContaining('"version":2'),
        found: expect.stringContaining('"version":1'),
      },
    ]);
  });
});

describe('buildSoakTimeline', () => {
  // A set-interval soak's history, as `soak --out` saves it (the file names no operation).
  const soak: SoakReportInput = {
    ...(decodeJson(readFileSync(fixtureUrl('soak-replay-not-flagged.json'), 'utf8')) as Omit<
      SoakReportInput,
      'spec'
    >),
    spec: setIntervalSpec,
  };

  it('draws the failing partition of the history, one lane per client, the stuck call marked', () => {
    const t = buildSoakTimeline(soak, 'soak.json');
    expect(t.status).toBe('failed');
    expect(t.bars.length).toBeGreaterThan(0);
    expect(t.bars.length).toBeLessThan(soak.history.length);
    expect(t.lanes.map((l) => l.label)).toContain('client 1');
    const stuck = t.bars.filter((b) => b.stuck && b.wrong);
    expect(stuck.length).toBeGreaterThan(0);
    expect(stuck[0]?.rule).toBe('7');
    expect(t.scope).toContain('failing partition');
    expect(t.scope).toContain('soak.json');
    if (t.verdict.kind !== 'illegal') throw new Error(t.verdict.kind);
    expect(t.verdict.stuck.some((s) => s.blamed && s.place.startsWith('#'))).toBe(true);
  });
});

function call(requestId: string, intent: 'new' | 'retry' = 'new'): Step & { kind: 'call' } {
  return {
    kind: 'call',
    client: 0,
    request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
    delivery: 'delivered',
    intent,
  };
}
