/**
 * powertools' in-progress expiry on the harness clock, declared as `claimExpiry`: a
 * call that crashes after its claim commits leaves an in-progress record, which refuses a retry
 * as in progress until the harness clock passes its in-progress expiry (`CALL_BUDGET_MS` after
 * the claim); only then does the retry run the write. Built on `crash-after-claim.json`, with a
 * clock advance between the crash and the retry. Declared, every variant passes, and the record
 * shows which answer the library gave; without the declaration the refused retry is F2's lock.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CALL_BUDGET_MS } from '../handlers/libraries/powertools.ts';
import type { Step } from '../model/events.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { CaseResult } from '../types/results.ts';
import { loadCaseFile } from './load-case-file.ts';
import { runCase } from './run-case.ts';

const saved = loadCaseFile(
  fileURLToPath(new URL('./fixtures/crash-after-claim.json', import.meta.url)),
);
const UNDECLARED = fileURLToPath(
  new URL('../handlers/libraries/fixtures/undeclared/powertools-claims.ts', import.meta.url),
);

/** The saved case with the clock moved on by `ms` between the crashed call and its retry. */
function withAdvance(ms: number): CaseFile {
  const [crashed, retry] = saved.steps as [Step, Step];
  const tick: Step = { kind: 'clockAdvance', ms };
  return { ...saved, steps: [crashed, tick, retry] };
}

/** What the retry (the last step) was told. */
const retryAnswer = (r: CaseResult) => r.trace.observations.at(-1)?.observed;

describe('an in-progress record left by a crash, on the harness clock', () => {
  it('refuses the retry as in progress with no clock advance: declared, it passes', async () => {
    const r = await runCase(saved);
    expect(r.failures).toEqual([]);
    expect(retryAnswer(r)).toEqual({ kind: 'refused', reason: 'conflict' });
  });

  it('still refuses it when the clock has moved a fifth of the call budget', async () => {
    const r = await runCase(withAdvance(CALL_BUDGET_MS / 5));
    expect(r.failures).toEqual([]);
    expect(retryAnswer(r)).toEqual({ kind: 'refused', reason: 'conflict' });
  });

  it('lets the retry run the write once the clock has passed the in-progress expiry', async () => {
    const r = await runCase(withAdvance(CALL_BUDGET_MS + 1));
    expect(r.failures).toEqual([]);
    expect(retryAnswer(r)).toMatchObject({ kind: 'ok', replayed: false });
  });

  it('fails without claimExpiry: the contract expects the retry to run fresh (F2 lock)', async () => {
    const r = await runCase(saved, { handler: UNDECLARED });
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 1,
      expected: { kind: 'ok', replayed: false },
      actual: { kind: 'refused', reason: 'conflict' },
    });
  });
});
