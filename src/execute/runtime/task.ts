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

/**
 * Yielded to ask whether `promise` settles on microtasks alone: a draining driver (`drive` with
 * `draining`) runs the microtask queue at once, inside the stretch, and resumes the task with
 * `{value}` when it settled, or `NOT_SETTLED` when it waits on more (a timer, a socket), or when
 * the queue cannot be run here; any other driver resumes with `NOT_SETTLED` at once. `promise`
 * must not reject.
 */
export class SettleNow {
  constructor(readonly promise: Promise<unknown>) {}
}

/** What a task is resumed with after `SettleNow` when the promise did not settle. */
export const NOT_SETTLED: unique symbol = Symbol('receiptcheck.notSettled');

/** What a task yields: a promise to wait for, a request for a fresh stretch, or `SettleNow`. */
export type Yielded = Promise<unknown> | typeof FRESH_STRETCH | SettleNow;

/** A computation that runs synchronously between the promises it waits for. */
export type Task<T> = Generator<Yielded, T, unknown>;

/** `value` itself when it is not a promise; otherwise waits for it (inside a task: `yield*`). */
export function* wait<T>(value: T | Promise<T>): Task<T> {
  if (!(value instanceof Promise)) return value;
  return (yield value) as T;
}

/** What a stretch hands the task: a value, or an error to throw where it waited. */
interface Resume {
  readonly value?: unknown;
  readonly error?: unknown;
  readonly failed?: true;
}

/** The stretch function a driver is given (see `drive`). */
export type Stretch = <R>(fn: () => R, watched: boolean) => R;

/**
 * Runs `task` to its end. Every stretch between two yields runs inside `stretch(fn, watched)`,
 * which must call `fn` synchronously and return (or throw) what it does; `watched` is true for a
 * stretch the task asked for with `FRESH_STRETCH`. Rejections come back into the task as throws,
 * where it waited.
 *
 * With `draining`, `SettleNow` runs the microtask queue inside the stretch (`drained`), so an
 * `await` that settles on microtasks (a handler awaiting a synchronous driver) neither ends the
 * stretch nor lets the code after it run outside it; and after a true wait the task goes on from
 * a macrotask (`setImmediate`), where the queue can be run, not from a microtask, where it cannot.
 */
export function drive<T>(task: Task<T>, stretch: Stretch, draining = false): Promise<T> {
  return draining ? driveDraining(task, stretch) : driveAwaiting(task, stretch);
}

async function driveAwaiting<T>(task: Task<T>, stretch: Stretch): Promise<T> {
  let resume: Resume = {};
  let watched = false;
  for (;;) {
    const input = resume;
    const step: IteratorResult<Yielded, T> = stretch(() => advance(task, input, false), watched);
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

function driveDraining<T>(task: Task<T>, stretch: Stretch): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let resume: Resume = {};
    let watched = false;
    const goOn = (value: unknown) => {
      resume = { value };
      setImmediate(loop);
    };
    const fail = (error: unknown) => {
      resume = { error, failed: true };
      setImmediate(loop);
    };
    function loop(): void {
      for (;;) {
        const input = resume;
        let step: IteratorResult<Yielded, T>;
        try {
          step = stretch(() => advance(task, input, true), watched);
        } catch (error) {
          reject(error);
          return;
        }
        if (step.done) {
          resolve(step.value);
          return;
        }
        watched = step.value === FRESH_STRETCH;
        resume = {};
        if (watched) continue;
        (step.value as Promise<unknown>).then(goOn, fail);
        return;
      }
    }
    // From a macrotask from the start too: a caller awaiting in an async function is a microtask.
    setImmediate(loop);
  });
}

/** Runs `task` from `input` to its next yield that is not `SettleNow`, answering those on the way. */
function advance<T>(task: Task<T>, input: Resume, draining: boolean): IteratorResult<Yielded, T> {
  let step = input.failed ? task.throw(input.error) : task.next(input.value);
  while (!step.done && step.value instanceof SettleNow)
    step = task.next(draining ? drained(step.value.promise) : NOT_SETTLED);
  return step;
}

const PROBE = Promise.resolve();
let probed = false;
const markProbed = () => {
  probed = true;
};

/**
 * Runs the microtask queue (and `process.nextTick`'s) now, as Node would once the current
 * macrotask returns: `{value}` when `promise` settled in it, else `NOT_SETTLED`. Inside a
 * microtask the queue cannot be run again (V8 does not nest it): a probe tells, and that is
 * `NOT_SETTLED` too. Whatever else is queued runs there as well, as it would have next anyway.
 * `process._tickCallback` is Node's own way to run them from JavaScript (deprecated in the docs
 * only, DEP0134: `--pending-deprecation` makes it warn once); without it nothing is drained and
 * every call waits as a true wait does.
 */
function drained(promise: Promise<unknown>): { readonly value: unknown } | typeof NOT_SETTLED {
  let settled: { value: unknown } | typeof NOT_SETTLED = NOT_SETTLED;
  promise.then((value) => {
    settled = { value };
  });
  probed = false;
  PROBE.then(markProbed);
  runTicks();
  return probed ? settled : NOT_SETTLED;
}

/** Node's `_tickCallback`; a Node without it drains nothing (the probe then says so). */
const runTicks: () => void =
  (process as unknown as { _tickCallback?: () => void })._tickCallback ?? (() => {});
