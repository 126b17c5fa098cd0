/**
 * The arbitrary scheduled mode draws from: moves paired with the schedule entry of the step each
 * becomes. Pairing them before resolution is what makes shrinking work: dropping a move drops its
 * schedule entry with it, so every other step keeps its own interleaving, crash and fault, and
 * each entry shrinks towards run-to-completion (fewer context switches, no crash, no fault).
 */
import fc from 'fast-check';
import type { Step } from '../model/events.ts';
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

/**
 * Highest yield point a crash mostly aims at; a reference call has about eight (its start, seven
 * statements, the reply).
 */
const CRASH_AT_MAX = 8;

/**
 * Highest yield point a crash aims at one time in four: a handler with more statements than the
 * reference (a second transaction for its receipt, an ORM's reads around its write) has points
 * past `CRASH_AT_MAX` where a crash leaves a commit without what should have come with it, and
 * they were never reached. A crash past a call's last point does nothing.
 */
const CRASH_AT_FAR = 24;
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

/**
 * Decisions a sparse schedule places its switches among: about the statements of the first
 * lane's call, where a switch lets another call run between two of them.
 */
const SPARSE_AT_MAX = 12;

/**
 * Choices with one or two context switches, each at a decision drawn uniformly, and none
 * elsewhere (PCT's bounded switches). A race that needs one switch at one statement and then a
 * long run of the other lane (a call's answer re-read after its COMMIT, while another call
 * commits) is several times likelier so than with a switch one decision in four, where the other
 * lane rarely runs a whole call untouched. Shrinks to fewer and earlier switches.
 */
/** A sparse switch's lane: mostly the next one, which in a pair of lanes is the other. */
const SPARSE_LANE = fc.oneof(
  { weight: 3, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 3 }) },
);

function sparseChoices(atMax: number): fc.Arbitrary<number[]> {
  return fc
    .array(fc.tuple(fc.nat({ max: Math.max(0, atMax - 1) }), SPARSE_LANE), {
      minLength: 1,
      maxLength: 2,
    })
    .map((switches) => {
      const choices = new Array<number>(Math.max(...switches.map(([at]) => at)) + 1).fill(0);
      for (const [at, lane] of switches) choices[at] = lane;
      return choices;
    });
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
  const choicesMax = options.choicesMax ?? 40;
  return fc
    .record({
      choices: fc.oneof(
        { withCrossShrink: true },
        fc.array(choice(options.switchOneIn ?? SWITCH_ONE_IN), { maxLength: choicesMax }),
        sparseChoices(Math.min(choicesMax, SPARSE_AT_MAX)),
      ),
      crash: rare(
        options.crashOneIn ?? 30,
        fc.oneof(
          { withCrossShrink: true },
          { weight: 3, arbitrary: point(CRASH_AT_MAX) },
          { weight: 1, arbitrary: point(CRASH_AT_FAR) },
        ),
      ),
      fault: rare(options.faultOneIn ?? 30, point(FAULT_AT_MAX)),
    })
    .map(({ choices, crash, fault }) => scheduleEntry(choices, crash, fault));
}

/**
 * A schedule entry with its keys in one order (`choices`, then `crash` and `fault` when drawn),
 * built field by field: the spreads this replaced made two throw-away objects per step.
 */
function scheduleEntry(
  choices: readonly number[],
  crash: StepSchedule['crash'],
  fault: StepSchedule['fault'],
): StepSchedule {
  if (!crash && !fault) return { choices };
  if (!fault) return { choices, crash };
  if (!crash) return { choices, fault };
  return { choices, crash, fault };
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
 * may resolve to nothing (a retry with nothing to retry); which ones did is read off the steps
 * (`madeBy`), and when that reading does not add up, off growing prefixes (`scheduleByPrefixes`).
 * Choices of a plain step have no decision to settle and are dropped, so counterexamples show
 * only what matters.
 */
export function resolveWithSchedule(
  fixture: Fixture,
  pairs: readonly (readonly [Move, StepSchedule])[],
  options: ResolveOptions,
): ScheduledCase {
  const moves = pairs.map(([m]) => m);
  const steps = resolveMoves(fixture, moves, options);
  const schedule: StepSchedule[] = [];
  if (steps.length === pairs.length)
    for (const [i, pair] of pairs.entries()) schedule.push(forStep(pair[1], steps[i]));
  else {
    const made = movesMadeSteps(moves, steps) ?? scheduleByPrefixes(fixture, moves, steps, options);
    for (const [i, m] of made.entries())
      schedule.push(forStep((pairs[m] as [Move, StepSchedule])[1], steps[i]));
  }
  return { steps, schedule };
}

/** A step's schedule entry: a plain step's choices dropped (it has no decision to settle). */
function forStep(entry: StepSchedule, step: Step | undefined): StepSchedule {
  return step?.kind === 'concurrent' ? entry : scheduleEntry([], entry.crash, entry.fault);
}

/**
 * For each step, the index of the move that made it, read off the steps in one pass: a move of a
 * kind that always makes a step made the next one; a retry, reuse, re-creation or clock advance
 * made it when it has that move's shape, else it made nothing. Exact because a move that makes
 * nothing changes nothing (the resolver applies only the steps it makes) and whether it does
 * depends only on the resolver's state, its kind and its client: a move of that shape that makes
 * nothing is followed, with nothing between made, by one in the very same state, which makes
 * nothing either. Undefined when the steps do not fit the moves so (resolution changed), for the
 * caller to fall back on prefixes; `schedule-arbitrary.test.ts` compares the two.
 */
export function movesMadeSteps(
  moves: readonly Move[],
  steps: readonly Step[],
): number[] | undefined {
  const made: number[] = [];
  for (let i = 0; i < moves.length; i++) {
    const move = moves[i] as Move;
    const next = steps[made.length];
    if (next && madeBy(move, next)) made.push(i);
    else if (!MAY_MAKE_NOTHING.has(move.kind)) return undefined;
  }
  return made.length === steps.length ? made : undefined;
}

/** The move kinds the resolver may drop (`resolve.ts`): nothing to retry, no deleted row, no expiry. */
const MAY_MAKE_NOTHING: ReadonlySet<Move['kind']> = new Set([
  'retry',
  'reuse',
  'recreate',
  'clock',
]);

/** Whether `step` has the shape `move` resolves to. */
function madeBy(move: Move, step: Step): boolean {
  switch (move.kind) {
    case 'race':
      return step.kind === 'concurrent';
    case 'intent':
    case 'retry':
    case 'reuse':
      return (
        step.kind === 'call' &&
        step.client === move.client &&
        step.intent === (move.kind === 'intent' ? 'new' : move.kind)
      );
    case 'seek':
      return step.kind === 'call' && step.client === move.client && step.intent === 'new';
    case 'edge':
      return (
        step.kind === 'call' &&
        step.client === move.client &&
        (step.intent === 'new' || step.intent === 'invalid')
      );
    case 'scope':
      return step.kind === (move.granted ? 'restore' : 'revoke') && step.client === move.client;
    case 'store':
      return step.kind === (move.failing ? 'storeFail' : 'storeRestore');
    case 'clock':
      return step.kind === 'clockAdvance';
    default:
      return step.kind === move.kind;
  }
}

/**
 * The same as `movesMadeSteps`, by brute force: resolution is prefix-stable, so the move that
 * made step `k` is the one whose prefix first resolves to `k + 1` steps. One resolution per move.
 */
export function scheduleByPrefixes(
  fixture: Fixture,
  moves: readonly Move[],
  steps: readonly Step[],
  options: ResolveOptions,
): number[] {
  const made: number[] = [];
  for (let i = 0; i < moves.length && made.length < steps.length; i++) {
    const count =
      i === moves.length - 1
        ? steps.length
        : resolveMoves(fixture, moves.slice(0, i + 1), options).length;
    if (count > made.length) made.push(i);
  }
  return made;
}
