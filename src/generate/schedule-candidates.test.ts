/**
 * The schedules a replay searches: systematic single and double context switches for small
 * groups, then schedules drawn from a fixed seed (choices only: no crash, no fault), in a fixed
 * order so the same case is always searched the same way.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../model/events.ts';
import { RUN_TO_COMPLETION } from '../types/schedule.ts';
import {
  drawnSchedules,
  SEARCH_SEED,
  scheduleCandidates,
  systematicSchedules,
} from './schedule-candidates.ts';

const call = (client: number): CallEvent => ({
  kind: 'call',
  client,
  request: { requestId: `r${client}`, automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
  delivery: 'delivered',
});
const group = (lanes: number): Step => ({
  kind: 'concurrent',
  events: Array.from({ length: lanes }, (_, i) => call(i % 3)),
});

describe('systematicSchedules', () => {
  it('switches once at each decision point, then at each pair, in a 2-lane group', () => {
    const steps = [call(0), group(2)];
    const schedules = systematicSchedules(steps, [0, 3]);
    expect(schedules.map((s) => s[1]?.choices)).toEqual([
      [1],
      [0, 1],
      [0, 0, 1],
      [1, 1],
      [1, 0, 1],
      [0, 1, 1],
    ]);
    for (const s of schedules) expect(s[0]).toEqual(RUN_TO_COMPLETION);
  });

  it('tries every other lane in a 3-lane group, and leaves wider groups to the draws', () => {
    expect(systematicSchedules([group(3)], [2])).toHaveLength(2 * 2 + 1 * 4);
    expect(systematicSchedules([group(4)], [5])).toEqual([]);
  });

  it('varies one group at a time', () => {
    const schedules = systematicSchedules([group(2), group(2)], [1, 1]);
    expect(schedules).toEqual([
      [{ choices: [1] }, RUN_TO_COMPLETION],
      [RUN_TO_COMPLETION, { choices: [1] }],
    ]);
  });
});

describe('scheduleCandidates', () => {
  const steps = [call(0), group(2), group(4)];

  it('gives exactly the count asked for, systematic ones first', () => {
    const candidates = scheduleCandidates(steps, [0, 2, 6], 50);
    expect(candidates).toHaveLength(50);
    expect(candidates.slice(0, 3)).toEqual(systematicSchedules(steps, [0, 2, 6]));
    expect(scheduleCandidates(steps, [0, 2, 6], 2)).toHaveLength(2);
    expect(scheduleCandidates(steps, [0, 2, 6], 0)).toEqual([]);
  });

  it('draws the same schedules from the same seed, other ones from another', () => {
    expect(drawnSchedules(steps, 20, SEARCH_SEED)).toEqual(drawnSchedules(steps, 20, SEARCH_SEED));
    expect(drawnSchedules(steps, 20, SEARCH_SEED + 1)).not.toEqual(
      drawnSchedules(steps, 20, SEARCH_SEED),
    );
  });

  it('draws interleavings only: no crash, no fault, nothing for plain steps', () => {
    const drawn = drawnSchedules(steps, 200, SEARCH_SEED);
    expect(drawn.some((s) => s[2]?.choices.some((c) => c > 0))).toBe(true);
    for (const s of drawn) {
      expect(s).toHaveLength(steps.length);
      expect(s[0]).toEqual(RUN_TO_COMPLETION);
      for (const entry of s) expect(Object.keys(entry)).toEqual(['choices']);
    }
    expect(drawnSchedules([call(0)], 10, SEARCH_SEED)).toEqual([]);
  });
});
