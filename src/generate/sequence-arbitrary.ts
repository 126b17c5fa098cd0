/**
 * The arbitrary every checker draws from: a list of moves, resolved into concrete steps. fast-check
 * shrinks the move list (dropping moves, simplifying each), and every shrink resolves again.
 */
import fc from 'fast-check';
import type { Step } from '../model/events.ts';
import type { Fixture } from '../model/world.ts';
import { type MoveOptions, moveArbitrary } from './move-arbitrary.ts';
import { resolveMoves } from './resolve.ts';

/** How sequences are generated. */
export interface SequenceOptions extends MoveOptions {
  /** Most moves in one sequence (a few may be dropped as they resolve to nothing). */
  readonly stepsMax: number;
}

/** An arbitrary concrete sequence for `fixture`. */
export function sequenceArbitrary(
  fixture: Fixture,
  options: SequenceOptions,
): fc.Arbitrary<Step[]> {
  return fc
    .array(moveArbitrary(fixture, options), {
      minLength: 1,
      maxLength: options.stepsMax,
      size: 'medium',
    })
    .map((moves) => resolveMoves(fixture, moves));
}
