/**
 * Verdicts as data: why a run failed (an outcome, the final database, an invariant, or no serial
 * order), at the bottom so that checkers produce them and results, reports and case files carry
 * them without importing the checkers.
 */
import type { CallEvent, Event } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import type { Automation, Receipt } from '../model/world.ts';

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
       * Scheduled mode injected a statement fault into this call. The checker then accepts two
       * answers: `error` with nothing changed (the fault surfaced), or `expected` (the handler
       * recovered); `actual` is neither.
       */
      readonly faulted?: boolean;
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
  | LinearizabilityFailure;

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
      readonly what: 'automation';
      readonly id: number;
      readonly expected?: Automation;
      readonly actual?: Automation;
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
