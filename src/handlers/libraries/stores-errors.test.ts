/**
 * Policy `storesErrors` on a real library: `@node-idempotency/core` used as its NestJS interceptor
 * uses it, recording a failed business write (a 500) under the key like a response. The committed
 * case (`fixtures/node-idempotency/error-stored-and-replayed.json`) faults r0's business write;
 * the retry then gets the error again, the key reused with another payload `keyReuse`, and a new
 * key writes fresh. Declared, it holds; undeclared, the contract expects the retry to run again;
 * declared by a handler that stores the error but does not replay it, the retry's fresh write
 * fails. While the receipt store fails the library can record nothing, so there the policy
 * changes nothing (a sequential run).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type JudgedRunner, judgedRunner } from '../../api/judged-runner.ts';
import { loadCaseFile } from '../../api/load-case-file.ts';
import { runCase } from '../../api/run-case.ts';
import { sequentialRunner } from '../../execute/sqlite/sequential-mode.ts';
import type { Step } from '../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { outcome } from '../../model/outcome.ts';
import type { FixtureWithPolicy } from '../../model/state.ts';
import { STORED_ERROR_MESSAGE } from '../../model/step.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { CaseResult } from '../../types/results.ts';
import storing from './fixtures/declared/node-idempotency-stores-errors.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const saved = loadCaseFile(join(FIXTURES, 'node-idempotency', 'error-stored-and-replayed.json'));
const DECLARED = join(FIXTURES, 'declared', 'node-idempotency-stores-errors.ts');
const UNDECLARED = join(FIXTURES, 'undeclared', 'node-idempotency-stores-errors.ts');
const FORGETS = join(FIXTURES, 'misdeclared', 'node-idempotency-forgets-errors.ts');
const FRESH = outcome.fresh({ id: 1, intervalMinutes: 5, version: 2 });

/** What each call of the case was told, in step order. */
const answers = (r: CaseResult) => r.trace.observations.map((o) => o.observed.kind);

describe('storesErrors: an error stored under its key and replayed', () => {
  it('holds when declared: the retry gets the error again, a changed payload keyReuse', async () => {
    const r = await runCase(saved, { handler: DECLARED });
    expect(r.failures).toEqual([]);
    expect(answers(r)).toEqual(['error', 'error', 'keyReuse', 'ok']);
    expect(r.trace.observations.at(-1)?.observed).toEqual(FRESH);
  });

  it('fails undeclared: the contract records nothing for an error, so the retry runs again', async () => {
    const r = await runCase(saved, { handler: UNDECLARED });
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 1,
      expected: FRESH,
      actual: { kind: 'error' },
    });
  });

  it('fails declared by a handler that stored the error but runs the retry again', async () => {
    const r = await runCase(saved, { handler: FORGETS });
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 1,
      expected: { kind: 'error', message: STORED_ERROR_MESSAGE },
      actual: FRESH,
    });
  });
});

describe('storesErrors while the receipt store fails', () => {
  const runners: JudgedRunner[] = [];
  afterAll(async () => {
    for (const r of runners) await r.close();
  });
  const call = (requestId: string): Step => ({
    kind: 'call',
    client: 0,
    request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
    delivery: 'delivered',
  });

  it('records nothing (recording is a write to that store): the retry after it is fresh', async () => {
    const fixture: FixtureWithPolicy = { ...DEFAULT_FIXTURE, policy: storing.policy };
    const runner = judgedRunner(sequentialRunner(storing, fixture), fixture, setIntervalSpec);
    runners.push(runner);
    const steps: Step[] = [{ kind: 'storeFail' }, call('r1'), { kind: 'storeRestore' }, call('r1')];
    const run = await runner.execute(steps);
    expect(run.verdict).toEqual({ verdict: 'ok' });
    expect(run.trace.observations.map((o) => o.observed.kind)).toEqual(['error', 'ok']);
  });
});
