/**
 * The one protocol between the main thread and the concurrent-mode workers: what the main thread
 * asks (`WorkerTask`) and what a worker answers (`WorkerReply`), both unions keyed by `type`.
 * Everything here crosses `postMessage`, so it is structured-clone data; a SharedArrayBuffer
 * crosses by reference, which is how the release barrier, a run's board and journals, and the
 * scope table are shared. Errors cross as plain `{code, message}` (`ErrorData`), never as thrown
 * objects.
 */
import type { ErrorData } from '../../../errors.ts';
import type { CallEvent, WorldEvent } from '../../../model/events.ts';
import type { Observed } from '../../../model/outcome.ts';
import type { Principal } from '../../../model/world.ts';

/** A barrier for `parties` tasks (see `gate.ts`); each task that carries it waits for the others. */
export interface GateRef {
  readonly buffer: SharedArrayBuffer;
  readonly parties: number;
}

/** The principals' write scopes, shared by every worker of a run (see `scope-table.ts`). */
export interface ScopeTableRef {
  readonly buffer: SharedArrayBuffer;
  readonly principals: number;
}

/** World events a worker applies to the database (scope changes go through `scope` tasks). */
export type DatabaseEvent = Exclude<WorldEvent, { kind: 'revoke' } | { kind: 'restore' }>;

/** What every task carries: how long any wait inside the worker may last, in ms. */
interface TaskBase {
  readonly limitMs: number;
  /** Present when the task is one lane of a group released together. */
  readonly gate?: GateRef;
}

/** Main thread → worker. */
export type WorkerTask =
  /** Load the plugin now, so the first timed call does not pay for it. Carries a gate so every worker gets one. */
  | (TaskBase & { readonly type: 'warm'; readonly handlerPath: string; readonly gate: GateRef })
  /** One `set_interval` call as `principal` (its write scope read from `scopes` at invocation). */
  | (TaskBase & {
      readonly type: 'call';
      readonly handlerPath: string;
      readonly dbPath: string;
      readonly scopes: ScopeTableRef;
      readonly principal: Principal;
      readonly event: CallEvent;
      /** Concurrent mode's run number: a plugin that is not `replayable` gets a connection object per run. */
      readonly run?: number;
    })
  /** A move, delete, re-create or receipt-store change, through the plugin. */
  | (TaskBase & {
      readonly type: 'world';
      readonly handlerPath: string;
      readonly dbPath: string;
      readonly event: DatabaseEvent;
      /** As for `call`. */
      readonly run?: number;
    })
  /** A revoke or restore: a write to the shared scope table, between that principal's calls. */
  | (TaskBase & {
      readonly type: 'scope';
      readonly scopes: ScopeTableRef;
      readonly client: number;
      readonly granted: boolean;
    })
  /**
   * This worker's share of one concurrent run (`run-plan.ts`): its parts in run order, each
   * started once the run's board reaches that part's phase (`run-board.ts`), every item journalled
   * as it finishes (`run-journal.ts`); ends at the first item that fails, or when the board is
   * aborted (another worker's item failed or was stopped).
   */
  | (TaskBase & {
      readonly type: 'script';
      readonly parts: readonly ScriptPart[];
      readonly board: SharedArrayBuffer;
      readonly journal: SharedArrayBuffer;
    })
  /** Close this worker's connections (`dbPath`'s and any older one). Carries a gate so every worker gets one. */
  | (TaskBase & { readonly type: 'release'; readonly dbPath: string; readonly gate: GateRef });

/**
 * One item of a script: a call, world event or scope change, or `stamp` for a lost request among
 * plain steps, which runs nothing but is stamped where it stands between its neighbours.
 */
export type ScriptItem =
  | Extract<WorkerTask, { readonly type: 'call' | 'world' | 'scope' }>
  | { readonly type: 'stamp' };

/**
 * One part of a script: a run of plain steps (one party), or this worker's lane of a concurrent
 * group's wave (as many parties as the wave's lanes that reach a worker, released together by the
 * gate their items carry).
 */
export interface ScriptPart {
  /** The board's phase this part runs in; phases run one after another, from 0. */
  readonly phase: number;
  /** How many parts (on distinct workers) make up this phase. */
  readonly parties: number;
  readonly items: readonly ScriptItem[];
}

/**
 * Worker → main thread. Times are `sharedClockMs()` readings. Any reply may carry what plugin code
 * printed on the worker since the last (`output`).
 */
export type WorkerReply = (
  | { readonly type: 'warmed' }
  | {
      readonly type: 'called';
      readonly observed: Observed;
      readonly invokedAt: number;
      readonly completedAt: number;
    }
  | { readonly type: 'applied'; readonly invokedAt: number; readonly completedAt: number }
  | { readonly type: 'released' }
  | { readonly type: 'stamped'; readonly at: number }
  /** A script's replies in item order, each with its own `output`: all of them, or up to the first that failed, or up to the board's abort. */
  | { readonly type: 'scripted'; readonly replies: readonly WorkerReply[] }
  | { readonly type: 'failed'; readonly error: ErrorData }
) & { readonly output?: string };

/** The `workerData` every concurrent-mode worker starts with. */
export interface ConcurrentWorkerData {
  /** URL of the TypeScript worker module, for `ts-worker-entry.mjs`. */
  readonly tsEntry: string;
}
