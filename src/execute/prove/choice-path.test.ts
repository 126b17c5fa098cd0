import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../types/scheduled-trace.ts';
import { chooseLane } from '../schedule/choose-lane.ts';
import { decide } from '../schedule/decide.ts';
import { choiceFor, preempts, scheduleOf } from './choice-path.ts';
import { prefixClassKeys } from './trace-class.ts';

const decision = (lanes: number[], last: number | undefined, lane: number): DecisionRecord => ({
  step: 0,
  candidates: lanes.map((l) => ({ lane: l, point: 'statement', write: true, blocked: false })),
  last,
  lane,
  chose: lanes.length > 1,
  grant: 'run',
});

describe('choice paths', () => {
  it('choiceFor is the inverse of the choice function, for every candidate set and last lane', () => {
    const sets = [
      [0, 1],
      [0, 2],
      [1, 2],
      [0, 1, 2],
      [0, 1, 2, 3],
      [2, 3],
    ];
    for (const c of sets)
      for (const last of [undefined, 0, 1, 2, 3])
        for (const lane of c) expect(chooseLane(c, last, choiceFor(c, last, lane))).toBe(lane);
    expect(() => choiceFor([0, 1], 0, 2)).toThrow(RangeError);
  });

  it('after a lane that slept, counts the choice from the lane after it, and a switch is free', () => {
    const views = (c: number[], last: number) =>
      c.map((lane) => ({
        lane,
        status: 'parked' as const,
        blockedAt: 0,
        blockedEpoch: 0,
        timeoutMs: 0,
        slept: lane === last,
      }));
    for (const c of [
      [0, 1],
      [0, 1, 2],
      [1, 2, 3],
    ])
      for (const last of c)
        for (const lane of c) {
          const choice = choiceFor(c, last, lane, true);
          const at = { clock: 0, epoch: 0, choices: [choice], decision: 0, last };
          expect(decide(views(c, last), at)).toMatchObject({ lane });
        }
    const slept: DecisionRecord = { ...decision([0, 1], 0, 0), lastSlept: true };
    expect(preempts(slept, 1)).toBe(false);
    expect(scheduleOf([{ ...slept, lane: 1 }], [1], [])).toEqual([{ choices: [0] }]);
  });

  it('counts a switch away from a lane that could go on, and nothing else', () => {
    expect(preempts(decision([0, 1], 0, 0), 1)).toBe(true);
    expect(preempts(decision([0, 1], 0, 0), 0)).toBe(false);
    // The last lane finished or waits: switching is free; so is a step's first grant.
    expect(preempts(decision([1, 2], 0, 1), 2)).toBe(false);
    expect(preempts(decision([0, 1], undefined, 0), 1)).toBe(false);
  });

  it('turns lanes picked into a schedule, keeping the plan of crashes and faults', () => {
    const ds = [decision([0, 1], undefined, 0), decision([0], 0, 0), decision([0, 1], 0, 0)];
    const s = scheduleOf(ds, [0, 1], [{ choices: [], crash: { lane: 1, at: 2 } }]);
    expect(s).toEqual([{ choices: [0, 1], crash: { lane: 1, at: 2 } }]);
  });

  it('gives reads of different lanes in any order one class, and never a write', () => {
    const r = (lane: number) => ({ step: 0, lane, read: true });
    const w = (lane: number) => ({ step: 0, lane, read: false });
    const key = (ts: Parameters<typeof prefixClassKeys>[0]) => prefixClassKeys(ts).at(-1);
    expect(key([r(0), r(1), r(0)])).toBe(key([r(1), r(0), r(0)]));
    expect(key([w(0), r(1)])).not.toBe(key([r(1), w(0)]));
    expect(key([r(0), w(1), r(0)])).not.toBe(key([r(0), r(0), w(1)]));
    // A step is a barrier: reads of two steps never merge.
    expect(key([r(0), { step: 1, lane: 1, read: true }])).not.toBe(
      key([{ step: 1, lane: 1, read: true }, r(0)]),
    );
  });
});
