/**
 * The run journal on one thread: replies come back exactly as written, the values JSON alone
 * would change included, and a reply that does not fit is refused with nothing written; in a
 * real run, a lost request among plain steps is stamped where it stood between its neighbours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runnerFor } from '../../../../testing/concurrent-runners.ts';
import type { JudgedRunner } from '../../../api/judged-runner.ts';
import type { WorkerReply } from './protocol.ts';
import { createJournal, JOURNAL_BYTES, readReplies, writeReply } from './run-journal.ts';

describe('run journal', () => {
  it('gives back every reply as written, NaN, -0, infinities and undefined included', () => {
    const journal = createJournal();
    const odd = { a: Number.NaN, b: -0, c: Number.POSITIVE_INFINITY, d: undefined, e: [undefined] };
    const replies: WorkerReply[] = [
      {
        type: 'called',
        observed: { kind: 'ok', replayed: false, result: odd as never },
        invokedAt: 1.5,
        completedAt: 2.25,
        output: 'printed\n',
      },
      { type: 'stamped', at: 3 },
      { type: 'failed', error: { code: 'E_WORKER', message: 'line one\nline two' } },
    ];
    for (const r of replies) expect(writeReply(journal, r)).toBe(true);
    const back = readReplies(journal);
    expect(back).toEqual(replies);
    const result = (back[0] as { observed: { result: Record<string, unknown> } }).observed.result;
    expect(Object.is(result.b, -0)).toBe(true);
    expect('d' in result).toBe(true);
  });

  it('refuses a reply that does not fit and keeps the ones before', () => {
    const journal = createJournal();
    expect(writeReply(journal, { type: 'stamped', at: 1 })).toBe(true);
    const big: WorkerReply = { type: 'released', output: 'x'.repeat(JOURNAL_BYTES) };
    expect(writeReply(journal, big)).toBe(false);
    expect(readReplies(journal)).toEqual([{ type: 'stamped', at: 1 }]);
  });
});

describe('a lost request among plain steps', () => {
  let runner: JudgedRunner;
  beforeAll(async () => {
    runner = await runnerFor('reference', { workers: 2 });
  });
  afterAll(() => runner.close());

  it('is stamped between the step before it and the step after', async () => {
    const lost = call('r1', 1, 30, { delivery: 'lostRequest' });
    const run = await runner.execute([call('r0', 1, 30), lost, call('r2', 1, 45)]);
    expect(run.verdict).toEqual({ verdict: 'ok' });
    const history = run.detail?.mode === 'concurrent' ? run.detail.history : [];
    const [before, stamped, after] = history;
    expect(stamped?.event).toEqual(lost);
    expect(stamped?.invokedAt).toBeGreaterThanOrEqual(before?.completedAt ?? Number.NaN);
    expect(stamped?.invokedAt).toBeLessThanOrEqual(after?.invokedAt ?? Number.NaN);
  });
});
