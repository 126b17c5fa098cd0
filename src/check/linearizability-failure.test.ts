/**
 * What a linearizability failure tells the reader each stuck call should have seen. From CI's
 * case (powertools, concurrent mode, seed 2): a call refused as a declared in-flight conflict
 * heads the longest prefix, so the model after that prefix is the search's state, not `step`
 * replayed over the prefix, which would wrongly run the refused call. (CI's racing call was told
 * keyReuse, which the declared policy now allows; here it gives an answer no order explains.)
 */
import { describe, expect, it } from 'vitest';
import {
  call,
  conflict,
  request,
  unavailable,
} from '../../testing/linearizability/fixture-builders.ts';
import type { History } from '../model/history.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { initialState } from '../model/state.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { checkHistory } from './linearizability/check-history.ts';
import { linearizabilityFailure } from './linearizability-failure.ts';

describe('linearizabilityFailure', () => {
  const inFlight = initialState(
    { ...DEFAULT_FIXTURE, policy: { inFlightDuplicate: 'conflict' } },
    setIntervalSpec,
  );
  // Alice's lost call takes automation 1 to v2; then r1 and a reuse of r1 race. r1 is refused
  // (in flight, or stale after the lost call) and stores nothing; the reuse, told unavailable
  // of an automation alice can reach, should have been refused as stale. Had r1 run (`step`
  // over the prefix), the reuse would have been owed keyReuse instead.
  const history: History = [
    call(0, 0, [0.6], request('a', 1, 1, 5), undefined, 'lostResponse'),
    call(1, 0, [2.8, 4.2], request('r1', 1, 1, 60), conflict),
    call(2, 0, [2.81, 3.3], request('r1', 1, 1, 1440), unavailable),
  ];
  const places = [
    { step: 0, lane: 0 },
    { step: 1, lane: 0 },
    { step: 1, lane: 1 },
  ];

  it("names the stuck reuse's expected outcome from the search's own state", () => {
    const result = checkHistory(inFlight, history);
    expect(result.verdict).toBe('illegal');
    if (result.verdict !== 'illegal') return;
    const failure = linearizabilityFailure(result, history, places);
    expect(failure.stuck).toHaveLength(1);
    expect(failure.stuck[0]).toMatchObject({ id: 2, observed: unavailable, expected: conflict });
  });
});
