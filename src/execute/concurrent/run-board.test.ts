/**
 * A run's board on one thread: phases move on only when every part of one is done, each phase's
 * end is stamped, an abort releases every waiter; and the gate of a group released together by
 * the board lets its first lane in without waiting for the others to arrive.
 */
import { describe, expect, it } from 'vitest';
import { createGate, GATE_START_DELAY_NS, passGate } from './gate.ts';
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

describe('gate of a group released together', () => {
  it('lets its first lane through without the others arriving, once the start delay has passed', () => {
    const gate = createGate(2, true);
    const started = process.hrtime.bigint();
    expect(passGate(gate, 10)).toBe(true);
    expect(process.hrtime.bigint() - started).toBeGreaterThanOrEqual(GATE_START_DELAY_NS);
  });

  it('still reports a missing party when its lanes are not released together', () => {
    expect(passGate(createGate(2), 5)).toBe(false);
  });
});
