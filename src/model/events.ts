/**
 * The vocabulary of generated sequences: calls, world events, and groups released together.
 * Everything here is plain JSON-able data (see `report/encode.ts` for NaN and friends), so a
 * sequence can be saved as a counterexample and replayed exactly.
 */

/**
 * The raw arguments of one call: the request id and the operation's fields by name (for
 * `set_interval`: `automationId`, `expectedVersion`, `intervalMinutes`). Deliberately `unknown`:
 * generators send invalid values too.
 */
export interface CallRequest {
  readonly requestId: unknown;
  readonly [field: string]: unknown;
}

/** A `set_interval` call's raw arguments, by name. */
export interface SetIntervalRequest extends CallRequest {
  readonly automationId: unknown;
  readonly expectedVersion: unknown;
  readonly intervalMinutes: unknown;
}

/**
 * What the network does to a call. `lostRequest`: it never reaches the handler.
 * `lostResponse`: it runs and commits, but the client never hears back and will retry later.
 */
export type Delivery = 'delivered' | 'lostRequest' | 'lostResponse';

/** One call of the operation by client `client` (an index into the fixture's principals). */
export interface CallEvent {
  readonly kind: 'call';
  readonly client: number;
  readonly request: CallRequest;
  readonly delivery: Delivery;
  /** Why the client sent it, for reports and coverage; the model ignores it. */
  readonly intent?: CallIntent;
}

/** What the client meant by a call: a new operation, a retry, a changed reuse of a key, or bad input. */
export type CallIntent = 'new' | 'retry' | 'reuse' | 'invalid';

/** Something that happens around calls, outside any handler call. */
export type WorldEvent =
  /** The client's principal loses the write scope (trusted context changes; the database does not). */
  | { readonly kind: 'revoke'; readonly client: number }
  /** The client's principal gets the write scope back. */
  | { readonly kind: 'restore'; readonly client: number }
  /** The target row (an automation, an account, …) moves to another workspace. */
  | { readonly kind: 'move'; readonly resourceId: number; readonly workspace: string }
  /** The target row is deleted; its receipts stay. */
  | { readonly kind: 'delete'; readonly resourceId: number }
  /**
   * A deleted id comes back as a new row (for `set_interval`, at version 1): the reference
   * design's known limit.
   */
  | { readonly kind: 'recreate'; readonly resourceId: number; readonly workspace: string }
  /** From now on every receipt insert fails, until `storeRestore`. */
  | { readonly kind: 'storeFail' }
  | { readonly kind: 'storeRestore' }
  /**
   * Time passes on the harness's clock: `ms` milliseconds, all at once, between calls. Generated
   * only for a plugin whose policy declares an expiry; what was stored longer ago than the
   * declared time is then gone.
   */
  | { readonly kind: 'clockAdvance'; readonly ms: number };

/** Anything the model steps over. */
export type Event = CallEvent | WorldEvent;

/** Events released at the same moment on separate connections (sequential mode runs them in order). */
export interface ConcurrentGroup {
  readonly kind: 'concurrent';
  readonly events: readonly Event[];
}

/** One numbered step of a sequence. */
export type Step = Event | ConcurrentGroup;

/**
 * What the client of a lost request sees: it never reached the server, so nothing ran and the
 * answer is `notSent`. Undefined for any other event. Every mode applies this one rule.
 */
export function unsentOutcome(event: Event): { readonly kind: 'notSent' } | undefined {
  return event.kind === 'call' && event.delivery === 'lostRequest'
    ? { kind: 'notSent' }
    : undefined;
}
