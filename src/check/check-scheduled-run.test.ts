/**
 * The scheduled-run checker in pass/fail pairs: a group whose commit order explains everything,
 * and one no order explains; a revoke the derived order gets wrong but another order fits; a
 * crash before commit (nothing may change) and after it (the change must be there); a faulted
 * call answering `error` with and without a change left behind, and answering neither `error`
 * nor the model's outcome (a failure of its answer, and of the database only when no reading
 * fits); the declared in-flight conflict accepted for a duplicate in the same group, and only there;
 * a crash read as having left its claim only under a declared `claimExpiry`, and only until it
 * expires.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Event, Step } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import { initialState, toSnapshot } from '../model/state.ts';
import { run as runModel } from '../model/step.ts';
import { DEFAULT_FIXTURE, type Snapshot } from '../model/world.ts';
import type { LaneEnd, LaneRecord } from '../types/scheduled-trace.ts';
import { checkScheduledRun } from './check-scheduled-run.ts';

const call = (requestId: string, minutes: number, version = 1, client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: version, intervalMinutes: minutes },
});
const fresh = (minutes: number, version = 2): Observed => ({
  kind: 'ok',
  replayed: false,
  result: { id: 1, intervalMinutes: minutes, version },
});
const replayed = (minutes: number): Observed =>
  ({ ...(fresh(minutes) as object), replayed: true }) as Observed;
const seen = (observed: Observed, faulted = false): LaneEnd => ({
  kind: 'observed',
  observed,
  faulted,
});
const rec = (
  step: number,
  lane: number,
  event: Event,
  end: LaneEnd,
  effectAt: number,
): LaneRecord => ({
  step,
  lane,
  event,
  end,
  effectAt,
});
/** The database the model ends with after `events` in this order. */
const modelAfter = (...events: Event[]): Snapshot =>
  toSnapshot(runModel(initialState(DEFAULT_FIXTURE), events).state);
const check = (steps: Step[], lanes: LaneRecord[], snapshot: Snapshot) =>
  checkScheduledRun({ fixture: DEFAULT_FIXTURE, steps, lanes, snapshot });

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

  describe('a crash after the claim (policy claimExpiry)', () => {
    const inProgress: Observed = { kind: 'refused', reason: 'conflict' };
    const steps = (advance?: number): Step[] => [
      call('k', 30),
      ...(advance === undefined ? [] : [{ kind: 'clockAdvance', ms: advance } as Step]),
      call('k', 30),
    ];
    const lanes = (answer: Observed, advance?: number): LaneRecord[] => [
      rec(0, 0, call('k', 30), { kind: 'crashed', committed: true }, 0),
      ...(advance === undefined
        ? []
        : [rec(1, 0, { kind: 'clockAdvance', ms: advance }, { kind: 'applied' }, 1)]),
      rec(advance === undefined ? 1 : 2, 0, call('k', 30), seen(answer), 2),
    ];
    const under = (
      claimExpiry: 'never' | number,
      advance?: number,
      answer: Observed = inProgress,
    ) =>
      checkScheduledRun({
        fixture: { ...DEFAULT_FIXTURE, policy: { claimExpiry, idempotencyFirst: true } },
        steps: steps(advance),
        lanes: lanes(answer, advance),
        snapshot: answer === inProgress ? modelAfter() : modelAfter(call('k', 30)),
      });

    it('failed without the declaration: the retry refused as in progress', () => {
      const v = check(steps(), lanes(inProgress), modelAfter());
      expect(v.verdict.verdict).toBe('failed');
    });
    it('ok under claimExpiry never: the crash read as having left its claim', () => {
      const v = under('never');
      expect(v.verdict).toEqual({ verdict: 'ok' });
      expect(v.leftClaim).toEqual([{ step: 0, lane: 0 }]);
    });
    it('ok under claimExpiry N: still in progress within N, and a fresh retry is allowed too', () => {
      expect(under(5_000, 2_000).verdict).toEqual({ verdict: 'ok' });
      expect(under(5_000, 2_000, fresh(30)).verdict).toEqual({ verdict: 'ok' });
    });
    it('failed under claimExpiry N: the claim still refuses once more than N has passed', () => {
      expect(under(5_000, 6_000).verdict.verdict).toBe('failed');
      expect(under(5_000, 6_000, fresh(30)).verdict).toEqual({ verdict: 'ok' });
    });

    describe('met by the same key with another payload', () => {
      const reuse = call('k', 45);
      const reused = (answer: Observed, snapshot = modelAfter()) =>
        checkScheduledRun({
          fixture: { ...DEFAULT_FIXTURE, policy: { claimExpiry: 'never', idempotencyFirst: true } },
          steps: [call('k', 30), reuse],
          lanes: [
            rec(0, 0, call('k', 30), { kind: 'crashed', committed: true }, 0),
            rec(1, 0, reuse, seen(answer), 1),
          ],
          snapshot,
        });

      it('ok either way: keyReuse (payload first) or in progress (the claim first)', () => {
        for (const answer of [{ kind: 'keyReuse' } as Observed, inProgress]) {
          const v = reused(answer);
          expect(v.verdict).toEqual({ verdict: 'ok' });
          expect(v.leftClaim).toEqual([{ step: 0, lane: 0 }]);
          expect(v.trace.observations[0]?.observed).toEqual(answer);
        }
      });
      it('failed for an answer it allows neither way, naming both it allows', () => {
        const unavailable: Observed = { kind: 'refused', reason: 'unavailable' };
        const v = reused(unavailable);
        expect(v.verdict.verdict).toBe('failed');
        if (v.verdict.verdict !== 'failed') return;
        expect(v.verdict.failures).toContainEqual(
          expect.objectContaining({
            kind: 'outcome',
            step: 1,
            expected: { kind: 'keyReuse' },
            alsoAllowed: inProgress,
            actual: unavailable,
          }),
        );
        expect(reused({ kind: 'invalid', field: 'requestId' }).verdict.verdict).toBe('failed');
      });
      it('ok for a fresh write: the crash then read as having changed nothing (no claim)', () => {
        const v = reused(fresh(45), modelAfter(reuse));
        expect(v.verdict).toEqual({ verdict: 'ok' });
        expect(v.noEffect).toEqual([{ step: 0, lane: 0 }]);
      });
    });
  });

  describe('a statement fault whose error the library stores (policy storesErrors)', () => {
    const error: Observed = { kind: 'error', message: 'injected' };
    const retry = call('k', 30);
    const reuse = call('k', 45);
    /** The faulted call, then `answers` to its retry and a reuse of its key. */
    const judged = (
      policy: { storesErrors?: boolean },
      recorded: boolean,
      answers: [Observed, Observed],
      snapshot = modelAfter(),
    ) => {
      const faulted: LaneEnd = recorded
        ? { kind: 'observed', observed: error, faulted: true, durableAfterFault: true }
        : seen(error, true);
      return checkScheduledRun({
        fixture: { ...DEFAULT_FIXTURE, policy: { idempotencyFirst: true, ...policy } },
        steps: [call('k', 30), retry, reuse],
        lanes: [
          rec(0, 0, call('k', 30), faulted, 0),
          rec(1, 0, retry, seen(answers[0]), 1),
          rec(2, 0, reuse, seen(answers[1]), 2),
        ],
        snapshot,
      });
    };
    const replays: [Observed, Observed] = [error, { kind: 'keyReuse' }];

    it('ok declared: recorded after the fault, the error replays and binds the payload', () => {
      expect(judged({ storesErrors: true }, true, replays).verdict).toEqual({ verdict: 'ok' });
    });
    it('failed undeclared: the contract runs the retry again', () => {
      const v = judged({}, true, replays);
      expect(v.verdict.verdict === 'failed' && v.verdict.failures[0]).toMatchObject({
        kind: 'outcome',
        step: 1,
        expected: fresh(30),
        actual: error,
      });
    });
    it('failed declared, when the recorded error is not replayed (the retry runs again)', () => {
      const v = judged({ storesErrors: true }, true, [fresh(30), fresh(30)], modelAfter(retry));
      expect(v.verdict.verdict === 'failed' && v.verdict.failures[0]).toMatchObject({
        kind: 'outcome',
        step: 1,
        expected: { kind: 'error' },
        actual: fresh(30),
      });
    });
    it('ok declared, when nothing was recorded after the fault (its own store write failed)', () => {
      const reran: [Observed, Observed] = [fresh(30), { kind: 'keyReuse' }];
      expect(judged({ storesErrors: true }, false, reran, modelAfter(retry)).verdict).toEqual({
        verdict: 'ok',
      });
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

describe('a declared in-flight conflict (inFlightDuplicate: conflict)', () => {
  const policy = { ...DEFAULT_FIXTURE, policy: { inFlightDuplicate: 'conflict' as const } };
  const conflict: Observed = { kind: 'refused', reason: 'conflict' };
  const dup: Step = { kind: 'concurrent', events: [call('k', 30), call('k', 30)] };
  const lanes = [
    rec(0, 0, call('k', 30), seen(fresh(30)), 4),
    rec(0, 1, call('k', 30), seen(conflict), 9),
  ];

  it('ok: the duplicate racing the first call under its key is told conflict', () => {
    const v = checkScheduledRun({
      fixture: policy,
      steps: [dup],
      lanes,
      snapshot: modelAfter(call('k', 30)),
    });
    expect(v.verdict).toEqual({ verdict: 'ok' });
  });
  it('failed: without the declaration, that duplicate should have replayed', () => {
    expect(check([dup], lanes, modelAfter(call('k', 30))).verdict.verdict).toBe('failed');
  });
  it('failed: a retry in a later step did not race anything', () => {
    const steps: Step[] = [call('k', 30), call('k', 30)];
    const later = [
      rec(0, 0, call('k', 30), seen(fresh(30)), 0),
      rec(1, 0, call('k', 30), seen(conflict), 1),
    ];
    const v = checkScheduledRun({
      fixture: policy,
      steps,
      lanes: later,
      snapshot: modelAfter(call('k', 30)),
    });
    expect(v.verdict.verdict).toBe('failed');
  });
});
