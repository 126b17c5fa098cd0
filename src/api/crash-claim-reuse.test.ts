/**
 * A claim a crash left, met by the same key with another payload (`crash-after-claim-reuse.json`):
 * `@node-idempotency/core` answers the in-progress record 409 before it compares fingerprints, so
 * the reuse is refused as in progress. The contract allows that answer or `keyReuse` (which check
 * comes first is the library's), so the case holds; a handler giving any other answer there fails.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../types/results.ts';
import { loadCaseFile } from './load-case-file.ts';
import { runCase } from './run-case.ts';

const saved = loadCaseFile(
  fileURLToPath(new URL('./fixtures/crash-after-claim-reuse.json', import.meta.url)),
);
const UNAVAILABLE = fileURLToPath(new URL('./fixtures/claim-met-unavailable.ts', import.meta.url));

/** What the reuse (the last step) was told. */
const reuseAnswer = (r: CaseResult) => r.trace.observations.at(-1)?.observed;

describe('a claim left by a crash, then the key reused with another payload', () => {
  it('holds against node-idempotency: refused as in progress, the crash read as leaving its claim', async () => {
    const r = await runCase(saved);
    expect(r.failures).toEqual([]);
    expect(reuseAnswer(r)).toEqual({ kind: 'refused', reason: 'conflict' });
  });

  it('fails for a handler that answers the reuse unavailable, naming both answers allowed', async () => {
    const r = await runCase(saved, { handler: UNAVAILABLE });
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 1,
      expected: { kind: 'keyReuse' },
      alsoAllowed: { kind: 'refused', reason: 'conflict' },
      actual: { kind: 'refused', reason: 'unavailable' },
    });
  });
});
