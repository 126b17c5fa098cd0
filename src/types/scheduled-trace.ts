/**
 * What scheduled mode records, as plain data: every grant the coordinator gave (which lane ran
 * which statement, where one was blocked, faulted or crashed) and how each lane of each step
 * ended. The lanes view, the trace hash and the checker all read this; nothing here touches a
 * thread or a database.
 */
import type { Event } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';

/**
 * The SQLite code of an injected statement fault, and how its message starts: what a failing
 * receipt store raises (docs/contract.md, "Statement fault"). Here so reports can name it.
 */
export const INJECTED_FAULT_CODE = 'SQLITE_CONSTRAINT_TRIGGER';
export const INJECTED_FAULT_MESSAGE =
  'receiptcheck: injected statement fault (the write failed as a failing store does)';

/** Where a lane stood when the coordinator let it go on. */
export type PointKind =
  /** Before the handler is called (the principal's scope is read here). */
  | 'start'
  /** Before one SQL statement (prepare is free; run/get/all/iterate/exec/pragma are points). */
  | 'statement'
  /** After the handler returned, before the client hears back. */
  | 'reply'
  /** A revoke or restore, applied by the coordinator itself. */
  | 'scope'
  /** A world event of a plain step, run by the harness outside any lane. */
  | 'world'
  /** Every lane left was blocked on a lock nothing running could release. */
  | 'stall';

/** What the coordinator granted at a point. */
export type GrantKind =
  | 'run'
  /** The statement was not run; an SQLite-like write failure was thrown into the handler. */
  | 'fault'
  /** The lane's worker died here: its connection closed, its transaction rolled back, no reply. */
  | 'crash'
  /** A blocked statement's (virtual) busy timeout ran out: SQLITE_BUSY reached the handler. */
  | 'giveUp';

/** One grant, in the order they were given. */
export interface TraceEntry {
  readonly step: number;
  /** The lane within the step; -1 for the harness's own notes (stalls). */
  readonly lane: number;
  readonly point: PointKind;
  readonly grant: GrantKind;
  /** The statement text (or a world event's description). */
  readonly sql?: string;
  /** The statement's bound parameters, as text; for reports only (the trace hash leaves them out). */
  readonly params?: readonly string[];
  /** `ok`, `blocked` (plain SQLITE_BUSY, the lane parked to retry) or the SQLite error code it raised. */
  result?: string;
  /** The statement made writes durable (a commit, or a write outside a transaction). */
  durable?: boolean;
  /** The scheduler chose among several runnable lanes here (a drawn choice was used). */
  readonly chose?: boolean;
}

/** How one lane of one step ended. */
export type LaneEnd =
  | {
      readonly kind: 'observed';
      readonly observed: Observed;
      /** A statement fault was injected into this call. */
      readonly faulted: boolean;
      /**
       * After its fault, a write of this call became durable: the call recorded something once the
       * write failed (a library storing the error under the key, or deleting its claim). Absent
       * when nothing was; read only under policy `storesErrors`.
       */
      readonly durableAfterFault?: true;
    }
  | {
      readonly kind: 'crashed';
      /** Some write of this call became durable before the crash. */
      readonly committed: boolean;
    }
  | { readonly kind: 'applied' };

/** One lane of one step, executed. */
export interface LaneRecord {
  readonly step: number;
  readonly lane: number;
  readonly event: Event;
  readonly end: LaneEnd;
  /**
   * The grant at which the lane took effect as the scheduler saw it: its last durable write (a
   * commit), else the last statement that ran (where an answer that changed nothing was settled),
   * else its start. Lanes of a group are tried in this order first.
   */
  readonly effectAt: number;
}

/** A lane that could run at a decision, and where it stood: what an explorer's dependency relation reads. */
export interface DecisionCandidate {
  readonly lane: number;
  readonly point: PointKind;
  /** The statement it is parked before, if any. */
  readonly sql?: string;
  /** The statement writes (as the engine classed it); transaction control is not a write. */
  readonly write: boolean;
  /** It is retrying a statement that met a lock. */
  readonly blocked: boolean;
}

/**
 * One grant of a gated step as the scheduler made it: the lanes that could run, the lane that ran
 * last and the lane granted. Recorded only when asked (`ScheduledExecution.decisions`), for the
 * prover, which forces prefixes of choices and branches at every decision with several candidates.
 */
export interface DecisionRecord {
  readonly step: number;
  /** The candidates in lane order (one when nothing was chosen). */
  readonly candidates: readonly DecisionCandidate[];
  readonly last: number | undefined;
  /**
   * The lane that ran last slept since its grant (waited on a timer or I/O), so the choice here
   * was counted from the lane after it, and a switch away from it is not a preemption.
   */
  readonly lastSlept?: true;
  /** The lane granted. */
  readonly lane: number;
  /** A choice of the step's schedule entry was used here (several candidates). */
  readonly chose: boolean;
  /** What the grant was: a plain run, a fault, a crash or a give-up. */
  readonly grant: GrantKind;
}
