/**
 * Code that runs synchronously until it truly has to wait. A run is written as a generator that
 * yields only when it must: a promise (a handler that returned one, a worker still starting), or
 * `FRESH_STRETCH`, a request to go on in a new, watched stretch of synchronous work. The driver
 * runs everything between two yields as one plain synchronous call, which it can hand to a
 * watchdog (`call-watch.ts`): many runs of a synchronous handler are then one stretch, armed
 * once, where `async`/`await` would have cut it at every call.
 */

/** Yielded to ask the driver for a fresh stretch under a freshly armed watchdog before going on. */
export const FRESH_STRETCH: unique symbol = Symbol('receiptcheck.freshStretch');

/** What a task yields: a promise to wait for, or a request for a fresh stretch. */
export type Yielded = Promise<unknown> | typeof FRESH_STRETCH;

/** A computation that runs synchronously between the promises it waits for. */
export type Task<T> = Generator<Yielded, T, unknown>;

/** `value` itself when it is not a promise; otherwise waits for it (inside a task: `yield*`). */
export function* wait<T>(value: T | Promise<T>): Task<T> {
  if (!(value instanceof Promise)) return value;
  return (yield value) as T;
}

/**
 * Runs `task` to its end. Every stretch between two yields runs inside `stretch(fn, watched)`,
 * which must call `fn` synchronously and return (or throw) what it does; `watched` is true for a
 * stretch the task asked for with `FRESH_STRETCH`. Rejections come back into the task as throws,
 * where it waited.
 */
export async function drive<T>(
  task: Task<T>,
  stretch: <R>(fn: () => R, watched: boolean) => R,
): Promise<T> {
  let resume: { readonly value?: unknown; readonly error?: unknown; readonly failed?: true } = {};
  let watched = false;
  for (;;) {
    const input = resume;
    const step: IteratorResult<Yielded, T> = stretch(
      () => (input.failed ? task.throw(input.error) : task.next(input.value)),
      watched,
    );
    if (step.done) return step.value;
    watched = step.value === FRESH_STRETCH;
    if (watched) {
      resume = {};
      continue;
    }
    try {
      resume = { value: await step.value };
    } catch (error) {
      resume = { error, failed: true };
    }
  }
}
