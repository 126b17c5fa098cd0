/**
 * Scheduled reports that never blame a call wrongly, on real handlers under fixed schedules,
 * in pass/fail pairs:
 * - `race-winner-not-blamed.json`: receipt-after-commit commits its row, then the loser runs whole
 *   before the winner inserts its receipt and is refused. The scheduler's guess (the loser's last
 *   statement came first) blamed the winner's `ok(fresh)` as a replay missing its flag; only the
 *   loser is to blame. The reference, under the same schedule, passes.
 * - `crash-after-claim.json`: powertools crashes after its claim commits, before its write; the
 *   retry is refused as in progress (F2). The report read the crash as having written the row,
 *   expected the retry to replay and blamed invariants on a fresh ok no client saw; the crash
 *   changed nothing, so the retry alone is blamed, expected fresh. The reference passes.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatCaseResult } from '../report/format-case-result.ts';
import { loadCaseFile } from './load-case-file.ts';
import { runCase } from './run-case.ts';

const UNDECLARED_CLAIMS = fileURLToPath(
  new URL('../handlers/libraries/fixtures/undeclared/powertools-claims.ts', import.meta.url),
);
const fixture = (name: string) =>
  loadCaseFile(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)));
const blamed = (failures: Awaited<ReturnType<typeof runCase>>['failures']) =>
  failures.flatMap((f) => (f.kind === 'outcome' ? [`step ${f.step + 1} lane ${f.lane + 1}`] : []));

describe('the winner of a race is not blamed beside the loser', () => {
  const c = fixture('race-winner-not-blamed.json');

  it('passes against the reference under the same schedule', async () => {
    expect((await runCase(c, { handler: 'reference' })).verdict).toBe('passed');
  });
  it('fails against receipt-after-commit, blaming the loser alone', async () => {
    const r = await runCase(c);
    expect(r.verdict).toBe('failed');
    expect(blamed(r.failures)).toEqual(['step 1 lane 2']);
    const text = formatCaseResult(c, r);
    expect(text).not.toContain('replayed flag');
    expect(text).toContain(
      'lane 1  alice@team-a sends r0: set automation 1 to 5 min expecting v1\n              → ok(fresh, id 1 interval 5 v2)',
    );
  });
});

describe('a crash after a claim is read as having changed nothing', () => {
  const c = fixture('crash-after-claim.json');

  it('passes against the reference under the same schedule', async () => {
    expect((await runCase(c, { handler: 'reference' })).verdict).toBe('passed');
  });
  // powertools declares its in-progress expiry (claimExpiry), under which this retry is due its
  // refusal; the copy without that declaration holds it to the contract, where a crash leaves nothing.
  it('fails against powertools without its claim declaration on the retry alone, expected fresh', async () => {
    const r = await runCase(c, { handler: UNDECLARED_CLAIMS });
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 1,
      expected: { kind: 'ok', replayed: false },
      actual: { kind: 'refused', reason: 'conflict' },
    });
    expect(r.failures.filter((f) => f.kind === 'invariant')).toEqual([]);
    const text = formatCaseResult(c, r);
    expect(text).toContain('↯ crash injected before `BEGIN IMMEDIATE`');
    expect(text).toContain(
      '→ no answer: it crashed after a commit and is read here as having changed nothing',
    );
  });
});
