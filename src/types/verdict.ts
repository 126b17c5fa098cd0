/**
 * Verdicts as data: why a run failed (an outcome, the final database, an invariant, no serial
 * order, or a call that never returned), at the bottom so that checkers produce them and results, reports and case files carry
 * them without importing the checkers.
 */
import type { CallEvent, Event } from '../model/events.ts';
import type { Row } from '../model/operation.ts';
import type { Observed } from '../model/outcome.ts';
import type { Receipt } from '../model/world.ts';

/** One reason a run failed. */
export type Failure =
  | {
      readonly kind: 'outcome';
      readonly step: number;
      readonly lane: number;
      readonly event: CallEvent;
      readonly expected: Observed;
      readonly actual: Observed;
      /**
       * A second outcome the contract allows here besides `expected` (a claim met by another
       * payload: `keyReuse` or `refused: conflict`); `actual` is neither.
       */
      readonly alsoAllowed?: Observed;
      /**
       * Scheduled mode injected a statement fault into this call. The checker then accepts two
       * answers: `error` with nothing changed (the fault surfaced), or `expected` (the handler
       * recovered); `actual` is neither.
       */
      readonly faulted?: boolean;
      /**
       * Scheduled mode, when no order explains the run: other lanes of this step that an order
       * blaming as few calls blames instead, having explained this call's outcome. At least one
       * of them or this call answered wrongly; no order says which.
       */
      readonly orInstead?: readonly number[];
    }
  | {
      readonly kind: 'snapshot';
      readonly differences: readonly SnapshotDifference[];
      /**
       * Calls with an injected statement fault that answered neither `error` nor the model's
       * outcome. `differences` count their changes as the model gives them; the database fits no
       * reading where any of them changed nothing either, which the checker would also accept.
       */
      readonly faulted?: readonly { readonly step: number; readonly lane: number }[];
    }
  | ({ readonly kind: 'invariant' } & InvariantViolation)
  /** Concurrent mode: no serial order explains the outcomes (longest fitting prefix, stuck calls). */
  | LinearizabilityFailure
  /** A call did not return within the call budget; the run stopped there. */
  | ({ readonly kind: 'hang' } & Hang);

/**
 * How a hang was seen and stopped: `busy`, its synchronous code on this thread ran past the
 * budget (it was stopped there, or it returned late); `unsettled`, the promise it returned did not
 * settle within the budget (it was abandoned); `thread`, the worker thread running it gave no
 * sign within the budget (it was terminated).
 */
export type HangKind = 'busy' | 'unsettled' | 'thread';

/**
 * A call (or a world event, or the snapshot after the last step) that did not return within the
 * call budget. The run stops there: what the plugin did meanwhile is unknown, so nothing after it
 * is judged.
 */
export interface Hang {
  readonly step: number;
  readonly lane: number;
  /** The event that hung; absent when the plugin's `snapshot` did (then `step` is one past the last). */
  readonly event?: Event;
  readonly limitMs: number;
  readonly how: HangKind;
}

/** The verdict on one run. Failures are ordered: outcomes first (in step order), then the database, then invariants. */
export type RunVerdict =
  | { readonly verdict: 'ok' }
  | { readonly verdict: 'failed'; readonly failures: readonly Failure[] };

/** A broken invariant, as data. */
export interface InvariantViolation {
  readonly invariant: string;
  readonly message: string;
  /** The step most to blame, when one is. */
  readonly step?: number;
}

/** One difference between the expected and the actual snapshot. */
export type SnapshotDifference =
  | {
      /** What the row is: the operation's noun (`automation`) or its created rows' (`invoice`). */
      readonly what: string;
      readonly id: number;
      readonly expected?: Row;
      readonly actual?: Row;
    }
  | {
      readonly what: 'receipt';
      readonly key: string;
      readonly expected?: Receipt;
      readonly actual?: Receipt;
    };

/** One operation of a concurrent history, where it stood in the sequence, and what it did. */
export interface PlacedOperation {
  /** The history entry id. */
  readonly id: number;
  readonly step: number;
  readonly lane: number;
  readonly event: Event;
  /** What the client saw; absent for world events and lost responses. */
  readonly observed?: Observed;
  /** Interval on the run's clock, in ms from its start; no `completedAt` when unknown. */
  readonly invokedAt: number;
  readonly completedAt?: number;
  /** For a stuck call: what the model answers right after the longest prefix. */
  readonly expected?: Observed;
}

/** The `linearizability` failure of a concurrent run. */
export interface LinearizabilityFailure {
  readonly kind: 'linearizability';
  /** `illegal`: no order fits; `unknown`: the checker reached a limit (`reason`) first. */
  readonly verdict: 'illegal' | 'unknown';
  /** The longest order that respects real time and in which every outcome matches the model. */
  readonly longestPrefix: readonly PlacedOperation[];
  /** The operations that could have come next but did not fit; a call among them is to blame. */
  readonly stuck: readonly PlacedOperation[];
  readonly reason?: string;
  /** Set when `longestPrefix` was cut to its tail for display: the full prefix's length. */
  readonly prefixLength?: number;
}
