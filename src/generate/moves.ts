/**
 * What a generated client or the world decides to do, before it is made concrete. Moves refer
 * to things by small indices ("the client's second pending request", "a target row in the
 * client's workspace"), so every shrink of a move list still resolves to a realistic sequence.
 * The same moves serve every operation: field values are named by the operation's fields.
 */
import type { Delivery } from '../model/events.ts';
import type { IdChoice } from './request-ids.ts';
import type { FieldValue } from './value-fields.ts';

/**
 * Which version a new intent expects: the one the client last saw, one behind it, or one ahead.
 * Only for a versioned operation (`versioning.ts`).
 */
export type VersionChoice = 'known' | 'stale' | 'ahead';

/**
 * What a reused key changes compared with the request it first carried: the target, or one
 * other field by name (for `set-interval`, `expectedVersion` or `intervalMinutes`).
 */
export type ReuseChange = string;

/** The racing shapes concurrent groups take. */
export type RaceShape =
  /** The same request sent twice or more at once by one client. */
  | 'duplicate'
  /** One key, different values of the first value field, at once. */
  | 'mismatch'
  /** The same request id text from different principals. */
  | 'crossPrincipal'
  /**
   * Different keys, one target row (and, when versioned, the same expected version); when a
   * value field can cross the precondition, values that pass it alone but not together.
   */
  | 'sameVersion'
  /** Calls on different target rows. */
  | 'disjoint'
  /** A world event (move, delete, revoke) released with a call it affects. */
  | 'worldRace';

/** One abstract move. `target` picks a target row; `pick` picks a request the client sent before. */
export type Move =
  | {
      readonly kind: 'intent';
      readonly client: number;
      /** How its fresh request id is made; absent, `r<n>`. */
      readonly id?: IdChoice;
      readonly target: number;
      /** A value for each of the operation's value fields (`value-fields.ts`), by name. */
      readonly values: Readonly<Record<string, FieldValue>>;
      /** Present only for a versioned operation. */
      readonly version?: VersionChoice;
      readonly delivery: Delivery;
    }
  | {
      readonly kind: 'retry';
      readonly client: number;
      readonly pick: number;
      readonly delivery: Delivery;
    }
  | {
      readonly kind: 'reuse';
      readonly client: number;
      readonly pick: number;
      readonly change: ReuseChange;
      readonly delivery: Delivery;
    }
  | {
      /** A new intent with one field from an edge class (`edge-values.ts`), valid or not. */
      readonly kind: 'edge';
      readonly client: number;
      readonly target: number;
      /** `requestId` or one of the operation's fields. */
      readonly field: string;
      readonly value: unknown;
    }
  | { readonly kind: 'scope'; readonly client: number; readonly granted: boolean }
  | { readonly kind: 'move'; readonly target: number; readonly workspace: number }
  | { readonly kind: 'delete'; readonly target: number }
  | { readonly kind: 'recreate'; readonly target: number; readonly workspace: number }
  | { readonly kind: 'store'; readonly failing: boolean }
  /**
   * Time passes: a short step (about 2/5 of the declared expiry) or a long one (1.5 times it).
   * Only for a policy that declares an expiry.
   */
  | { readonly kind: 'clock'; readonly long: boolean }
  | {
      readonly kind: 'race';
      readonly shape: RaceShape;
      readonly clients: readonly number[];
      readonly target: number;
      /** Values of the first value field, one per call (unused when the operation has none). */
      readonly values: readonly FieldValue[];
      readonly world: 'move' | 'delete' | 'revoke';
      /** Which of the values that conflict through the precondition the members send (`sameVersion`); whether a `mismatch` changes a value or the row. */
      readonly pick: number;
    }
  | {
      /**
       * A new intent whose value in one ordered field sits at the precondition's edge against the
       * row it will meet, one either side of it, or at the field's limits (`seek-request.ts`).
       */
      readonly kind: 'seek';
      readonly client: number;
      readonly target: number;
      /** Which ordered field (`seekableFields`), modulo their number. */
      readonly field: number;
      /** Which of the candidate values, modulo their number. */
      readonly pick: number;
      readonly delivery: Delivery;
    };
