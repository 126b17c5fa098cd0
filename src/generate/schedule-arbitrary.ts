/**
 * The arbitrary scheduled mode draws from: moves paired with the schedule entry of the step each
 * becomes. Pairing them before resolution is what makes shrinking work: dropping a move drops its
 * schedule entry with it, so every other step keeps its own interleaving, crash and fault, and
 * each entry shrinks towards run-to-completion (fewer context switches, no crash, no fault).
 */
import fc from 'fast-check';
import type { Fixture } from '../model/world.ts';
import type { ScheduledCase, StepSchedule } from '../types/schedule.ts';
import { type MoveOptions, moveArbitrary } from './move-arbitrary.ts';
import type { Move } from './moves.ts';
import { type ResolveOptions, resolveMoves } from './resolve.ts';
import type { SequenceOptions } from './sequence-arbitrary.ts';

/** How schedule entries are drawn. Defaults are tuned so a 20-step run often crashes once. */
export interface ScheduleOptions {
  /** Most decisions drawn per concurrent step (later ones default to 0). Default 40. */
  readonly choicesMax?: number;
  /**
   * About one decision in this many draws a context switch (a choice other than 0, "keep running
   * the last lane"). Default 4. Races need a switch or two in the right place, not a switch at
   * every statement (PCT's insight), and each switch costs a thread hand-off.
   */
  readonly switchOneIn?: number;
  /** One step in this many carries a crash. Default 30. */
  readonly crashOneIn?: number;
  /** One step in this many carries a statement fault. Default 30. */
  readonly faultOneIn?: number;
}

/** Highest yield point a crash aims at; a reference call has about eight. */
const CRASH_AT_MAX = 8;
/** Highest write statement a fault aims at; a reference call has two. */
const FAULT_AT_MAX = 2;
/** Highest lane a crash or fault names (taken modulo the group's lanes). */
const LANE_MAX = 3;

/** See `ScheduleOptions.switchOneIn`. */
const SWITCH_ONE_IN = 4;

/** A drawn choice: mostly 0 (keep the lane), else 1–3 lanes on; shrinks to 0. */
function choice(switchOneIn: number): fc.Arbitrary<number> {
  return fc.oneof(
    { withCrossShrink: true },
    { weight: switchOneIn - 1, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
  );
}

/** An arbitrary schedule entry for one step. */
export function stepScheduleArbitrary(options: ScheduleOptions = {}): fc.Arbitrary<StepSchedule> {
  const rare = <T>(oneIn: number, arb: fc.Arbitrary<T>) =>
    fc.oneof(
      { withCrossShrink: true },
      { weight: oneIn - 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: arb },
    );
  const point = (atMax: number) =>
    fc.record({ lane: fc.nat({ max: LANE_MAX }), at: fc.nat({ max: atMax }) });
  return fc
    .record({
      choices: fc.array(choice(options.switchOneIn ?? SWITCH_ONE_IN), {
        maxLength: options.choicesMax ?? 40,
      }),
      crash: rare(options.crashOneIn ?? 30, point(CRASH_AT_MAX)),
      fault: rare(options.faultOneIn ?? 30, point(FAULT_AT_MAX)),
    })
    .map(({ choices, crash, fault }) => ({
      choices,
      ...(crash ? { crash } : {}),
      ...(fault ? { fault } : {}),
    }));
}

/**
 * An arbitrary scheduled case for `fixture`: steps as `sequenceArbitrary` makes them, each with
 * its schedule entry. No minimum length, for the reason `sequenceArbitrary` gives (fast-check
 * shrinks an array's tail with the same bounds; a minimum kept junk trailing steps).
 */
export function scheduledCaseArbitrary(
  fixture: Fixture,
  options: SequenceOptions & ScheduleOptions,
): fc.Arbitrary<ScheduledCase> {
  return fc
    .array(
      fc.tuple(moveArbitrary(fixture, options as MoveOptions), stepScheduleArbitrary(options)),
      {
        maxLength: options.stepsMax,
        // 'max': every length up to stepsMax is reachable ('medium' stops at 100 whatever the bound).
        size: 'max',
      },
    )
    .map((pairs) => resolveWithSchedule(fixture, pairs, options));
}

/**
 * Resolves moves into steps and keeps the schedule entry of each move that became a step. A move
 * may resolve to nothing (a retry with nothing to retry); resolution is prefix-stable, so the
 * moves that produced steps are found by resolving growing prefixes. Choices of a plain step have
 * no decision to settle and are dropped, so counterexamples show only what matters.
 */
export function resolveWithSchedule(
  fixture: Fixture,
  pairs: readonly (readonly [Move, StepSchedule])[],
  options: ResolveOptions = {},
): ScheduledCase {
  const moves = pairs.map(([m]) => m);
  const steps = resolveMoves(fixture, moves, options);
  const plain = (entry: StepSchedule, i: number): StepSchedule =>
    steps[i]?.kind === 'concurrent' ? entry : { ...entry, choices: [] };
  if (steps.length === pairs.length)
    return { steps, schedule: pairs.map(([, e], i) => plain(e, i)) };
  const schedule: StepSchedule[] = [];
  let made = 0;
  for (let i = 0; i < pairs.length && made < steps.length; i++) {
    const count =
      i === pairs.length - 1
        ? steps.length
        : resolveMoves(fixture, moves.slice(0, i + 1), options).length;
    if (count === made) continue;
    made = count;
    schedule.push(plain((pairs[i] as readonly [Move, StepSchedule])[1], schedule.length));
  }
  return { steps, schedule };
}
