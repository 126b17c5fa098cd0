/**
 * A hang reads as what it is everywhere a failure is shown: explained without a rule number (the
 * contract's rules are about answers, a hang has none) and with what to do, marked on the step that
 * hung in the counterexample (the steps after it did not run), the database not compared, and the
 * same text in JUnit and the case file.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { CheckResult, Counterexample } from '../types/results.ts';
import type { Failure } from '../types/verdict.ts';
import { counterexampleToCase } from './counterexample-case.ts';
import { explainFailure } from './explain-failure.ts';
import { formatCounterexample } from './format-counterexample.ts';
import { formatJunit } from './format-junit.ts';
import { runSuite } from './run-suite.ts';

const call = (requestId: string, automationId: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  intent: 'new',
  request: { requestId, automationId, expectedVersion: 1, intervalMinutes: 30 },
});
const steps: Step[] = [call('r0', 1), call('r1', 2), call('r2', 1)];
type HangFailure = Extract<Failure, { kind: 'hang' }>;
const hang = (how: HangFailure['how']): HangFailure => ({
  kind: 'hang',
  step: 1,
  lane: 0,
  event: steps[1] as CallEvent,
  limitMs: 300,
  how,
});
const cx = (failure: Failure): Counterexample => ({
  spec: setIntervalSpec,
  handler: 'h.ts',
  handlerName: 'h',
  mode: 'sequential',
  seed: 42,
  path: '1:0',
  fixture: DEFAULT_FIXTURE,
  steps,
  failures: [failure],
  runsToFailure: 2,
  shrinks: 3,
  shrinkCut: 'cut short: hung candidates had taken 31 s',
});

describe('a hang', () => {
  it.each([
    [
      'busy',
      /did not return within the call budget of 300 ms: its synchronous code was still running/,
    ],
    [
      'unsettled',
      /the promise the handler returned did not settle within the call budget of 300 ms/,
    ],
    ['thread', /so the worker thread running it was stopped/],
  ] as const)('(%s) is explained with what to do and no rule', (how, said) => {
    const e = explainFailure(hang(how));
    expect(e.rule).toBeUndefined();
    expect(e.text).toMatch(said);
    expect(e.text).toContain('raise --call-timeout-ms');
  });

  it('(locked) says the lock was left behind and how to release it, not to raise the budget', () => {
    const e = explainFailure(hang('locked'));
    expect(e.rule).toBeUndefined();
    expect(e.text).toMatch(/^the handler waits on a lock that another connection of the run holds/);
    expect(e.text).toContain('pg_advisory_xact_lock');
    expect(e.text).not.toContain('raise --call-timeout-ms');
    expect(formatCounterexample(cx(hang('locked')))).toMatch(
      /2\. +alice@team-a sends r1: .*\n +✗ waits on a lock an idle connection of the run holds, which nothing will release; the run stopped here/,
    );
  });

  it('names a world function or the snapshot when that is what hung', () => {
    const world: HangFailure = { ...hang('busy'), event: { kind: 'delete', resourceId: 1 } };
    expect(explainFailure(world).text).toMatch(/^the plugin's delete function did not return/);
    const { event: _none, ...snapshot } = hang('busy');
    expect(explainFailure({ ...snapshot, step: 3 }).text).toMatch(/^the plugin's snapshot\(db\)/);
  });

  it('is marked on its step; later steps did not run; the database is not compared', () => {
    const text = formatCounterexample(cx(hang('busy')));
    expect(text).toContain('shrunk 3 times (then cut short: hung candidates had taken 31 s)');
    expect(text).toMatch(
      /2\. +alice@team-a sends r1: .*\n +✗ did not return within 300 ms \(still running, stopped\); the run stopped here/,
    );
    expect(text).toMatch(
      /3\. +alice@team-a sends r2: .*\n +\(not run: the run stopped at the hang\)/,
    );
    expect(text).toContain(
      '  - step 2: the handler did not return within the call budget of 300 ms',
    );
    expect(text).toContain('not compared: the run stopped at the call that hung (step 2)');
  });

  it('is a JUnit failure and the case file keeps it', () => {
    const c = cx(hang('unsettled'));
    const result: CheckResult = {
      verdict: 'failed',
      handler: 'h.ts',
      handlerName: 'h',
      mode: 'sequential',
      modes: ['sequential'],
      seed: 42,
      shard: undefined,
      runs: 2,
      runsPlanned: 300,
      steps: 7,
      coverage: {} as CheckResult['coverage'],
      inputCoverage: {} as CheckResult['inputCoverage'],
      elapsedMs: 10,
      timedOut: false,
      counterexample: c,
    };
    const xml = formatJunit(runSuite(result));
    expect(xml).toContain('failures="1"');
    expect(xml).toMatch(
      /<failure message="counterexample of 3 step\(s\): the promise the handler returned did not settle/,
    );
    const saved = counterexampleToCase(c);
    expect(saved.extra).toMatchObject({ failures: [{ kind: 'hang', how: 'unsettled' }] });
    expect(saved.description).toMatch(/^the promise the handler returned did not settle/);
  });
});
