/**
 * The generated step mix, exactly as `checkHandler` draws it: the same arbitrary with the same
 * options and seed, so the raw loop replays the very sequences the harness runs. Scheduled mode
 * draws a schedule with each step (`scheduledCaseArbitrary`), which gives other sequences for
 * the same seed, so it has a mix of its own.
 */
import fc from 'fast-check';
import { scheduledCaseArbitrary } from '../generate/schedule-arbitrary.ts';
import { sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import type { Event, Step } from '../model/events.ts';
import { flatten } from '../model/flatten.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { Fixture } from '../model/world.ts';

/** How `checkHandler` configures generation; mirrored here so both draw the same sequences. */
export interface MixOptions {
  readonly fixture: Fixture;
  /** The operation the handler implements. */
  readonly spec: OperationSpec;
  readonly stepsMax: number;
  /** Whether the handler has `recreate` (`checkHandler` includes re-creation only then). */
  readonly recreate: boolean;
}

/** The first `runs` sequences `checkHandler` would generate with `seed`, flattened to events. */
export function stepMix(options: MixOptions, seed: number, runs: number): Event[][] {
  const sequences: Step[][] = fc.sample(
    sequenceArbitrary(options.fixture, {
      spec: options.spec,
      stepsMax: options.stepsMax,
      races: true,
      recreate: options.recreate,
    }),
    { seed, numRuns: runs },
  );
  return sequences.map((steps) => flatten(steps).map((placed) => placed.event));
}

/** The first `runs` sequences scheduled mode's `checkHandler` would generate with `seed`. */
export function scheduledStepMix(options: MixOptions, seed: number, runs: number): Event[][] {
  const cases = fc.sample(
    scheduledCaseArbitrary(options.fixture, {
      spec: options.spec,
      stepsMax: options.stepsMax,
      races: true,
      recreate: options.recreate,
    }),
    { seed, numRuns: runs },
  );
  return cases.map((c) => flatten(c.steps).map((placed) => placed.event));
}
