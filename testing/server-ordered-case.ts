/**
 * A PostgreSQL case whose scheduled run the server orders: three of pg-check-then-act's calls
 * queue on the automation's row, and when the holder lets it go the server wakes both waiters,
 * which of them goes first being a race between their backends. With the schedules that keep the
 * waits one at a time, for the runs the schedule decides alone.
 *
 * pg-check-then-act's yield points: 0 start, 1 BEGIN, 2 access read, 3 receipt read, 4 UPDATE of
 * the row, 5 INSERT, 6 COMMIT, 7 reply.
 */
import type { CallEvent, Step } from '../src/model/events.ts';
import type { StepSchedule } from '../src/types/schedule.ts';

/** A first attempt at setting automation 1's interval, as `requestId`. */
export const setIntervalCall = (requestId: string): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
});

/** Three calls on the same row, each its own request. */
export const THREE_ON_ONE_ROW: Step[] = [
  {
    kind: 'concurrent',
    events: [setIntervalCall('a'), setIntervalCall('b'), setIntervalCall('c')],
  },
];

/** Two calls on the same row. */
export const TWO_ON_ONE_ROW: Step[] = [
  { kind: 'concurrent', events: [setIntervalCall('a'), setIntervalCall('b')] },
];

/**
 * Lane 1 runs to its UPDATE (the row is locked); lane 2 runs to its own and waits; lane 3 does
 * too; lane 1 then goes on to COMMIT, and both waiters wake at once.
 */
export const QUEUED: StepSchedule = { choices: [0, 0, 0, 0, 1, 0, 0, 0, 0] };

/** As `QUEUED`, but lane 1 commits before lane 3 starts: one lane waits at a time. */
export const IN_TURN: StepSchedule = { choices: [0, 0, 0, 0, 1, 0, 0, 0, 1] };

/** Three retries of one request, which pg-reference serialises on its advisory key lock. */
export const THREE_ON_ONE_KEY: Step[] = [
  {
    kind: 'concurrent',
    events: [setIntervalCall('a'), setIntervalCall('a'), setIntervalCall('a')],
  },
];

/**
 * For `THREE_ON_ONE_KEY` on pg-reference (0 start, 1 BEGIN, 2 key lock, …): lane 1 takes the key
 * lock; lanes 2 and 3 ask for it in turn and wait; lane 1 runs on to COMMIT.
 */
export const KEY_QUEUED: StepSchedule = { choices: [0, 0, 1, 0, 0, 0, 0] };

/** For `TWO_ON_ONE_ROW`: lane 2 waits on lane 1's row lock until lane 1 commits. */
export const ONE_WAITS: StepSchedule = { choices: [0, 0, 0, 0, 1, 0, 0, 0] };
