/**
 * What a generated client or the world decides to do, before it is made concrete. Moves refer
 * to things by small indices ("the client's second pending request", "an automation in the
 * client's workspace"), so every shrink of a move list still resolves to a realistic sequence.
 */
import type { Delivery } from '../model/events.ts';
import type { RequestField } from './input-classes.ts';
import type { IdChoice } from './request-ids.ts';

/** Which version a new intent expects: the one the client last saw, one behind it, or one ahead. */
export type VersionChoice = 'known' | 'stale' | 'ahead';

/** What a reused key changes compared with the request it first carried. */
export type ReuseChange = 'target' | 'version' | 'interval';

/** The racing shapes concurrent groups take. */
export type RaceShape =
  /** The same request sent twice or more at once by one client. */
  | 'duplicate'
  /** One key, different intervals, at once. */
  | 'mismatch'
  /** The same request id text from different principals. */
  | 'crossPrincipal'
  /** Different keys, one automation, the same expected version. */
  | 'sameVersion'
  /** Calls on different automations. */
  | 'disjoint'
  /** A world event (move, delete, revoke) released with a call it affects. */
  | 'worldRace';

/** One abstract move. `target` picks an automation; `pick` picks a request the client sent before. */
export type Move =
  | {
      readonly kind: 'intent';
      readonly client: number;
      /** How its fresh request id is made; absent, `r<n>`. */
      readonly id?: IdChoice;
      readonly target: number;
      readonly interval: number;
      readonly version: VersionChoice;
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
      readonly field: RequestField;
      readonly value: unknown;
    }
  | { readonly kind: 'scope'; readonly client: number; readonly granted: boolean }
  | { readonly kind: 'move'; readonly target: number; readonly workspace: number }
  | { readonly kind: 'delete'; readonly target: number }
  | { readonly kind: 'recreate'; readonly target: number; readonly workspace: number }
  | { readonly kind: 'store'; readonly failing: boolean }
  | {
      readonly kind: 'race';
      readonly shape: RaceShape;
      readonly clients: readonly number[];
      readonly target: number;
      readonly intervals: readonly number[];
      readonly world: 'move' | 'delete' | 'revoke';
    };
