/**
 * The lanes of a scheduled runner as the coordinator drives them, whatever carries them out:
 * worker threads parking on shared memory (`lane-workers.ts`), or inline lanes replayed on the
 * coordinator's own thread (`inline-lanes.ts`). The coordinator sends a lane a command, reads its
 * reports and grants its points; both carriers give the same reports for the same grants, so a
 * trace does not depend on which ran it.
 */
import type { SettleNow } from '../../runtime/task.ts';
import type { CommandBody, GrantCode, Report } from './protocol.ts';

/**
 * An inline lane's call returned a promise: the coordinator yields `settle` from its task, which
 * runs the microtask queue at once (`task.ts`), and passes what the task was resumed with to
 * `resume`, which ends the lane's attempt and gives its report.
 */
export class AwaitingCall {
  constructor(
    readonly settle: SettleNow,
    readonly resume: (now: unknown) => Report | undefined,
  ) {}
}

/** One lane. */
export interface Lane {
  /**
   * Whether the lane's handler code runs on the coordinator's own thread (an inline lane), so the
   * coordinator's call budget must stop it; a thread lane is stopped by terminating its worker.
   */
  readonly onThisThread: boolean;
  /** Starts a command; its first report says where it parked. */
  send(command: CommandBody): void;
  /** Lets the parked lane go on with `grant`, passing up to `budget` points before it parks again. */
  grant(grant: GrantCode, budget?: number): void;
  /**
   * The lane's next report, or undefined when none came within `timeoutMs`; an inline lane whose
   * call returned a promise answers `AwaitingCall` first.
   */
  next(timeoutMs: number): Report | AwaitingCall | undefined;
}

/** A runner's lanes, by number. */
export interface Lanes {
  /** The principals' write scopes as calls read them at their start (1 = has write). */
  readonly scopes: Int32Array;
  /**
   * Lane `lane`, ready for a command: at once when it is (always, for inline lanes), else once its
   * worker has started, so a run that needs no new worker never waits for a promise.
   */
  get(lane: number): Lane | Promise<Lane>;
  /** Stops lane `lane` (its connection closes, rolling back); the next `get` gives a fresh one. */
  kill(lane: number): void | Promise<void>;
  /**
   * A run begins: the database was just reset to the template. Lanes that carry a connection
   * across runs give a plugin not declared replayable a new connection object from here on.
   */
  startRun?(): void;
  /** Stops every lane. Safe to call twice. */
  closeAll(): Promise<void>;
}
