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

/**
 * An arbitrary concrete sequence for `fixture`. No minimum length on purpose: fast-check shrinks
 * an array's tail with the same bounds, and a minimum of 1 there left irrelevant trailing moves
 * in shrunk counterexamples (seen with seeds 1–8 on the version-before-receipt mutant).
 */
export function sequenceArbitrary(
  fixture: Fixture,
  options: SequenceOptions,
): fc.Arbitrary<Step[]> {
  return fc
    .array(moveArbitrary(fixture, options), {
      maxLength: options.stepsMax,
      // 'max': every length up to stepsMax is reachable ('medium' stops at 100 whatever the bound).
      size: 'max',
    })
    .map((moves) => resolveMoves(fixture, moves, options));
}
