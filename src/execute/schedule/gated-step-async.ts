/**
 * The one grant loop (`gated-step.ts`) for a driver whose lanes wait on a server (PostgreSQL
 * plugins' lanes, a service's): the step driven to its end with its promises awaited, and after an
 * error every lane still running ended as a crash would be, so nothing it held outlives the step.
 * The error stays the one to report.
 */
import type { LaneRecord } from '../../types/scheduled-trace.ts';
import { drive } from '../runtime/task.ts';
import type { GatedStep } from './gated-step.ts';
import type { LaneState } from './lane-state.ts';

/**
 * Drives `gated` (a step of `driver`'s lanes) to its end; returns each lane's record. `end` stops
 * a lane from outside wherever it is (the driver's crash).
 */
export async function runGatedStepAsync(
  gated: GatedStep,
  end: (s: LaneState) => Promise<void>,
): Promise<LaneRecord[]> {
  try {
    await drive(
      (function* () {
        yield* gated.start();
        yield* gated.loop();
      })(),
      (fn) => fn(),
    );
  } finally {
    for (const s of gated.lanes)
      if (s.status === 'parked' || s.status === 'blocked') {
        s.status = 'crashed';
        await end(s).catch(() => {});
      }
  }
  return gated.records();
}
