/**
 * A run's board on one thread: phases move on only when every part of one is done, each phase's
 * end is stamped, and an abort releases every waiter.
 */
import { describe, expect, it } from 'vitest';
import {
  abortBoard,
  awaitPhase,
  createBoard,
  finishPart,
  isAborted,
  phaseEndedMs,
} from './run-board.ts';
import { sharedClockMs } from './shared-clock.ts';

describe('run board', () => {
  it('moves to the next phase once every part of this one is done, and stamps its end', () => {
    const board = createBoard(2);
    expect(awaitPhase(board, 0)).toBe(true);
    const before = sharedClockMs();
    finishPart(board, 0, 2);
    expect(phaseEndedMs(board, 0)).toBeUndefined();
    finishPart(board, 0, 2);
    const ended = phaseEndedMs(board, 0) ?? Number.NaN;
    expect(ended).toBeGreaterThanOrEqual(before);
    expect(ended).toBeLessThanOrEqual(sharedClockMs());
    expect(awaitPhase(board, 1)).toBe(true);
    expect(phaseEndedMs(board, 1)).toBeUndefined();
  });

  it('lets no one wait for a phase once the run is aborted', () => {
    const board = createBoard(3);
    expect(isAborted(board)).toBe(false);
    abortBoard(board);
    expect(isAborted(board)).toBe(true);
    // Phase 2 could never come on this thread: only the abort returns.
    expect(awaitPhase(board, 2)).toBe(false);
  });

  it('knows no end of a phase it does not have', () => {
    const board = createBoard(1);
    expect(phaseEndedMs(board, -1)).toBeUndefined();
    expect(phaseEndedMs(board, 1)).toBeUndefined();
    expect(() => createBoard(-1)).toThrow(RangeError);
  });
});
