/**
 * The call budget on this thread: a synchronous loop is stopped and named, a promise that never
 * settles is abandoned, and work that is only long in total (many calls, each within the budget)
 * is not a hang, because every call starts with the whole budget ahead of it. A task stays one
 * synchronous stretch (one watchdog) until it truly waits for a promise.
 */
import { describe, expect, it } from 'vitest';
import { CallHung, CallWatch, stretchRoom } from './call-watch.ts';
import { drive, type Task, wait } from './task.ts';

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: what a slow synchronous handler does to its thread
  }
};

/** A task of `calls` plugin calls on steps 0, 1, …, each running `body`. */
function* calls(watch: CallWatch, count: number, body: (i: number) => unknown): Task<number> {
  for (let i = 0; i < count; i++) {
    yield* watch.enter({ step: i, lane: 0 });
    body(i);
    watch.leave();
  }
  return count;
}

describe('call watch', () => {
  it('stops a synchronous infinite loop and names the call', async () => {
    const watch = new CallWatch(100);
    const started = performance.now();
    const run = watch.run(
      calls(watch, 5, (i) => {
        if (i === 3)
          while (true) {
            // a handler that never returns
          }
      }),
    );
    await expect(run).rejects.toBeInstanceOf(CallHung);
    await expect(run).rejects.toMatchObject({
      hang: { step: 3, lane: 0, limitMs: 100, how: 'busy' },
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    // The thread is free again: the next run goes through.
    await expect(watch.run(calls(watch, 3, () => {}))).resolves.toBe(3);
  });

  it('stops a loop that swallows every error', async () => {
    const watch = new CallWatch(50);
    const swallowing = () => {
      for (;;) {
        try {
          spin(1_000);
        } catch {
          // a retry loop that catches everything
        }
      }
    };
    await expect(watch.run(calls(watch, 1, swallowing))).rejects.toMatchObject({
      hang: { step: 0, how: 'busy' },
    });
  });

  it('does not count calls that are long only together', async () => {
    const watch = new CallWatch(400);
    // 15 × 60 ms = 900 ms in one run, past budget + slack (800 ms), every call well within it.
    await expect(watch.run(calls(watch, 15, () => spin(60)))).resolves.toBe(15);
  });

  it('abandons a promise that never settles', async () => {
    const watch = new CallWatch(100);
    function* unsettled(): Task<unknown> {
      const activity = { step: 7, lane: 1 };
      yield* watch.enter(activity);
      const returned = new Promise(() => {});
      watch.leave();
      return yield* watch.settle(activity, returned);
    }
    await expect(watch.run(unsettled())).rejects.toMatchObject({
      hang: { step: 7, lane: 1, how: 'unsettled' },
    });
  });

  it('asks for a fresh stretch only when the armed one has too little room left', async () => {
    const watch = new CallWatch(100); // stretches of 200 ms
    const asks = (ms: number) => stretchRoom(ms).next().done === false;
    const seen: boolean[] = [];
    function* task(): Task<void> {
      yield* watch.enter({ step: 0, lane: 0 }); // arms a stretch
      watch.leave();
      seen.push(asks(10), asks(10_000));
    }
    await watch.run(task());
    expect(seen).toEqual([false, true]);
    expect(asks(10_000)).toBe(false); // outside any stretch: nothing to renew
  });

  it('passes on what a promise settled to, in time', async () => {
    const watch = new CallWatch(1_000);
    function* settled(): Task<unknown> {
      const activity = { step: 0, lane: 0 };
      return yield* watch.settle(activity, Promise.reject(new Error('no')));
    }
    await expect(watch.run(settled())).resolves.toMatchObject({ failed: true });
  });
});

describe('tasks', () => {
  it('run as one stretch until they wait for a promise', async () => {
    let stretches = 0;
    const counted = <R>(fn: () => R): R => {
      stretches++;
      return fn();
    };
    function* steps(): Task<number> {
      let sum = 0;
      for (let i = 0; i < 100; i++) sum += yield* wait(i);
      sum += yield* wait(Promise.resolve(1000));
      return sum;
    }
    await expect(drive(steps(), counted)).resolves.toBe(4950 + 1000);
    expect(stretches).toBe(2);
  });

  it('throw a rejection back where the task waited', async () => {
    function* steps(): Task<string> {
      try {
        yield* wait(Promise.reject(new Error('refused')));
        return 'not reached';
      } catch (thrown) {
        return (thrown as Error).message;
      }
    }
    await expect(drive(steps(), (fn) => fn())).resolves.toBe('refused');
  });
});
