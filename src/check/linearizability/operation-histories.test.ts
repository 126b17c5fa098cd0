/**
 * The checker against hand-written histories of `create-once` and `adjust-balance` in pass/fail
 * pairs (`testing/linearizability/operation-fixture-pairs.ts`): server-assigned invoice ids and
 * reported balances decide where each call took effect. Every accepted history's witness is
 * confirmed by `witnessProblem`, an oracle that shares no code with the search.
 */
import { describe, expect, it } from 'vitest';
import { OPERATION_FIXTURES } from '../../../testing/linearizability/operation-fixture-pairs.ts';
import { initialState } from '../../model/state.ts';
import { checkHistory } from './check-history.ts';
import { witnessProblem } from './witness.ts';

describe.each(OPERATION_FIXTURES)('checkHistory pass/fail pairs for $spec.name', (op) => {
  const initial = initialState(op.fixture, op.spec);

  it('starts from the operation’s own fixture', () => {
    expect(initial.operation).toBe(op.spec);
  });

  describe.each([true, false])('partition: %s', (partition) => {
    for (const pair of op.pairs) {
      for (const ok of pair.ok) {
        it(ok.name, () => {
          const result = checkHistory(initial, ok.history, { partition });
          expect(result.verdict).toBe('ok');
          if (result.verdict === 'ok')
            expect(witnessProblem(initial, ok.history, result.order)).toBeUndefined();
        });
      }
      it(pair.bad.name, () => {
        const result = checkHistory(initial, pair.bad.history, { partition });
        expect(result.verdict).toBe('illegal');
        if (result.verdict !== 'illegal') return;
        const stuck = result.stuck.filter((id) => pair.bad.stuckAnyOf.includes(id));
        expect(stuck).not.toEqual([]);
        for (const id of stuck) expect(result.longestPrefix).not.toContain(id);
        expect(witnessProblem(initial, pair.bad.history, result.longestPrefix)).toMatch(
          /must take effect/,
        );
      });
    }
  });
});
