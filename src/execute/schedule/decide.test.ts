/**
 * The scheduler's hot pure functions against their definitions: `chooseLane` (which skips its
 * copy and sort when the candidates are in lane order) against rotation over the sorted lanes, and
 * `runAhead` (which counts whole turns instead of asking `chooseLane` at each decision) against
 * asking `chooseLane` at each decision, on generated lanes, choices, clocks and fair stretches;
 * and `decide` handing the lane over in turn once the fair stretch begins, and when the lane
 * that ran last slept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseLane } from './choose-lane.ts';
import { decide, type LaneView, runAhead, type SchedulerState } from './decide.ts';

/** chooseLane as its doc defines it: rotate over the sorted lanes from `last` (or the next after it). */
function rotation(candidates: readonly number[], last: number | undefined, choice: number): number {
  const sorted = [...candidates].sort((a, b) => a - b);
  const from = last === undefined ? 0 : sorted.findIndex((lane) => lane >= last);
  return sorted[(Math.max(0, from) + choice) % sorted.length] as number;
}

/** runAhead as its doc defines it: the decisions in a row that would pick `lane` again. */
function grantsInARow(
  lane: number,
  others: readonly LaneView[],
  at: SchedulerState,
  max: number,
): number {
  const forced = others
    .filter((s) => s.status === 'blocked')
    .map((s) => s.blockedAt + s.timeoutMs - at.clock);
  const limit = Math.min(max, ...forced);
  if (others.length === 0) return Math.max(0, limit);
  const candidates = [lane, ...others.map((s) => s.lane)];
  let n = 0;
  for (let d = at.decision; n < limit; d++, n++) {
    // In the fair stretch every choice hands over to the next lane.
    if (at.fairIn !== undefined && at.fairIn - n <= 0) break;
    // Past the drawn choices every choice is 0.
    if (chooseLane(candidates, lane, at.choices[d] ?? 0) !== lane) break;
  }
  return n;
}

const lanes = fc.uniqueArray(fc.nat({ max: 5 }), { minLength: 1, maxLength: 5 });

describe('chooseLane', () => {
  it('rotates over the sorted candidates, in order or not', () => {
    fc.assert(
      fc.property(
        lanes,
        fc.option(fc.nat({ max: 6 }), { nil: undefined }),
        fc.nat({ max: 7 }),
        (candidates, last, choice) => {
          expect(chooseLane(candidates, last, choice)).toBe(rotation(candidates, last, choice));
        },
      ),
    );
  });
});

describe('runAhead', () => {
  it('counts the decisions in a row that keep the lane, up to a forced give-up and the budget', () => {
    const view = (lane: number, blocked: boolean, blockedAt: number, timeoutMs: number) =>
      ({
        lane,
        status: blocked ? 'blocked' : 'parked',
        blockedAt,
        blockedEpoch: 0,
        timeoutMs,
      }) as LaneView;
    fc.assert(
      fc.property(
        lanes,
        fc.array(fc.tuple(fc.boolean(), fc.nat({ max: 30 }), fc.nat({ max: 30 })), {
          minLength: 5,
          maxLength: 5,
        }),
        fc.array(fc.nat({ max: 3 }), { maxLength: 12 }),
        fc.nat({ max: 12 }),
        fc.nat({ max: 40 }),
        fc.nat({ max: 20 }),
        fc.option(fc.integer({ min: -2, max: 15 }), { nil: undefined }),
        ([lane, ...rest], blocks, choices, decision, clock, max, fairIn) => {
          const others = rest.map((l, i) => {
            const [blocked, at, timeout] = blocks[i] as [boolean, number, number];
            return view(l, blocked, at, timeout);
          });
          const at: SchedulerState = {
            clock,
            epoch: 0,
            choices,
            decision,
            last: lane,
            ...(fairIn !== undefined ? { fairIn } : {}),
          };
          expect(runAhead(lane as number, others, at, max)).toBe(
            grantsInARow(lane as number, others, at, max),
          );
        },
      ),
    );
  });
});

describe('decide, past the drawn choices', () => {
  const parked = (lane: number): LaneView => ({
    lane,
    status: 'parked',
    blockedAt: 0,
    blockedEpoch: 0,
    timeoutMs: 0,
  });
  const at = (fairIn: number | undefined): SchedulerState => ({
    clock: 0,
    epoch: 0,
    choices: [],
    decision: 0,
    last: 1,
    ...(fairIn !== undefined ? { fairIn } : {}),
  });

  it('keeps the last lane running, until the fair stretch hands it over in turn', () => {
    const live = [parked(0), parked(1), parked(2)];
    expect(decide(live, at(undefined))).toMatchObject({ kind: 'choose', lane: 1 });
    expect(decide(live, at(1))).toMatchObject({ kind: 'choose', lane: 1 });
    expect(decide(live, at(0))).toMatchObject({ kind: 'choose', lane: 2 });
    expect(decide([parked(0), parked(1)], at(-5))).toMatchObject({ kind: 'choose', lane: 0 });
  });
});

describe('decide, after the last lane slept', () => {
  const lane = (n: number, slept = false, status: LaneView['status'] = 'parked'): LaneView => ({
    lane: n,
    status,
    blockedAt: 0,
    blockedEpoch: 1,
    timeoutMs: 100,
    slept,
  });
  const at = (choices: number[], fairIn?: number): SchedulerState => ({
    clock: 0,
    epoch: 1,
    choices,
    decision: 0,
    last: 1,
    ...(fairIn !== undefined ? { fairIn } : {}),
  });

  it('hands over with no switch drawn, and every drawn choice still reaches every lane', () => {
    const live = [lane(0), lane(1, true), lane(2)];
    expect(decide(live, at([]))).toMatchObject({ kind: 'choose', lane: 2, chose: true });
    expect(decide(live, at([1]))).toMatchObject({ lane: 0 });
    expect(decide(live, at([2]))).toMatchObject({ lane: 1 });
    // Without the sleep, choice 0 keeps it.
    expect(decide([lane(0), lane(1), lane(2)], at([]))).toMatchObject({ lane: 1 });
  });

  it('hands over once in the fair stretch, not twice', () => {
    expect(decide([lane(0), lane(1, true)], at([], 0))).toMatchObject({ lane: 0 });
    expect(decide([lane(0), lane(1, true), lane(2)], at([], 0))).toMatchObject({ lane: 2 });
  });

  it('changes nothing when the sleeper is alone or is not the lane that ran last', () => {
    expect(decide([lane(1, true), lane(2, false, 'blocked')], at([]))).toMatchObject({
      lane: 1,
      chose: false,
    });
    expect(decide([lane(0, true), lane(1)], at([]))).toMatchObject({ lane: 1 });
  });
});
