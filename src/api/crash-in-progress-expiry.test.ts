/**
 * powertools' in-progress expiry on the harness clock (issue 16): a call that crashes after its
 * claim commits leaves an in-progress record, and the record refuses a retry as in progress (F2)
 * until the harness clock passes its in-progress expiry (`CALL_BUDGET_MS` after the claim); only
 * then does the retry run the write. Built on `crash-after-claim.json`, with a clock advance
 * between the crash and the retry: short of the budget the case still fails as F2 does, past it
 * the case passes. Pins that no clock advance (the fixture as saved) keeps the record unexpired.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CALL_BUDGET_MS } from '../handlers/libraries/powertools.ts';
import type { Step } from '../model/events.ts';
import type { CaseFile } from '../types/case-file.ts';
import { loadCaseFile } from './load-case-file.ts';
import { runCase } from './run-case.ts';

const saved = loadCaseFile(
  fileURLToPath(new URL('./fixtures/crash-after-claim.json', import.meta.url)),
);

/** The saved case with the clock moved on by `ms` between the crashed call and its retry. */
function withAdvance(ms: number): CaseFile {
  const [crashed, retry] = saved.steps as [Step, Step];
  const tick: Step = { kind: 'clockAdvance', ms };
  return { ...saved, steps: [crashed, tick, retry] };
}

describe('an in-progress record left by a crash, on the harness clock', () => {
  // The lanes may run in worker threads, where a faked `Date` does not reach, so the wall clock
  // runs: the refused cases leave it most of the budget (as the saved F2 case does), and the
  // passing one advances past the budget, which the wall clock's own time only adds to.
  it('refuses the retry as in progress with no clock advance', async () => {
    const r = await runCase(saved);
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({ kind: 'outcome', step: 1, actual: { kind: 'refused' } });
  });

  it('still refuses it when the clock has moved a fifth of the call budget', async () => {
    const r = await runCase(withAdvance(CALL_BUDGET_MS / 5));
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 2,
      expected: { kind: 'ok', replayed: false },
      actual: { kind: 'refused', reason: 'conflict' },
    });
  });

  it('lets the retry run the write once the clock has passed the in-progress expiry', async () => {
    const r = await runCase(withAdvance(CALL_BUDGET_MS + 1));
    expect(r.failures).toEqual([]);
    expect(r.verdict).toBe('passed');
  });
});
