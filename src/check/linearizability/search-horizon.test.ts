/**
 * The search's horizon (`searchPart`'s `horizon`, `checkHistory`'s `horizonFrames`): a search
 * that keeps only its last states must say so when it would backtrack further, and the checker
 * then searches again with every state, so the verdict never depends on the horizon. Pass/fail
 * pairs both ways: histories checked within the horizon, and histories sent past it.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURE_PAIRS } from '../../../testing/linearizability/fixture-pairs.ts';
import type { History } from '../../model/history.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { startBudget } from './budget.ts';
import { checkHistory } from './check-history.ts';
import { inFlightAnswers } from './in-flight.ts';
import { resolveLinearizabilityOptions } from './options.ts';
import { searchPart } from './search.ts';
import { syntheticHistory } from './synthetic-history.ts';
import { witnessProblem } from './witness.ts';

const initial = initialState(DEFAULT_FIXTURE, setIntervalSpec);

function searchWith(start: ModelState, history: History, horizon: number) {
  const budget = startBudget(resolveLinearizabilityOptions());
  return searchPart(start, history, budget, inFlightAnswers(start, history), horizon);
}

describe('the search horizon', () => {
  it('a long linearizable history is checked within a small horizon, and passes', () => {
    const { initial: start, history } = syntheticHistory({ seed: 5, entries: 3000, clients: 4 });
    const result = searchWith(start, history, 16);
    expect(result.verdict).toBe('ok');
    if (result.verdict === 'ok')
      expect(witnessProblem(start, history, result.order)).toBeUndefined();
  });

  it('a long history with one impossible outcome is still rejected with a small horizon', () => {
    for (const seed of [1, 2, 3]) {
      const bad = syntheticHistory({ seed, entries: 3000, clients: 4, corrupt: true });
      expect(searchWith(bad.initial, bad.history, 16).verdict).not.toBe('ok');
      expect(checkHistory(bad.initial, bad.history, { horizonFrames: 16 }).verdict).toBe('illegal');
    }
  });

  it('a fixture that must backtrack past a horizon of 1 says so, and checkHistory searches again', () => {
    const sent = FIXTURE_PAIRS.flatMap((pair) => [
      ...pair.ok.map((ok) => ({ history: ok.history, verdict: 'ok' })),
      { history: pair.bad.history, verdict: 'illegal' },
    ]).filter(({ history }) => searchWith(initial, history, 1).verdict === 'beyondHorizon');
    // Both kinds of fixture take the way back, so both verdicts are shown to survive it.
    expect(sent.map((s) => s.verdict)).toContain('ok');
    expect(sent.map((s) => s.verdict)).toContain('illegal');
    for (const { history, verdict } of sent) {
      expect(checkHistory(initial, history, { horizonFrames: 1 }).verdict).toBe(verdict);
      expect(searchWith(initial, history, Number.POSITIVE_INFINITY).verdict).toBe(verdict);
    }
  });
});
