/**
 * The schedules a replay tries for a sequence found on real threads, in order: systematic ones
 * first (every single context switch, then every pair, in each small concurrent group; PCT's
 * observation that most races need one or two switches in the right place), then schedules drawn
 * from a fixed seed, so the same case is always searched the same way. Interleavings only: real
 * threads crash nothing and inject no fault, so the search does not either. Pure.
 */
import fc from 'fast-check';
import type { Step } from '../model/events.ts';
import { RUN_TO_COMPLETION, type Schedule, type StepSchedule } from '../types/schedule.ts';
import { stepScheduleArbitrary } from './schedule-arbitrary.ts';

/** Groups of at most this many lanes get the systematic switches; wider ones only drawn schedules. */
export const SMALL_GROUP_LANES = 3;

/** The seed the drawn schedules come from: fixed, so a search is repeatable. */
export const SEARCH_SEED = 42;

/** Switch rates the drawn schedules cycle through: a switch about one decision in 2, 4 or 8. */
const SWITCH_RATES = [2, 4, 8] as const;

/**
 * Up to `count` schedules for `steps`, after the lane-order run (the empty schedule, which the
 * caller runs first to learn `decisions`). `decisions[i]` is how many times the lane-order run
 * of step `i` chose among several lanes; the systematic part switches at each of those points.
 */
export function scheduleCandidates(
  steps: readonly Step[],
  decisions: readonly number[],
  count: number,
  seed: number = SEARCH_SEED,
): Schedule[] {
  if (count <= 0) return [];
  const systematic = systematicSchedules(steps, decisions).slice(0, count);
  return [...systematic, ...drawnSchedules(steps, count - systematic.length, seed)];
}

/**
 * One context switch at each decision point of each small group (to every other lane), then
 * every pair of switches; every other step runs to completion.
 */
export function systematicSchedules(
  steps: readonly Step[],
  decisions: readonly number[],
): Schedule[] {
  const groups = steps.flatMap((s, i) =>
    s.kind === 'concurrent' && s.events.length <= SMALL_GROUP_LANES
      ? [{ step: i, lanes: s.events.length, points: decisions[i] ?? 0 }]
      : [],
  );
  const withEntry = (step: number, choices: number[]): Schedule =>
    steps.map((_, i) => (i === step ? { choices } : RUN_TO_COMPLETION));
  const singles: Schedule[] = [];
  const pairs: Schedule[] = [];
  for (const g of groups) {
    const offsets = Array.from({ length: g.lanes - 1 }, (_, k) => k + 1);
    for (let at = 0; at < g.points; at++)
      for (const v of offsets) singles.push(withEntry(g.step, switchesAt([[at, v]])));
    for (let first = 0; first < g.points; first++)
      for (let second = first + 1; second < g.points; second++)
        for (const v of offsets)
          for (const w of offsets)
            pairs.push(
              withEntry(
                g.step,
                switchesAt([
                  [first, v],
                  [second, w],
                ]),
              ),
            );
  }
  return [...singles, ...pairs];
}

/** `count` schedules drawn from `seed`: choices only, at several switch rates. */
export function drawnSchedules(steps: readonly Step[], count: number, seed: number): Schedule[] {
  if (count <= 0 || !steps.some((s) => s.kind === 'concurrent')) return [];
  const entry = fc
    .constantFrom(...SWITCH_RATES)
    .chain((switchOneIn) => stepScheduleArbitrary({ switchOneIn }))
    .map((e): StepSchedule => ({ choices: e.choices }));
  const schedule = fc.tuple(
    ...steps.map((s) => (s.kind === 'concurrent' ? entry : fc.constant(RUN_TO_COMPLETION))),
  );
  return fc.sample(schedule, { seed, numRuns: count });
}

/** Choices that are 0 (keep the lane) except `[at, offset]` pairs. */
function switchesAt(switches: readonly (readonly [number, number])[]): number[] {
  const last = Math.max(...switches.map(([at]) => at));
  const choices = new Array<number>(last + 1).fill(0);
  for (const [at, offset] of switches) choices[at] = offset;
  return choices;
}
