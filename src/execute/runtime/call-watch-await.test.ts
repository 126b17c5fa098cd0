/**
 * The call budget on code a handler runs after an `await`: the microtasks run inside the watched
 * stretch, so a loop there is stopped and named like one before it, and awaits that settle on
 * microtasks arm no watchdog of their own. Paired: each check is shown a call it must let through
 * and one it must stop. No check depends on how fast the machine is.
 */
import { describe, expect, it } from 'vitest';
import { CallHung, CallWatch, type Settled, watchdogsArmed } from './call-watch.ts';
import type { Task } from './task.ts';

/** A task of `count` calls, each returning what `body` returns (a promise, as an async handler). */
function* asyncCalls(
  watch: CallWatch,
  count: number,
  body: (i: number) => Promise<unknown>,
): Task<Settled[]> {
  const out: Settled[] = [];
  for (let i = 0; i < count; i++) {
    const activity = { step: i, lane: 0 };
    yield* watch.enter(activity);
    const returned = body(i);
    watch.leave();
    out.push(yield* watch.settle(activity, returned));
  }
  return out;
}

const awaitTimes = async (n: number, i: number) => {
  for (let k = 0; k < n; k++) await Promise.resolve();
  return i;
};

describe('call watch, after an await', () => {
  it('stops a loop that starts after the first await, and names the call', async () => {
    const watch = new CallWatch(100);
    const run = watch.run(
      asyncCalls(watch, 5, async (i) => {
        await Promise.resolve();
        if (i === 3)
          while (true) {
            // a handler that never returns, once past its await
          }
        return i;
      }),
    );
    await expect(run).rejects.toBeInstanceOf(CallHung);
    await expect(run).rejects.toMatchObject({ hang: { step: 3, lane: 0, how: 'busy' } });
    // The thread is free again, and the microtask queue runs: the next run goes through.
    await expect(watch.run(asyncCalls(watch, 3, (i) => awaitTimes(1, i)))).resolves.toHaveLength(3);
  });

  it('arms one watchdog for a run of calls that await many times each', async () => {
    const watch = new CallWatch(5_000);
    const before = watchdogsArmed();
    const settled = await watch.run(asyncCalls(watch, 200, (i) => awaitTimes(50, i)));
    expect(settled.map((s) => (s.failed ? s.error : s.value))).toEqual([...Array(200).keys()]);
    // One; a second if the machine stalled the stretch past its room (about a second): never
    // one per call (200) or per await (10,000), as when every await ended the stretch.
    expect(watchdogsArmed() - before).toBeLessThanOrEqual(2);
  });

  it('waits for a call that awaits a timer, and goes on draining after it', async () => {
    const watch = new CallWatch(5_000);
    const before = watchdogsArmed();
    const timer = () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 1));
    const settled = await watch.run(
      asyncCalls(watch, 4, (i) => (i === 1 ? timer() : awaitTimes(3, i))),
    );
    expect(settled.map((s) => (s.failed ? s.error : s.value))).toEqual([0, 'late', 2, 3]);
    // One before the timer, one after it (a third only if the machine stalled a second): the
    // wait ended the stretch, the calls after it share the next one (not one each: 4).
    expect(watchdogsArmed() - before).toBeLessThanOrEqual(3);
  });

  it('passes a rejection after an await on as the call failing', async () => {
    const watch = new CallWatch(1_000);
    const settled = await watch.run(
      asyncCalls(watch, 1, async () => {
        await Promise.resolve();
        throw new Error('refused');
      }),
    );
    expect(settled[0]).toMatchObject({ failed: true, error: { message: 'refused' } });
  });

  it('drains from a run started inside a microtask too', async () => {
    const watch = new CallWatch(100);
    await Promise.resolve(); // this test's code now runs from the microtask queue
    const run = watch.run(
      asyncCalls(watch, 1, async () => {
        await Promise.resolve();
        while (true) {
          // stopped only if the queue ran inside the stretch
        }
      }),
    );
    await expect(run).rejects.toMatchObject({ hang: { step: 0, how: 'busy' } });
  });
});
