/**
 * Finding signatures, in pass/fail pairs: what must group together (the same bug with other
 * values, a group that ran serially beside plain steps, a key reuse due a conflict or an
 * unavailable) and what must not (other rules, other injections, a race that really interleaved).
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import type { Mode } from '../types/mode.ts';
import type { Failure } from '../types/verdict.ts';
import { findingSignature, signatureId } from './finding-signature.ts';

const call = (requestId: string, interval = 5, client = 0, automationId = 1): CallEvent => ({
  kind: 'call',
  client,
  request: { requestId, automationId, expectedVersion: 1, intervalMinutes: interval },
  delivery: 'delivered',
});
const FRESH: Observed = {
  kind: 'ok',
  replayed: false,
  result: { id: 1, intervalMinutes: 5, version: 2 },
};
const REPLAYED: Observed = { ...FRESH, replayed: true } as Observed;
const refused = (reason: string): Observed => ({ kind: 'refused', reason });

function outcome(
  step: number,
  lane: number,
  event: CallEvent,
  expected: Observed,
  actual: Observed,
): Failure {
  return { kind: 'outcome', step, lane, event, expected, actual };
}

function signature(
  steps: Step[],
  failures: Failure[],
  mode: Mode = 'sequential',
  detail?: unknown,
  observations: { step: number; lane: number; observed: Observed }[] = [],
) {
  return findingSignature({
    steps,
    failures,
    mode,
    detail,
    observations: observations.map((o) => ({ ...o, event: call('x') })),
  });
}

describe('findingSignature', () => {
  it('leaves values, ids and principals out: the same bug with other values is one signature', () => {
    const a = signature([call('r0'), call('r0')], [outcome(1, 0, call('r0'), REPLAYED, FRESH)]);
    const b = signature(
      [call('edit-42', 30, 1, 2), call('edit-42', 30, 1, 2)],
      [
        outcome(
          1,
          0,
          call('edit-42', 30, 1, 2),
          { ...REPLAYED, result: { id: 2 } } as Observed,
          FRESH,
        ),
      ],
    );
    expect(a).toEqual({ rule: 'rule 7', shape: 'retry ✗ replayed→fresh' });
    expect(b).toEqual(a);
    expect(signatureId(b)).toBe(signatureId(a));
  });

  it('tells a retry from a key reuse by the requests, whatever the move meant', () => {
    const reused = { ...call('r0', 6), intent: 'retry' as const };
    const s = signature([call('r0'), reused], [outcome(1, 0, reused, { kind: 'keyReuse' }, FRESH)]);
    expect(s.shape).toBe('reuse ✗ keyReuse→fresh');
    expect(signatureId(s)).not.toBe(
      signatureId(
        signature([call('r0'), call('r0')], [outcome(1, 0, call('r0'), REPLAYED, FRESH)]),
      ),
    );
  });

  it('a key reuse told where none exists is rule 7 whether a conflict or an unavailable was due; other rules stay apart', () => {
    const group = (reason: string): [Step[], Failure[]] => [
      [{ kind: 'concurrent', events: [call('r0'), call('r0', 6)] }],
      [outcome(0, 1, call('r0', 6), refused(reason), { kind: 'keyReuse' })],
    ];
    const conflict = signature(...group('conflict'), 'concurrent');
    expect(conflict).toEqual({ rule: 'rule 7', shape: 'group(call | reuse ✗ refused→keyReuse)' });
    expect(signature(...group('unavailable'), 'concurrent')).toEqual(conflict);
    // A refusal for the wrong reason keeps the rule that was due: 6 and 1 are two findings.
    const wrongReason = (due: string) =>
      signature([call('r0')], [outcome(0, 0, call('r0'), refused(due), refused('conflict'))]);
    expect(wrongReason('unavailable').rule).toBe('rule 6');
    expect(wrongReason('forbidden').rule).toBe('rule 1');
  });

  it('a group that ran serially reads as plain steps; one that interleaved stays a race', () => {
    const steps: Step[] = [{ kind: 'concurrent', events: [call('r0'), call('r0')] }];
    const failures = [outcome(0, 1, call('r0'), REPLAYED, refused('conflict'))];
    const plain = signature(
      [call('r0'), call('r0')],
      [outcome(1, 0, call('r0'), REPLAYED, refused('conflict'))],
    );
    expect(signature(steps, failures, 'sequential')).toEqual(plain);
    const grants = (lanes: number[]) => ({
      entries: lanes.map((lane) => ({ step: 0, lane, point: 'statement', grant: 'run' })),
    });
    expect(signature(steps, failures, 'scheduled', grants([0, 0, 0, 1, 1]))).toEqual(plain);
    const raced = signature(steps, failures, 'scheduled', grants([0, 0, 1, 0, 1]));
    expect(raced.shape).toBe('group(call | retry ✗ replayed→refused(conflict))');
    expect(signature(steps, failures, 'concurrent')).toEqual(raced);
  });

  it('a database failure keeps the calls that may have changed something, with what was injected', () => {
    const fault = {
      entries: [{ step: 1, lane: 0, point: 'statement', grant: 'fault', sql: 'UPDATE x' }],
    };
    const crash = {
      entries: [{ step: 1, lane: 0, point: 'statement', grant: 'crash', sql: 'UPDATE x' }],
    };
    const snapshot: Failure = { kind: 'snapshot', differences: [] };
    const answers = [
      { step: 0, lane: 0, observed: refused('conflict') },
      { step: 1, lane: 0, observed: { kind: 'error', message: 'x' } as Observed },
    ];
    const faulted = signature([call('r9'), call('r1')], [snapshot], 'scheduled', fault, answers);
    expect(faulted).toEqual({ rule: 'the final database', shape: 'call fault →error' });
    // Without the refused call first, the same.
    expect(
      signature(
        [call('r1')],
        [snapshot],
        'scheduled',
        { entries: [{ ...fault.entries[0], step: 0 }] },
        [{ ...answers[1], step: 0 } as never],
      ),
    ).toEqual(faulted);
    // A crash is another finding (its client heard no answer, so none is shown).
    expect(signature([call('r9'), call('r1')], [snapshot], 'scheduled', crash, answers).shape).toBe(
      'call crash(statement)',
    );
  });

  it('keeps world events: a replay after a move is not a replay after a revocation', () => {
    const replayAfter = (world: Step) =>
      signature(
        [call('r0'), world, call('r0')],
        [outcome(2, 0, call('r0'), refused('unavailable'), REPLAYED)],
      );
    expect(replayAfter({ kind: 'move', resourceId: 1, workspace: 'team-b' }).shape).toBe(
      'move ; retry ✗ refused→replayed',
    );
    expect(replayAfter({ kind: 'revoke', client: 0 }).shape).toBe(
      'revoke ; retry ✗ refused→replayed',
    );
  });
});

describe('findingSignature: one finding per bug of a real library (express-idempotency A, B, D)', () => {
  const crashAt = (step: number) => ({
    entries: [{ step, lane: 0, point: 'statement', grant: 'crash', sql: 'COMMIT' }],
  });
  const interleaved = {
    entries: [0, 1, 0, 1].map((lane) => ({ step: 0, lane, point: 'statement', grant: 'run' })),
  };

  it("D: every answer of a crash's claim is one lock, whatever was due and however the key was reused", () => {
    const lock = (retry: CallEvent, expected: Observed, actual: Observed) =>
      signature(
        [call('r0'), retry],
        [outcome(1, 0, retry, expected, actual)],
        'scheduled',
        crashAt(0),
      );
    const forms = [
      lock(call('r0'), FRESH, refused('conflict')),
      lock(call('r0'), refused('unavailable'), refused('conflict')),
      lock(call('r0'), REPLAYED, refused('conflict')),
      lock(call('r0', 6), FRESH, { kind: 'keyReuse' }),
      lock(call('r0', 6), refused('conflict'), { kind: 'keyReuse' }),
    ];
    expect(forms[0]).toEqual({
      rule: 'a crash changes nothing',
      shape: 'call crash ; call ✗ →in progress',
    });
    for (const f of forms) expect(f).toEqual(forms[0]);
  });

  it('is no lock without a crash on that key, or with an answer a claim does not give', () => {
    const steps = [call('r0'), call('r0')];
    const failure = [outcome(1, 0, call('r0'), FRESH, refused('conflict'))];
    expect(signature(steps, failure, 'scheduled').rule).toBe('rule 9–11');
    const otherKey = [call('r9'), call('r0')];
    expect(signature(otherKey, failure, 'scheduled', crashAt(0)).rule).toBe('rule 9–11');
    const replayed = [outcome(1, 0, call('r0'), FRESH, REPLAYED)];
    expect(signature(steps, replayed, 'scheduled', crashAt(0)).rule).toBe('rule 7');
    const fault = { entries: [{ ...crashAt(0).entries[0], grant: 'fault' }] };
    expect(signature(steps, failure, 'scheduled', fault).rule).toBe('rule 9–11');
  });

  it('A: the loser of two identical racing lanes is one finding whichever lane lost', () => {
    const error: Observed = { kind: 'error', message: 'UNIQUE constraint failed' };
    const race: Step[] = [{ kind: 'concurrent', events: [call('r0'), call('r0')] }];
    const lost = (lane: number) =>
      signature(race, [outcome(0, lane, call('r0'), REPLAYED, error)], 'scheduled', interleaved);
    expect(lost(0)).toEqual(lost(1));
    expect(lost(0).shape).toBe('group(call | retry ✗ replayed→error)');
  });

  it('a reuse racing a call: world events before a race that fails are left out; a race and a plain retry stay apart', () => {
    const race: Step = { kind: 'concurrent', events: [call('r0'), call('r0', 6)] };
    const failureAt = (step: number) =>
      outcome(step, 1, call('r0', 6), refused('conflict'), { kind: 'keyReuse' });
    const failure = failureAt(1);
    const bare = signature([race], [failureAt(0)], 'scheduled', interleaved);
    const afterDelete = signature(
      [{ kind: 'delete', resourceId: 1 }, race],
      [failure],
      'scheduled',
      { entries: interleaved.entries.map((e) => ({ ...e, step: 1 })) },
    );
    expect(afterDelete).toEqual(bare);
    expect(bare.shape).toBe('group(call | reuse ✗ refused→keyReuse)');
    expect(signature([call('r0'), call('r0', 6)], [failure], 'scheduled').shape).not.toBe(
      bare.shape,
    );
  });
});

describe('findingSignature: a database failure around a crash', () => {
  const crash = (step: number) => ({
    entries: [{ step, lane: 0, point: 'statement', grant: 'crash', sql: 'UPDATE x' }],
  });
  const snapshot: Failure = { kind: 'snapshot', differences: [] };

  it('keeps only the crashed call, without the answer its client never heard', () => {
    const alone = signature([call('r0')], [snapshot], 'scheduled', crash(0), [
      { step: 0, lane: 0, observed: FRESH },
    ]);
    const afterWrite = signature([call('r1'), call('r0')], [snapshot], 'scheduled', crash(1), [
      { step: 0, lane: 0, observed: FRESH },
      { step: 1, lane: 0, observed: FRESH },
    ]);
    expect(alone).toEqual({ rule: 'the final database', shape: 'call crash(statement)' });
    expect(afterWrite).toEqual(alone);
  });

  it('keeps the fresh writes when nothing was injected', () => {
    const s = signature([call('r1'), call('r0')], [snapshot], 'scheduled', { entries: [] }, [
      { step: 0, lane: 0, observed: FRESH },
      { step: 1, lane: 0, observed: FRESH },
    ]);
    expect(s.shape).toBe('call →fresh ; call →fresh');
  });
});
