/**
 * Bars for a case with no clock: each step one slot of the axis. In sequential mode a group runs
 * in lane order, so its lanes split the slot; in the race modes they share it, released together.
 */
import type { Step } from '../../model/events.ts';
import type { BarFrame } from './bar-frame.ts';

/** One frame per event of `steps`, on an axis of steps (0 to `steps.length`). */
export function stepFrames(steps: readonly Step[], mode: string): BarFrame[] {
  const frames: BarFrame[] = [];
  steps.forEach((s, step) => {
    const events = s.kind === 'concurrent' ? s.events : [s];
    const share = mode === 'sequential' ? 1 / events.length : 1;
    events.forEach((event, lane) => {
      const start = mode === 'sequential' ? step + lane * share : step;
      frames.push({
        id: frames.length,
        step,
        lane,
        row: lane,
        event,
        start,
        end: start + share * 0.9,
        open: event.kind === 'call' && event.delivery === 'lostResponse',
        ticks: [],
      });
    });
  });
  return frames;
}
