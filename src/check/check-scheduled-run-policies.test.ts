/**
 * The scheduled-run checker under declared policies, in pass/fail pairs: a crash read as having
 * left its claim only under a declared `claimExpiry`, and only until it expires; a faulted call's
 * error stored and replayed only under `storesErrors`; the declared in-flight conflict accepted
 * for a duplicate in the same group, and only there; a key reuse beside a running call with
 * another payload accepted only where claims are declared visible.
 */
import { describe, expect, it } from 'vitest';
import { call, check, fresh, modelAfter, rec, seen } from '../../testing/scheduled-run-records.ts';
import type { Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import type { PolicyDeclaration } from '../model/policy.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { LaneEnd, LaneRecord } from '../types/scheduled-trace.ts';
import { checkScheduledRun } from './check-scheduled-run.ts';

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
  const under = (claimExpiry: 'never' | number, advance?: number, answer: Observed = inProgress) =>
    checkScheduledRun({
      spec: setIntervalSpec,
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
        spec: setIntervalSpec,
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
      spec: setIntervalSpec,
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
      spec: setIntervalSpec,
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
      spec: setIntervalSpec,
      fixture: policy,
      steps,
      lanes: later,
      snapshot: modelAfter(call('k', 30)),
    });
    expect(v.verdict.verdict).toBe('failed');
  });
});

describe('a key reuse meeting a running claim (visible claims declared)', () => {
  // Automation 1 is already at v2 (step 0), so bob's r1 (expecting v1) is refused and stores
  // nothing; his reuse of r1 with another payload ran beside it and was told keyReuse.
  const moved = call('a', 5);
  const owner = call('r1', 30, 1, 1);
  const reuse = call('r1', 45, 1, 1);
  const conflict: Observed = { kind: 'refused', reason: 'conflict' };
  const keyReuse: Observed = { kind: 'keyReuse' };
  const raced = (
    answer: Observed,
    policy?: PolicyDeclaration,
    other = reuse,
    snapshot = modelAfter(moved),
  ) =>
    checkScheduledRun({
      spec: setIntervalSpec,
      fixture: policy ? { ...DEFAULT_FIXTURE, policy } : DEFAULT_FIXTURE,
      steps: [moved, { kind: 'concurrent', events: [owner, other] }],
      lanes: [
        rec(0, 0, moved, seen(fresh(5)), 0),
        rec(1, 0, owner, seen(conflict), 1),
        rec(1, 1, other, seen(answer), 2),
      ],
      snapshot,
    });

  it('ok: keyReuse with no effect, under inFlightDuplicate: conflict or a claimExpiry', () => {
    expect(raced(keyReuse, { inFlightDuplicate: 'conflict' }).verdict).toEqual({ verdict: 'ok' });
    const claims: PolicyDeclaration = { claimExpiry: 'never', idempotencyFirst: true };
    expect(raced(keyReuse, claims).verdict).toEqual({ verdict: 'ok' });
  });
  it('failed: the same answer under the contract, where a running call shows no claim', () => {
    const v = raced(keyReuse);
    expect(v.verdict.verdict).toBe('failed');
    if (v.verdict.verdict !== 'failed') return;
    expect(v.verdict.failures).toContainEqual(
      expect.objectContaining({ kind: 'outcome', step: 1, lane: 1, actual: keyReuse }),
    );
  });
  it('failed: keyReuse to a duplicate with the same payload, or in a later step', () => {
    const declared: PolicyDeclaration = { inFlightDuplicate: 'conflict' };
    expect(raced(keyReuse, declared, call('r1', 30, 1, 1)).verdict.verdict).toBe('failed');
    const later = checkScheduledRun({
      spec: setIntervalSpec,
      fixture: { ...DEFAULT_FIXTURE, policy: declared },
      steps: [moved, owner, reuse],
      lanes: [
        rec(0, 0, moved, seen(fresh(5)), 0),
        rec(1, 0, owner, seen(conflict), 1),
        rec(2, 0, reuse, seen(keyReuse), 2),
      ],
      snapshot: modelAfter(moved),
    });
    expect(later.verdict.verdict).toBe('failed');
  });
  it('failed: another wrong answer there (unavailable, or a fresh write)', () => {
    const declared: PolicyDeclaration = { inFlightDuplicate: 'conflict' };
    expect(raced({ kind: 'refused', reason: 'unavailable' }, declared).verdict.verdict).toBe(
      'failed',
    );
    // The database shows the write the answer claims (automation 1 at 45 min, v3).
    const wrote = modelAfter(moved, call('r1', 45, 2, 1));
    expect(raced(fresh(45, 3), declared, reuse, wrote).verdict.verdict).toBe('failed');
  });
});
