/**
 * The checker against hand-written histories in pass/fail pairs, plus its limits, options and
 * input errors. Every accepted history's witness is confirmed by `witnessProblem`, an oracle
 * that shares no code with the search.
 */
import { describe, expect, it } from 'vitest';
import {
  call,
  conflict,
  fresh,
  type Interval,
  keyReuse,
  replayed,
  request,
  unavailable,
  world,
} from '../../../testing/linearizability/fixture-builders.ts';
import { FIXTURE_PAIRS } from '../../../testing/linearizability/fixture-pairs.ts';
import type { History } from '../../model/history.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { type Observed, outcome } from '../../model/outcome.ts';
import type { PolicyDeclaration } from '../../model/policy.ts';
import { initialState } from '../../model/state.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { checkHistory } from './check-history.ts';
import { syntheticHistory } from './synthetic-history.ts';
import { witnessProblem } from './witness.ts';

const initial = initialState(DEFAULT_FIXTURE, setIntervalSpec);

// Horizon 1 keeps one state: every fixture that backtracks at all is searched again without one.
describe.each([
  { partition: true },
  { partition: false },
  { partition: true, horizonFrames: 1 },
  { partition: false, horizonFrames: 2 },
])('checkHistory pass/fail pairs (%o)', (options) => {
  for (const pair of FIXTURE_PAIRS) {
    for (const ok of pair.ok) {
      it(ok.name, () => {
        const result = checkHistory(initial, ok.history, options);
        expect(result.verdict).toBe('ok');
        if (result.verdict === 'ok')
          expect(witnessProblem(initial, ok.history, result.order)).toBeUndefined();
      });
    }
    it(pair.bad.name, () => {
      const result = checkHistory(initial, pair.bad.history, options);
      expect(result.verdict).toBe('illegal');
      if (result.verdict !== 'illegal') return;
      expect(result.stuck).toContain(pair.bad.stuck);
      expect(result.longestPrefix).not.toContain(pair.bad.stuck);
      expect(witnessProblem(initial, pair.bad.history, result.longestPrefix)).toMatch(
        /must take effect/,
      );
    });
  }
});

describe('checkHistory results', () => {
  it('reports the final state after the witness, and drops an unneeded lost call', () => {
    const history: History = [
      call(0, 0, [0], request('r1', 1, 1, 30)),
      call(1, 1, [5, 6], request('r2', 2, 1, 60), fresh(2, 60, 2)),
    ];
    const result = checkHistory(initial, history);
    expect(result).toMatchObject({ verdict: 'ok', order: [1] });
    if (result.verdict !== 'ok') return;
    expect(result.finalState.rows.get(1)?.version).toBe(1);
    expect(result.finalState.rows.get(2)).toMatchObject({ intervalMinutes: 60, version: 2 });
  });

  it('names only the failing part of a history with independent parts', () => {
    const bad = FIXTURE_PAIRS[0]?.bad.history ?? [];
    const elsewhere = call(7, 2, [0, 100], request('z', 20, 1, 90), fresh(20, 90, 2));
    const result = checkHistory(initial, [...bad, elsewhere]);
    expect(result).toMatchObject({ verdict: 'illegal', partition: [0, 1] });
  });

  it('with acceptFinal, lets a lost call take effect that nothing observed', () => {
    const history: History = [call(0, 0, [0], request('r1', 1, 1, 30))];
    expect(checkHistory(initial, history)).toMatchObject({ verdict: 'ok', order: [] });
    const written = checkHistory(initial, history, {
      acceptFinal: (s) => s.rows.get(1)?.version === 2,
    });
    expect(written).toMatchObject({ verdict: 'ok', order: [0] });
    const impossible = checkHistory(initial, history, {
      acceptFinal: (s) => s.rows.get(1)?.version === 3,
    });
    expect(impossible.verdict).toBe('illegal');
  });

  it('accepts an empty history', () => {
    expect(checkHistory(initial, [])).toEqual({ verdict: 'ok', order: [], finalState: initial });
  });
});

describe('in-flight duplicates (policy inFlightDuplicate: conflict)', () => {
  const stripe = initialState(
    { ...DEFAULT_FIXTURE, policy: { inFlightDuplicate: 'conflict' } },
    setIntervalSpec,
  );
  const r1 = request('r1', 1, 1, 30);
  const overlapping: History = [
    call(0, 0, [0, 10], r1, fresh(1, 30, 2)),
    call(1, 0, [1, 11], r1, conflict),
  ];

  it('ok: an overlapping duplicate refused as in flight', () => {
    const result = checkHistory(stripe, overlapping);
    expect(result.verdict).toBe('ok');
    if (result.verdict === 'ok')
      expect(witnessProblem(stripe, overlapping, result.order)).toBeUndefined();
  });

  it('bad: the same answer to a duplicate that came after the first completed', () => {
    const sequential: History = [
      call(0, 0, [0, 10], r1, fresh(1, 30, 2)),
      call(1, 0, [11, 12], r1, conflict),
    ];
    expect(checkHistory(stripe, sequential)).toMatchObject({ verdict: 'illegal', stuck: [1] });
  });

  it('bad: the same overlapping answer under the contract, which replays', () => {
    expect(checkHistory(initial, overlapping)).toMatchObject({ verdict: 'illegal', stuck: [1] });
  });

  it('ok: under storesRefusals, where the in-flight answer stores no refusal', () => {
    const storing = initialState(
      {
        ...DEFAULT_FIXTURE,
        policy: { inFlightDuplicate: 'conflict', storesRefusals: true },
      },
      setIntervalSpec,
    );
    // Read as the model's conflict, entry 0 would store a refusal under r1 and entry 1 would then
    // get keyReuse; only the in-flight reading, which stores nothing, explains both.
    const history: History = [
      call(0, 0, [0, 11], request('r1', 1, 5, 30), conflict),
      call(1, 0, [1, 10], r1, fresh(1, 30, 2)),
    ];
    expect(checkHistory(storing, history).verdict).toBe('ok');
    const noInFlight = initialState(
      { ...DEFAULT_FIXTURE, policy: { storesRefusals: true } },
      setIntervalSpec,
    );
    expect(checkHistory(noInFlight, history)).toMatchObject({ verdict: 'illegal' });
  });
});

describe('a key reuse meeting a running claim (visible claims declared)', () => {
  // Automation 1 is already at v2, so bob's r1 (expecting v1) is refused and stores nothing;
  // his reuse of r1 with another payload ran beside it, saw its claim, and was told keyReuse.
  const moved = call(0, 0, [0, 1], request('a', 1, 1, 5), fresh(1, 5, 2));
  const owner = call(1, 1, [2, 10], request('r1', 1, 1, 30), conflict);
  const reuse = (observed: Observed, at: Interval = [3, 11], minutes = 45) =>
    call(2, 1, at, request('r1', 1, 1, minutes), observed);
  const race = (observed: Observed = keyReuse): History => [moved, owner, reuse(observed)];
  const under = (policy: PolicyDeclaration) =>
    initialState({ ...DEFAULT_FIXTURE, policy }, setIntervalSpec);
  const conflicts = under({ inFlightDuplicate: 'conflict' });

  it('ok: keyReuse with no effect, under inFlightDuplicate: conflict or a claimExpiry', () => {
    for (const declared of [conflicts, under({ claimExpiry: 'never', idempotencyFirst: true })]) {
      const result = checkHistory(declared, race());
      expect(result.verdict).toBe('ok');
      if (result.verdict === 'ok')
        expect(witnessProblem(declared, race(), result.order)).toBeUndefined();
    }
  });

  it('bad: the same answer under the contract, where a running call shows no claim', () => {
    expect(checkHistory(initial, race())).toMatchObject({ verdict: 'illegal', stuck: [2] });
  });

  it('bad: keyReuse after the owner completed, or to a duplicate with the same payload', () => {
    const after = [moved, owner, reuse(keyReuse, [11, 12])];
    expect(checkHistory(conflicts, after)).toMatchObject({ verdict: 'illegal', stuck: [2] });
    const same = [moved, owner, reuse(keyReuse, [3, 11], 30)];
    expect(checkHistory(conflicts, same)).toMatchObject({ verdict: 'illegal', stuck: [2] });
  });

  it('bad: another wrong answer there (unavailable, or a fresh write)', () => {
    expect(checkHistory(conflicts, race(unavailable))).toMatchObject({ verdict: 'illegal' });
    expect(checkHistory(conflicts, race(fresh(1, 45, 3)))).toMatchObject({ verdict: 'illegal' });
  });
});

describe('limits', () => {
  const { history } = syntheticHistory({ seed: 7, entries: 3000 });

  it('returns unknown when the time limit passes', () => {
    let now = 0;
    const clock = () => (now += 1_000);
    const result = checkHistory(initial, history, { timeLimitMs: 10, clock });
    expect(result).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringMatching(/timeLimitMs/),
    });
  });

  it('returns unknown when the step budget runs out', () => {
    const result = checkHistory(initial, history, { stepsMax: 10 });
    expect(result).toMatchObject({ verdict: 'unknown', reason: expect.stringMatching(/stepsMax/) });
  });
});

describe('input errors', () => {
  const r1 = request('r1', 1, 1, 30);

  it('rejects duplicate ids', () => {
    expect(() =>
      checkHistory(initial, [
        call(0, 0, [0, 1], r1, fresh(1, 30, 2)),
        call(0, 0, [2, 3], r1, replayed(1, 30, 2)),
      ]),
    ).toThrow(/unique/);
  });

  it('rejects an entry that completes before it is invoked', () => {
    expect(() => checkHistory(initial, [call(0, 0, [5, 1], r1, fresh(1, 30, 2))])).toThrow(
      /no earlier/,
    );
  });

  it('rejects a bad option', () => {
    expect(() => checkHistory(initial, [], { timeLimitMs: -1 })).toThrow(/"timeLimitMs" option/);
  });

  it('does not mistake an unknown outcome for a world event', () => {
    const history: History = [
      world(0, [0, 1], { kind: 'storeFail' }),
      call(1, 0, [2, 3], r1, outcome.error('disk full')),
    ];
    expect(checkHistory(initial, history).verdict).toBe('ok');
  });
});

describe('checkHistory with a declared receipt expiry', () => {
  const expiring = initialState(
    { ...DEFAULT_FIXTURE, policy: { receiptExpiry: 1000 } },
    setIntervalSpec,
  );
  const write = call(0, 0, [0, 1], request('r1', 1, 1, 30), fresh(1, 30, 2));
  const tick = (at: [number, number]) => world(1, at, { kind: 'clockAdvance', ms: 1500 });
  const retry = (at: [number, number], observed: Observed) =>
    call(2, 0, at, request('r1', 1, 1, 30), observed);

  it.each([true, false])(
    'orders a clock advance against the calls around it (partition: %s)',
    (partition) => {
      // After the advance the receipt is gone: the retry re-runs and the version check refuses it.
      const after: History = [write, tick([2, 3]), retry([4, 5], conflict)];
      expect(checkHistory(expiring, after, { partition }).verdict).toBe('ok');
      // A retry overlapping the advance may take effect before it, and replay.
      const overlapping: History = [write, tick([2, 5]), retry([3, 4], replayed(1, 30, 2))];
      expect(checkHistory(expiring, overlapping, { partition }).verdict).toBe('ok');
      // A replay after the advance is not what the declared expiry allows...
      const late: History = [write, tick([2, 3]), retry([4, 5], replayed(1, 30, 2))];
      expect(checkHistory(expiring, late, { partition }).verdict).toBe('illegal');
      // ...but it is the contract's answer, where receipts never expire.
      expect(checkHistory(initial, late, { partition }).verdict).toBe('ok');
      expect(checkHistory(initial, after, { partition }).verdict).toBe('illegal');
    },
  );
});
