/**
 * Honest fault injection: when scheduled mode injects a statement fault into a call and the
 * plugin does not map it to `error`, the counterexample says what was injected on that step and
 * what the checker accepts there (`error` with nothing changed, or the model's outcome had the
 * handler recovered), and its database section claims no change the checker does not require.
 * Fixed schedules first (a fault on a chosen write), then a generated run from a fixed seed.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type JudgedScheduledRunner, scheduledRunnerFor } from '../../testing/judged-runners.ts';
import type { CallEvent, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { formatCounterexample } from '../report/format-counterexample.ts';
import type { StepSchedule } from '../types/schedule.ts';
import { checkHandler } from './check-handler.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const UNMAPPED = fixture('fault-unmapped.ts');
const MISMAPPED = fixture('fault-mismapped.ts');

const opened: JudgedScheduledRunner[] = [];
afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
});

async function runnerFor(handler: string): Promise<JudgedScheduledRunner> {
  const r = await scheduledRunnerFor(handler, { callTimeoutMs: 60_000, workers: 1 });
  opened.push(r);
  return r;
}

const call: CallEvent = {
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId: 'r0', automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
};
const STEPS: Step[] = [call];
/** The reference's writes in a fresh call: 0 the UPDATE of the row, 1 the INSERT of the receipt. */
const faultAt = (at: number): StepSchedule[] => [{ choices: [], fault: { lane: 0, at } }];

/** Runs `handler` on the one call with a fault on its `at`-th write; the verdict and the text. */
async function faulted(handler: string, at: number) {
  const r = await (await runnerFor(handler)).executeScheduled(STEPS, faultAt(at));
  const failures = r.verdict.verdict === 'failed' ? r.verdict.failures : [];
  const text = formatCounterexample({
    handlerName: handler,
    mode: 'scheduled',
    fixture: DEFAULT_FIXTURE,
    spec: setIntervalSpec,
    steps: STEPS,
    failures,
    detail: r.detail,
  });
  return { verdict: r.verdict, failures, text };
}

const ACCEPTED =
  '✗ expected error(…) with nothing changed (the fault surfaced), or ok(fresh, id 1 interval 30 v2) (had the handler recovered from the fault)';

describe('a statement fault the plugin does not map', () => {
  it('the reference maps it to error: the same schedule passes', async () => {
    for (const at of [0, 1]) {
      const r = await faulted('reference', at);
      expect(r.verdict).toEqual({ verdict: 'ok' });
    }
  });

  it('let through: the step names the fault and both accepted answers; no database claim', async () => {
    const r = await faulted(UNMAPPED, 0);
    expect(r.failures).toEqual([
      expect.objectContaining({
        kind: 'outcome',
        faulted: true,
        actual: expect.objectContaining({ kind: 'unexpected' }),
      }),
    ]);
    expect(r.text).toContain(
      '  1.  alice@team-a sends r0: set automation 1 to 30 min expecting v1\n      ↯ fault injected: `UPDATE automations SET',
    );
    expect(r.text).toContain(
      'did not run and failed with SQLITE_CONSTRAINT_TRIGGER, as a failing receipt store does',
    );
    expect(r.text).toContain(
      `      ${ACCEPTED}\n        actual   unexpected SqliteError: receiptcheck: injected statement fault`,
    );
    expect(r.text).toContain('  - step 1: rule 10: a write of this call failed');
    expect(r.text).toContain('map SQLITE_CONSTRAINT… errors of a write to outcome.error');
    expect(r.text).toContain('Database (expected by the model vs found):\n  no difference');
  });

  it('mapped to a refusal, on the receipt insert: the same account', async () => {
    const r = await faulted(MISMAPPED, 1);
    expect(r.failures).toEqual([
      expect.objectContaining({
        kind: 'outcome',
        faulted: true,
        actual: { kind: 'refused', reason: 'conflict' },
      }),
    ]);
    expect(r.text).toContain('↯ fault injected: `INSERT INTO receipts');
    expect(r.text).toContain(`${ACCEPTED}\n        actual   refused(conflict)`);
    expect(r.text).toContain('Database (expected by the model vs found):\n  no difference');
  });

  it('found from a fixed seed by checkHandler: the shrunk counterexample says the same', async () => {
    const result = await checkHandler({
      handler: UNMAPPED,
      mode: 'scheduled',
      seed: 42,
      runs: 300,
      workers: 1,
      callTimeoutMs: 60_000,
    });
    expect(result.verdict).toBe('failed');
    const cx = result.counterexample;
    if (!cx) throw new Error('no counterexample');
    const text = formatCounterexample(cx);
    expect(text).toContain('↯ fault injected: `');
    expect(text).toContain('failed with SQLITE_CONSTRAINT_TRIGGER');
    expect(text).toContain('✗ expected error(…) with nothing changed (the fault surfaced)');
    expect(text).toContain(
      'actual   unexpected SqliteError: receiptcheck: injected statement fault',
    );
    expect(text).not.toMatch(/Database \(expected by the model vs found\):\n {2}automation/);
  });
});
