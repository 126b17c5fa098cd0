/**
 * The port between the one grant loop (`gated-step.ts`) and an engine's lanes. The loop decides
 * who goes next and writes the trace; a driver carries a grant out on its engine and says where
 * the lane stopped next, as a `LaneReport`. SQLite's lanes (worker threads, or inline lanes on
 * the coordinator's thread) and PostgreSQL's (async tasks on connections of their own) are
 * drivers; a lane's connection lives and dies in its driver: opened in `open`, ended in `kill`.
 *
 * Every method is a task (`task.ts`): a driver that never waits (SQLite's inline lanes) keeps a
 * step one synchronous stretch; one that waits on a server yields its promises.
 */
import type { Observed } from '../../model/outcome.ts';
import type { GrantKind } from '../../types/scheduled-trace.ts';
import type { Task } from '../runtime/task.ts';
import type { Stall } from './decide.ts';
import type { LaneState } from './lane-state.ts';
import type { PassedPoint, StatementEnd } from './statement-end.ts';

/** How a lane's event is started: where it parks first, and what its step's plan holds for it. */
export interface LaunchPlan {
  /** Park at the call's start, before any plugin code runs (a scope race, or a crash there). */
  readonly parkAtStart: boolean;
  /** The reply is a yield point of the call (a crash is planned there). */
  readonly parkAtReply: boolean;
  /** The yield point the lane crashes at, or -1. */
  readonly crashAt: number;
  /** The write the lane faults at, or -1. */
  readonly faultAt: number;
}

/**
 * Where a lane stopped after a launch or a grant. `prev` is how the statement the grant ran
 * ended; `passed`, the points passed since under a run-ahead budget; `freed`, the coordinator
 * rolled back a transaction the plugin left open (what it held is free again); `slept`, the
 * lane's code waited on something other than microtasks (a timer, I/O) since the grant, so its
 * next decision hands over (`decide.ts`). A lane that sleeps passes no point under its budget.
 */
export type LaneReport =
  /** Parked before the handler is called. */
  | { readonly type: 'start' }
  /** Parked before a statement. */
  | {
      readonly type: 'statement';
      readonly sql: string;
      readonly params?: readonly string[];
      readonly write: boolean;
      readonly prev?: StatementEnd;
      readonly passed?: readonly PassedPoint[];
      readonly slept?: boolean;
    }
  /** The statement waits on a lock; `timeoutMs` until a busy handler would give up. */
  | {
      readonly type: 'blocked';
      readonly timeoutMs: number;
      readonly prev?: StatementEnd;
      readonly passed?: readonly PassedPoint[];
      readonly slept?: boolean;
    }
  /** The call returned; `parked` when the reply is a point of its own. */
  | {
      readonly type: 'reply';
      readonly observed: Observed;
      readonly parked: boolean;
      readonly slept?: boolean;
      readonly prev?: StatementEnd;
      readonly passed?: readonly PassedPoint[];
      readonly freed?: boolean;
    }
  /** A world event finished. */
  | {
      readonly type: 'done';
      readonly prev?: StatementEnd;
      readonly passed?: readonly PassedPoint[];
      readonly freed?: boolean;
    }
  /** After a crash grant: nothing more of the lane reaches the database. */
  | { readonly type: 'crashed' };

/** What an engine's lanes do for the grant loop; one driver per gated step. */
export interface LaneDriver {
  /** Most points one grant lets a lane pass without parking (0: park at every point). */
  readonly runAheadMax: number;
  /** Whether a crash grant stops the lane from outside (`kill`) rather than inside it. */
  readonly crashKills: boolean;
  /** Readies the carriers of the lanes that will run plugin code (a connection each, a worker). */
  open(lanes: readonly LaneState[]): Task<void>;
  /**
   * Starts lane `s`'s event (a call or a world event); true when a report follows (`next`),
   * false when the lane waits at its start with nothing running yet.
   */
  launch(s: LaneState, plan: LaunchPlan): Task<boolean>;
  /** The lane's next report, within the call budget (a hang past it throws). */
  next(s: LaneState): Task<LaneReport>;
  /**
   * Carries out `kind` at the lane's point (not a scope point, not a crash the loop kills) with
   * a run-ahead `budget`, and returns where the lane stopped; undefined when the grant let the
   * lane's reply go and nothing follows.
   */
  grant(s: LaneState, kind: GrantKind, budget: number): Task<LaneReport | undefined>;
  /** After every grant: lets what a grant woke settle (PostgreSQL's lock waiters). */
  afterGrant?(lanes: readonly LaneState[]): Task<void>;
  /** Stops lane `s` where it is (a crash, a livelock): its transaction rolls back, its locks go. */
  kill(s: LaneState): Task<void>;
  /** A revoke or restore takes effect for the calls that start from now on. */
  applyScope(client: number, granted: boolean): void;
  /**
   * No lane can run: the trace entry's text, and the error that ends the run when the engine
   * cannot wait a stall out (PostgreSQL waits on locks for ever); else the clock jumps.
   */
  stall(
    stall: Stall,
    jumpMs: number,
    live: readonly LaneState[],
  ): { readonly sql: string; readonly ends?: Error };
}
