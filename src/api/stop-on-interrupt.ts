/**
 * The shrinking loop's side of Ctrl-C (exploring has its own, `explore.ts`): a fast-check plugin (fast-check 4.10's `decorateRun`, the
 * hook its own `interruptAfterTimeLimit` plugin uses) that, once the process is interrupted,
 * starts no further run and abandons the one in flight, answering `PreconditionFailure(true)`:
 * fast-check's way to say "interrupted", which ends the loop (and any shrinking) at once with
 * `interrupted: true`, never starting a shrink. `checkHandler` then throws `InterruptedError`.
 *
 * It also lets the event loop turn between runs now and then (`interruptPoint`): a loop whose
 * runs only await promises never would, and a signal is only delivered when it does.
 */
import fc from 'fast-check';
import { interruption, interruptPoint, whenInterrupted } from '../execute/runtime/interrupt.ts';

const STOP = new fc.PreconditionFailure(true);
const stopped = whenInterrupted().then(() => STOP);

/** The plugin; pass it in `plugins` to `fc.check` with an async property. */
export function stopOnInterrupt<Ts>(): fc.Plugin<Ts> {
  return () => ({
    decorateRun: (nestedRun) => async (value) => {
      try {
        await interruptPoint();
      } catch {
        return STOP;
      }
      if (interruption()) return STOP;
      return Promise.race([nestedRun(value), stopped]);
    },
  });
}
