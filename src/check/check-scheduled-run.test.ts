/**
 * The scheduled-run checker in pass/fail pairs: a group whose commit order explains everything,
 * and one no order explains; a revoke the derived order gets wrong but another order fits; a
 * crash before commit (nothing may change) and after it (the change must be there); a faulted
 * call answering `error` with and without a change left behind, and answering neither `error`
 * nor the model's outcome (a failure of its answer, and of the database only when no reading
 * fits). The declared policies' pairs are in check-scheduled-run-policies.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  call,
  check,
  fresh,
  modelAfter,
  rec,
  replayed,
  seen,
} from '../../testing/scheduled-run-records.ts';
import type { Event, Step } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';

describe('checkScheduledRun', () => {
  const dup: Step = { kind: 'concurrent', events: [call('k', 30), call('k', 30)] };

  it('ok: identical duplicates, the second to commit replays', () => {
    const lanes = [
      rec(0, 0, call('k', 30), seen(replayed(30)), 9),
      rec(0, 1, call('k', 30), seen(fresh(30)), 4),
    ];
    const v = check([dup], lanes, modelAfter(call('k', 30)));
    expect(v.verdict).toEqual({ verdict: 'ok' });
    expect(v.order).toEqual([
      { step: 0, lane: 1 },
      { step: 0, lane: 0 },
    ]);
  });

  it('failed: both duplicates fresh (check-then-act), whatever the order', () => {
    const lanes = [
      rec(0, 0, call('k', 30), seen(fresh(30)), 4),
      rec(0, 1, call('k', 30), seen(fresh(30)), 9),
    ];
    const v = check([dup], lanes, modelAfter(call('k', 30)));
    expect(v.verdict.verdict).toBe('failed');
    if (v.verdict.verdict !== 'failed') return;
    expect(v.verdict.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 0,
      lane: 1,
      actual: fresh(30),
    });
  });

  it('ok: a revoke the commit order puts first, when the call read its scope before it', () => {
    const revoke: Event = { kind: 'revoke', client: 0 };
    const step: Step = { kind: 'concurrent', events: [call('k', 30), revoke] };
    const lanes = [
      rec(0, 0, call('k', 30), seen(fresh(30)), 7),
      rec(0, 1, revoke, { kind: 'applied' }, 3),
    ];
    expect(check([step], lanes, modelAfter(call('k', 30))).verdict).toEqual({ verdict: 'ok' });
  });

  it('failed: a revoke no order explains (forbidden and yet written)', () => {
    const revoke: Event = { kind: 'revoke', client: 0 };
    const step: Step = { kind: 'concurrent', events: [call('k', 30), revoke] };
    const forbidden: Observed = { kind: 'refused', reason: 'forbidden' };
    const lanes = [
      rec(0, 0, call('k', 30), seen(forbidden), 7),
      rec(0, 1, revoke, { kind: 'applied' }, 3),
    ];
    expect(check([step], lanes, modelAfter(call('k', 30))).verdict.verdict).toBe('failed');
  });

  describe('a crash', () => {
    const steps: Step[] = [call('k', 30)];
    const crashed = (committed: boolean) => [
      rec(0, 0, call('k', 30), { kind: 'crashed', committed }, 0),
    ];

    it('ok: before commit, nothing changed', () => {
      expect(check(steps, crashed(false), modelAfter()).verdict).toEqual({ verdict: 'ok' });
    });
    it('failed: before commit, yet the row changed', () => {
      expect(check(steps, crashed(false), modelAfter(call('k', 30))).verdict.verdict).toBe(
        'failed',
      );
    });
    it('ok: after commit, the change and its receipt are there (and the invariants count it)', () => {
      expect(check(steps, crashed(true), modelAfter(call('k', 30))).verdict).toEqual({
        verdict: 'ok',
      });
    });
    it('ok: after a commit, the change is missing (a handler may die between two commits)', () => {
      expect(check(steps, crashed(true), modelAfter()).verdict).toEqual({ verdict: 'ok' });
    });
    it('failed: after a commit, the change is missing, yet a retry replays it', () => {
      const retry: Step[] = [call('k', 30), call('k', 30)];
      const lanes = [
        rec(0, 0, call('k', 30), { kind: 'crashed', committed: true }, 0),
        rec(1, 0, call('k', 30), seen(replayed(30)), 1),
      ];
      expect(check(retry, lanes, modelAfter()).verdict.verdict).toBe('failed');
    });
  });

  describe('a statement fault', () => {
    const steps: Step[] = [call('k', 30)];
    const error: Observed = { kind: 'error', message: 'injected' };

    it('ok: the faulted call answers error and changed nothing', () => {
      const lanes = [rec(0, 0, call('k', 30), seen(error, true), 0)];
      expect(check(steps, lanes, modelAfter()).verdict).toEqual({ verdict: 'ok' });
    });
    it('failed: it answers error but its row change stayed', () => {
      const lanes = [rec(0, 0, call('k', 30), seen(error, true), 0)];
      expect(check(steps, lanes, modelAfter(call('k', 30))).verdict.verdict).toBe('failed');
    });
    it('ok: it recovered and answered what the model says', () => {
      const lanes = [rec(0, 0, call('k', 30), seen(fresh(30), true), 0)];
      expect(check(steps, lanes, modelAfter(call('k', 30))).verdict).toEqual({ verdict: 'ok' });
    });
    it('failed: without a fault, error is not an answer the model allows', () => {
      const lanes = [rec(0, 0, call('k', 30), seen(error, false), 0)];
      expect(check(steps, lanes, modelAfter()).verdict.verdict).toBe('failed');
    });

    // A faulted call that answered neither error nor the model's outcome fails on its answer;
    // the database is not then held to the model's change, which the checker does not require.
    const unexpected: Observed = { kind: 'unexpected', message: 'SQLITE_CONSTRAINT_TRIGGER' };
    const later = call('j', 45);

    it('failed on the answer only: it let the fault through and changed nothing', () => {
      const lanes = [
        rec(0, 0, call('k', 30), seen(unexpected, true), 0),
        // Later calls are held to the reading where it changed nothing: v1 is still current.
        rec(1, 0, later, seen(fresh(45)), 1),
      ];
      const v = check([...steps, later], lanes, modelAfter(later));
      expect(v.verdict.verdict === 'failed' && v.verdict.failures).toEqual([
        expect.objectContaining({ kind: 'outcome', step: 0, faulted: true, actual: unexpected }),
      ]);
    });
    it('failed on the answer only: its retry, too, is judged as if it changed nothing', () => {
      // In the reading where the faulted call wrote, `j` conflicts and the retry replays.
      const stale = call('j', 45);
      const lanes = [
        rec(0, 0, call('k', 30), seen(unexpected, true), 0),
        rec(1, 0, stale, seen(fresh(45)), 1),
        rec(2, 0, call('k', 30), seen({ kind: 'refused', reason: 'conflict' }), 2),
      ];
      const v = check([...steps, stale, call('k', 30)], lanes, modelAfter(stale));
      expect(v.verdict.verdict === 'failed' && v.verdict.failures).toEqual([
        expect.objectContaining({ kind: 'outcome', step: 0, faulted: true }),
      ]);
    });
    it('failed on the answer and the database: it changed something no reading allows', () => {
      // The row moved to 30 min at v2 but no receipt was kept: neither the change nor none.
      const half = modelAfter(call('k', 30));
      const lanes = [rec(0, 0, call('k', 30), seen(unexpected, true), 0)];
      const v = check(steps, lanes, { ...half, receipts: [] });
      if (v.verdict.verdict !== 'failed') throw new Error('expected a failure');
      expect(v.verdict.failures).toContainEqual(
        expect.objectContaining({ kind: 'snapshot', faulted: [{ step: 0, lane: 0 }] }),
      );
    });
  });
});
