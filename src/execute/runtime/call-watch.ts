/**
 * The call budget for plugin code that runs on this thread: sequential mode, and scheduled mode's
 * plain steps and inline lanes. A call that does not return within `limitMs` is a hang, which
 * stops the run and is judged a failure like any other (`CallHung` carries it out of the run).
 *
 * How a synchronous loop is stopped: Node's `vm` runs a script under a watchdog thread
 * (`runInContext(ctx, {timeout})`) that terminates whatever JavaScript runs on this thread when it
 * fires, functions defined outside the script's context included, a `while (true) {}` in a
 * handler or a `catch` that swallows everything alike, and turns it into an ordinary error.
 * Arming it starts and joins a thread: measured here at 0.1-0.15 ms of CPU and 0.1-0.4 ms of
 * wall time in a tight loop on a loaded 2-core machine, and up to about 10 ms of wall time when
 * the watchdog thread has slept a while and must be scheduled again to be joined; armed per call
 * that made sequential mode 4 times slower, armed once per run it still doubled its wall time.
 * So it is armed neither per call nor per
 * run: synchronous work (`task.ts`; `api/explore.ts` strings many runs together) runs in
 * stretches, each under one watchdog that fires after `limitMs + slackMs`. Before any plugin code
 * starts, `enter` makes sure a stretch is armed and still has the whole budget ahead, asking for
 * a fresh one otherwise. When the watchdog fires, the plugin code running has therefore run for
 * at least `limitMs`: it is the hang, named by the activity `enter` recorded. A stretch ends when
 * the work waits for a promise that microtasks alone do not settle, yields to the event loop, or
 * has used its slack: with the default budget, about one arming per second of a handler's work.
 *
 * An async handler's `await`s do not end the stretch: `settle` asks the driver to run the
 * microtask queue at once, inside the stretch (`task.ts`, `SettleNow`), so the code after an
 * `await` runs watched, a loop there is stopped and named like one before it, and a call that
 * settles on microtasks (a handler awaiting a synchronous driver, as SQLite's are) goes on in the
 * same stretch: the cost does not grow with the number of awaits. Only a call still pending after
 * that (it awaits a timer or a socket) ends the stretch and races a timer of the budget.
 *
 * Limits, said where they apply:
 * - termination skips `finally` blocks, the run's own included: after a hang the runner closes
 *   and rolls back what the run held; microtasks queued beside the stopped code are dropped (V8
 *   empties the queue it was running), which ends only the hung run's own waits;
 * - code a handler runs after awaiting a timer or a socket runs from that callback, outside any
 *   stretch: a promise that never settles is caught (`settle`), a synchronous loop there is not.
 *   Such a handler needs concurrent mode or scheduled mode's thread lanes, which stop the thread.
 */
import vm from 'node:vm';
import { ReceiptcheckError } from '../../errors.ts';
import type { Event } from '../../model/events.ts';
import type { Hang, HangKind } from '../../types/verdict.ts';
import { pluginCodeStopped } from './contain/handler-output.ts';
import { drive, FRESH_STRETCH, NOT_SETTLED, SettleNow, type Task } from './task.ts';

/** The most a stretch's watchdog waits beyond the budget, in ms (how late a hang may be seen). */
const SLACK_MAX_MS = 1_000;

/** A run stopped at a hung call; `hang` says where. */
export class CallHung extends Error {
  constructor(readonly hang: Hang) {
    super(`step ${hang.step + 1} lane ${hang.lane + 1} did not return within ${hang.limitMs} ms`);
    this.name = 'CallHung';
  }
}

/** Plugin code about to run on this thread (or, for a thread lane, the wait for it). */
export interface Activity {
  readonly step: number;
  readonly lane: number;
  /** Absent for the snapshot after the last step. */
  readonly event?: Event;
}

const context = vm.createContext({ stretch: undefined as (() => unknown) | undefined });
const script = new vm.Script('stretch()', { filename: 'receiptcheck-call-watch.vm' });
/** When the armed stretch's watchdog fires (`performance.now()` ms); 0 while none is armed. */
let stretchEnds = 0;
/** How many watchdogs this thread has armed (each a thread started and joined). */
let armed = 0;

/** How many watchdogs this thread has armed so far: what the call budget cost, for tests. */
export function watchdogsArmed(): number {
  return armed;
}

/** One runner's call budget. */
export class CallWatch {
  readonly limitMs: number;
  /** How far past the budget a stretch's watchdog fires. */
  readonly slackMs: number;
  /** The plugin code running (recorded by `enter` or `tryBegin`), and since when. */
  private activity: Activity | undefined;
  private startedAt = 0;
  /** The room a stretch must have left for plugin code to start in it: the budget and a margin. */
  private readonly roomMs: number;

  constructor(limitMs: number) {
    this.limitMs = limitMs;
    this.slackMs = Math.min(limitMs, SLACK_MAX_MS);
    this.roomMs = limitMs + this.marginMs();
  }

  /**
   * Runs `task` to its end, its synchronous stretches under the watchdog. Rejects with `CallHung`
   * when plugin code ran past the budget (stopped, or returned late) or a promise it returned did
   * not settle in time.
   */
  run<T>(task: Task<T>): Promise<T> {
    return drive(task, (fn, watched) => this.stretch(fn, watched), true);
  }

  /**
   * Call before plugin code runs (`yield*` it): asks for a fresh, watched stretch when none is
   * armed or this one has less than the budget left, then records what runs, for the hang report.
   */
  *enter(activity: Activity): Task<void> {
    if (this.tryBegin(activity)) return;
    yield FRESH_STRETCH;
    this.begin(activity);
  }

  /**
   * `enter` without a generator, for the per-call path: records `activity` as running from now
   * and returns true when the armed stretch has the whole budget ahead; otherwise records nothing
   * and returns false, and the caller must `yield FRESH_STRETCH`, then call `begin(activity)`.
   */
  tryBegin(activity: Activity): boolean {
    const now = performance.now();
    if (stretchEnds - now < this.roomMs) return false;
    this.activity = activity;
    this.startedAt = now;
    return true;
  }

  /** Records `activity` as running from now, in the fresh stretch `tryBegin` asked for. */
  begin(activity: Activity): void {
    this.activity = activity;
    this.startedAt = performance.now();
  }

  /** Call when that code returned: throws `CallHung` (seen as `how`) if it took longer than the budget. */
  leave(how: HangKind = 'busy'): void {
    const activity = this.activity;
    this.activity = undefined;
    if (activity && performance.now() - this.startedAt > this.limitMs)
      throw new CallHung(this.hang(activity, how));
  }

  /**
   * Waits for a promise the plugin returned, at most the budget (`yield*` it): what it resolved
   * to, or what it rejected with; throws `CallHung` (`unsettled`) when it did not settle in time.
   * The timer is not unref'd: a never-settling promise alone would let the process exit mid-check.
   */
  *settle(activity: Activity, promise: Promise<unknown>): Task<Settled> {
    const outcome = settledOf(promise);
    // The microtasks run now, in this stretch: plugin code after an `await` runs here, watched,
    // and the watchdog names this call if it fires.
    this.activity = activity;
    const since = performance.now();
    const now = (yield new SettleNow(outcome)) as { readonly value: Settled } | typeof NOT_SETTLED;
    this.activity = undefined;
    if (now !== NOT_SETTLED) {
      if (performance.now() - since > this.limitMs) throw new CallHung(this.hang(activity, 'busy'));
      return now.value;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.limitMs);
    });
    const first = (yield Promise.race([outcome, late]).finally(() => clearTimeout(timer))) as
      | Settled
      | 'late';
    if (first === 'late') throw new CallHung(this.hang(activity, 'unsettled'));
    return first;
  }

  /** The hang of `activity`, seen as `how`. */
  hang(activity: Activity, how: HangKind): Hang {
    return {
      step: activity.step,
      lane: activity.lane,
      ...(activity.event ? { event: activity.event } : {}),
      limitMs: this.limitMs,
      how,
    };
  }

  /** A safety margin so a thread lane's own wait (at most the budget) ends before the watchdog. */
  private marginMs(): number {
    return Math.min(this.slackMs / 2, 50);
  }

  private stretch<R>(fn: () => R, watched: boolean): R {
    // Unasked, or inside another task's stretch (covered by its watchdog): no watchdog to arm.
    if (!watched || stretchEnds) return fn();
    const timeoutMs = this.limitMs + this.slackMs;
    const ends = performance.now() + timeoutMs;
    stretchEnds = ends;
    armed++;
    context.stretch = fn;
    try {
      return script.runInContext(context, { timeout: timeoutMs }) as R;
    } catch (thrown) {
      if (isWatchdogTimeout(thrown) && performance.now() >= ends - 1) throw this.fired();
      throw thrown;
    } finally {
      stretchEnds = 0;
      context.stretch = undefined;
    }
  }

  /** The watchdog fired: the plugin code running has run for at least the budget. */
  private fired(): Error {
    pluginCodeStopped();
    const activity = this.activity;
    this.activity = undefined;
    if (activity) return new CallHung(this.hang(activity, 'busy'));
    return new ReceiptcheckError(
      'E_INTERNAL',
      `receiptcheck's own code ran for ${this.limitMs + this.slackMs} ms without a plugin call in progress (a machine so loaded that a run stalled, or a harness bug); raise --call-timeout-ms if this machine is that slow`,
    );
  }
}

/**
 * Inside a task (`yield*` it): when the watched stretch running it has less than `ms` left before
 * its watchdog fires, asks for a fresh one, so harness work of up to `ms` (drawing a batch of
 * cases) never runs into the watchdog. Nothing outside a watched stretch.
 */
export function* stretchRoom(ms: number): Task<void> {
  if (stretchEnds !== 0 && stretchEnds - performance.now() < ms) yield FRESH_STRETCH;
}

/** What a settled promise came to. */
export type Settled =
  | { readonly value: unknown; readonly failed?: undefined }
  | { readonly error: unknown; readonly failed: true };

/** `promise` turned into what it came to, fulfilled or rejected, as a promise that never rejects. */
export function settledOf(promise: Promise<unknown>): Promise<Settled> {
  return promise.then(
    (value): Settled => ({ value }),
    (error: unknown): Settled => ({ error, failed: true }),
  );
}

function isWatchdogTimeout(thrown: unknown): boolean {
  return (thrown as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}
