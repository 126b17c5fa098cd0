/**
 * The drawn-spec guard's operations that write two rows (`otherTargets`): a further target
 * field, what a call does to that row's fields, what the result reports of it, and a fixture
 * with two rows a caller can name. Kept apart from the one-row draws, which it only extends.
 */
import fc from 'fast-check';
import type { FixtureRowDraw, OtherTargetDraw, RowFieldDraw, SpecDraw } from './spec-draw.ts';

/** The further target's argument: an id, like the target's. */
export const PEER_FIELD = 'peerId';

/** The prefix of the result fields that report the further target's row after the call. */
export const PEER_RESULT_PREFIX = 'peer_';

/**
 * What a call does to the further target's row: each row field kept, changed as the first
 * row's is (`same`), or, for a field the call adds to or counts, by the opposite of the first
 * row's change (`mirror`: a transfer's credit); and which fields the result reports.
 */
export function otherTargetArbitrary(
  rowFields: readonly RowFieldDraw[],
): fc.Arbitrary<OtherTargetDraw> {
  const effect = (rf: RowFieldDraw) =>
    rf.effect.kind === 'add' || rf.effect.kind === 'count'
      ? fc.constantFrom<OtherTargetDraw['effects'][string]>('mirror', 'mirror', 'same', 'keep')
      : fc.constantFrom<OtherTargetDraw['effects'][string]>('same', 'keep');
  return fc
    .record({
      effects: fc.tuple(...rowFields.map(effect)),
      reported: fc.subarray(rowFields.map((rf) => rf.name)),
    })
    .map(({ effects, reported }) => ({
      name: PEER_FIELD,
      effects: Object.fromEntries(rowFields.map((rf, i) => [rf.name, effects[i] ?? 'keep'])),
      resultFields: reported,
    }));
}

/**
 * `rows` with at least two in team-a, where most principals are, so calls can name two rows a
 * caller may use: a copy of the first row's values under the next free id when there are not.
 */
export function withTwoHomeRows(rows: readonly FixtureRowDraw[]): FixtureRowDraw[] {
  const home = rows.filter((r) => r.workspace === 'team-a');
  const first = rows[0];
  if (home.length >= 2 || !first) return [...rows];
  const id = Math.max(...rows.map((r) => r.id)) + 1;
  return [...rows, { id, workspace: 'team-a', values: first.values }];
}

/** `draw` writing a second row, named by `PEER_FIELD`, with two rows a caller may name. */
export function withOtherTarget(draw: SpecDraw): fc.Arbitrary<SpecDraw> {
  return otherTargetArbitrary(draw.rowFields).map((other) => ({
    ...draw,
    others: [other],
    rows: withTwoHomeRows(draw.rows),
  }));
}
