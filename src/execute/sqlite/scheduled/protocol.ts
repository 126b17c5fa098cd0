/**
 * The one protocol between the scheduled-mode coordinator (main thread) and its lane workers.
 *
 * Two channels, each for what it is good at:
 * - messages (`Command` down, `Report` up, unions keyed by `type`) on a private MessageChannel.
 *   The coordinator reads reports synchronously with `receiveMessageOnPort`, so it never needs its
 *   event loop while a step runs;
 * - shared memory for the hand-off itself: each worker parks on its own grant slot
 *   (`Atomics.wait`) until the coordinator stores a `Grant` there, bumps the slot's grant count
 *   and notifies it, and every report rings one doorbell word shared by all workers, on which the
 *   coordinator waits.
 * Nothing is left to timing: a worker goes on only when the grant count moved (a wake-up without
 * a grant parks it again), and every report is stamped with the command it belongs to and its
 * number within it, so the coordinator drops what belongs to an earlier command and stops with
 * `E_WORKER` on a report out of order, rather than act on the wrong one.
 * The write scopes of the principals live in shared memory too, so a call reads its scope at the
 * moment its start is granted, not when its command was sent.
 * Errors cross as plain `{code, message}` data.
 */
import type { MessagePort } from 'node:worker_threads';
import type { ErrorData } from '../../../errors.ts';
import type { CallEvent, WorldEvent } from '../../../model/events.ts';
import type { Observed } from '../../../model/outcome.ts';
import type { Principal } from '../../../model/world.ts';
import type { LaneReport } from '../../schedule/lane-driver.ts';
import type { PassedPoint, StatementEnd } from '../../schedule/statement-end.ts';

/** What the coordinator stores in a worker's grant slot. */
export const Grant = {
  /** The worker is parked (the slot's resting value). */
  parked: 0,
  /** Run the statement (or retry it, after a block). */
  run: 1,
  /** Do not run the write statement; throw an SQLite-like failure into the handler instead. */
  fault: 2,
  /** Die here: close the connection (rolling back), run nothing more, never reply. */
  crash: 3,
  /** Stop retrying a blocked statement: its busy timeout ran out; throw SQLITE_BUSY. */
  giveUp: 4,
} as const;

/** A grant value. */
export type GrantCode = (typeof Grant)[keyof typeof Grant];

/** World events a worker applies through the plugin (scope changes stay on the coordinator). */
export type DatabaseEvent = Exclude<WorldEvent, { kind: 'revoke' } | { kind: 'restore' }>;

/** The Int32 words of a worker's grant slot. */
export const Slot = { grant: 0, budget: 1, count: 2, size: 3 } as const;

/** A report as it crosses: stamped with its command's id (-1 outside any) and its number within it. */
export type Stamped = Report & {
  readonly command: number;
  readonly seq: number;
  /** What plugin code printed on the worker since its last report (`contain/handler-output.ts`). */
  readonly output?: string;
};

/** Coordinator → worker, as the coordinator writes it (`LaneWorker.send` numbers it). */
export type CommandBody =
  /**
   * One call, gated: park before every statement, and at its start and before its reply when
   * asked. Those two points only matter for a crash planned there, or (the start) for a scope
   * change racing the call; skipping them otherwise saves two hand-offs per call.
   */
  | {
      readonly type: 'call';
      readonly dbPath: string;
      readonly principal: Principal;
      readonly event: CallEvent;
      readonly parkAtStart: boolean;
      readonly parkAtReply: boolean;
      /** The yield point a crash is planned at (the worker parks there whatever its budget), or -1. */
      readonly crashAt: number;
      /** The write statement a fault is planned at (likewise), or -1. */
      readonly faultAt: number;
    }
  /** One world event, gated: park before every statement. */
  | { readonly type: 'world'; readonly dbPath: string; readonly event: DatabaseEvent };

/**
 * Coordinator → worker, as it crosses: `id` numbers a worker's commands from 1; `run` numbers the
 * runner's runs, so that a worker gives a plugin not declared replayable a connection object of
 * each run's own (the database is reset in place between runs, `shared-database.ts`).
 */
export type Command = CommandBody & { readonly id: number; readonly run: number };

/** The points a worker passed under its run-ahead budget since its last report, in order. */
type Passed = { readonly passed: readonly PassedPoint[] };

/**
 * Worker → coordinator. `prev` is how the statement run right after the last grant ended;
 * `passed`, the points passed since then under the run-ahead budget, in order.
 */
export type Report =
  | { readonly type: 'ready' }
  /** Parked before the handler is called. */
  | { readonly type: 'start' }
  /** Parked before a statement (the grant loop's report, with what was passed on the way). */
  | (Extract<LaneReport, { type: 'statement' }> & Passed)
  /** The statement hit a plain SQLITE_BUSY a busy handler would wait out; parked to retry it. */
  | (Extract<LaneReport, { type: 'blocked' }> & Passed & { readonly code: string })
  /** After the handler returned, with what the client would hear; `parked` unless passed or not a point. */
  | {
      readonly type: 'reply';
      readonly observed: Observed;
      readonly prev?: StatementEnd;
      readonly passed: readonly PassedPoint[];
      /** The handler left a transaction open; the worker rolled it back before replying. */
      readonly leaked: boolean;
      readonly parked: boolean;
      /** The call waited on a timer or I/O since its last grant (only on a parked reply). */
      readonly slept?: boolean;
    }
  /** A gated world event finished. */
  | {
      readonly type: 'done';
      readonly prev?: StatementEnd;
      readonly passed: readonly PassedPoint[];
      readonly leaked: boolean;
    }
  /** After a crash grant: the handler's stack has unwound; nothing reached the database. */
  | { readonly type: 'crashed' }
  | { readonly type: 'failed'; readonly error: ErrorData };

/** The `workerData` every scheduled-mode worker starts with. */
export interface ScheduledWorkerData {
  /** URL of `scheduled-worker.ts`, for `ts-worker-entry.mjs`. */
  readonly tsEntry: string;
  readonly handlerPath: string;
  /** The worker's end of its private channel. */
  readonly port: MessagePort;
  /** Three Int32s (`Slot`): the grant, the run-ahead budget (points it may pass), the grant count. */
  readonly slot: SharedArrayBuffer;
  /** One Int32 shared by every worker: bumped after each report. */
  readonly doorbell: SharedArrayBuffer;
  /** One Int32 per client: 1 while that principal holds the write scope. */
  readonly scopes: SharedArrayBuffer;
}
