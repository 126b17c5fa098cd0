/**
 * What a call can come to, as data. Plugins map their handler's exceptions onto these;
 * the harness adds `unexpected` for anything a plugin let through and `notSent` for a lost request.
 */
import type { Result } from './operation.ts';

/**
 * Why a call was refused: `forbidden`, `unavailable`, `conflict`, or a reason the operation's
 * precondition names (e.g. `insufficient`).
 */
export type RefusalReason = string;

/** The argument a validation rule rejected: `requestId` or one of the operation's fields. */
export type InvalidField = string;

/** An outcome a handler may legitimately produce. */
export type Outcome =
  | { readonly kind: 'ok'; readonly result: Result; readonly replayed: boolean }
  | { readonly kind: 'refused'; readonly reason: RefusalReason }
  | { readonly kind: 'keyReuse' }
  | { readonly kind: 'invalid'; readonly field: InvalidField }
  | { readonly kind: 'error'; readonly message: string };

/** What the harness observed for one call: a handler outcome, or one of the harness's own. */
export type Observed =
  | Outcome
  /**
   * The plugin threw or returned something that is not an outcome: always a failure. `stack` is
   * the thrown error's stack down to the plugin's `call` (the harness's own frames cut off), for
   * `--verbose` and case files; comparisons ignore it. `errorClass` names the class of the
   * `Error` it threw (`TypeError`, `SqliteError`), so a report says what escaped; absent for a
   * thrown non-`Error` value and for what the harness itself observed.
   */
  | {
      readonly kind: 'unexpected';
      readonly message: string;
      readonly errorClass?: string;
      readonly stack?: string;
    }
  /** A lost request: the call never reached the handler. */
  | { readonly kind: 'notSent' };

/**
 * Constructors, so call sites read like the contract. A result may be any object of numbers and
 * strings (an interface of the user's own included); `isOutcome` checks its fields at run time.
 */
export const outcome = {
  fresh: (result: object): Outcome => ({ kind: 'ok', result: result as Result, replayed: false }),
  replayed: (result: object): Outcome => ({
    kind: 'ok',
    result: result as Result,
    replayed: true,
  }),
  refused: (reason: RefusalReason): Outcome => ({ kind: 'refused', reason }),
  keyReuse: (): Outcome => ({ kind: 'keyReuse' }),
  invalid: (field: InvalidField): Outcome => ({ kind: 'invalid', field }),
  error: (message: string): Outcome => ({ kind: 'error', message }),
} as const;

/**
 * Whether an observed outcome is the one the model expected. Error messages are free text and
 * are not compared; everything else is, including the replayed flag and the stored result.
 */
export function sameOutcome(expected: Observed, actual: Observed): boolean {
  switch (expected.kind) {
    case 'ok':
      return (
        actual.kind === 'ok' &&
        actual.replayed === expected.replayed &&
        sameResult(actual.result, expected.result)
      );
    case 'refused':
      return actual.kind === 'refused' && actual.reason === expected.reason;
    case 'invalid':
      return actual.kind === 'invalid' && actual.field === expected.field;
    default:
      return actual.kind === expected.kind;
  }
}

/**
 * What the model puts in a result field whose value the server assigns and the contract leaves
 * open (a created row's id, `OperationSpec.created.ids`): it matches any value.
 */
export const SERVER_ASSIGNED = '<server-assigned>';

/** Field-by-field equality of two call results; `SERVER_ASSIGNED` on either side matches any value. */
export function sameResult(a: Result, b: Result): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => a[k] === b[k] || a[k] === SERVER_ASSIGNED || b[k] === SERVER_ASSIGNED)
  );
}

/**
 * A result as text: `id 1 interval 30 v2` for `set_interval`'s shape, else each field and its
 * value, e.g. `accountId 1 balance 900` or `documentId 1 title "Q3 plan" version 2`.
 */
export function describeResult(r: Result): string {
  const keys = Object.keys(r);
  if (keys.length === 3 && 'id' in r && 'intervalMinutes' in r && 'version' in r)
    return `id ${r.id} interval ${r.intervalMinutes} v${r.version}`;
  return keys.map((k) => `${k} ${describeField(r[k])}`).join(' ');
}

/**
 * A field of a result, row or payload: a number bare, a string quoted (it may hold spaces). A
 * stored receipt holds what its handler wrote, which may be anything JSON can hold: an object or
 * `null` is shown as JSON.
 */
export function describeField(value: number | string | boolean | undefined): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** How the message of a call that returned with its transaction still open begins. */
export const LEFT_OPEN = 'returned with its transaction still open';

/**
 * What a call that answered `answered` but returned with its connection still inside a
 * transaction is observed as: always a failure (an escaped exception stays what it was). The harness rolls that transaction back to go
 * on, which would hide the bug: in a service, the transaction's locks stay held until the
 * connection is used again, and the next request on it runs inside the transaction (PostgreSQL
 * only warns at its `BEGIN`) or fails (an aborted one, SQLite's nested `BEGIN`).
 */
export function leftOpen(answered: Observed): Observed {
  // An exception that escaped is the failure already; the transaction it left is its doing.
  if (answered.kind === 'unexpected') return answered;
  return { kind: 'unexpected', message: `${LEFT_OPEN} (it answered ${describeOutcome(answered)})` };
}

/** Whether `o` is what `leftOpen` makes: a call that returned inside its transaction. */
export function isLeftOpen(o: Observed): boolean {
  return o.kind === 'unexpected' && o.errorClass === undefined && o.message.startsWith(LEFT_OPEN);
}

/** A short human rendering, e.g. `ok(replayed, id 1 interval 30 v2)` or `refused(conflict)`. */
export function describeOutcome(o: Observed): string {
  switch (o.kind) {
    case 'ok':
      return `ok(${o.replayed ? 'replayed' : 'fresh'}, ${describeResult(o.result)})`;
    case 'refused':
      return `refused(${o.reason})`;
    case 'invalid':
      return `invalid(${o.field})`;
    case 'error':
      return `error(${o.message})`;
    case 'unexpected':
      if (o.errorClass === undefined) return `unexpected error(${o.message})`;
      return `unexpected ${o.errorClass}${o.message ? `: ${o.message}` : ' (no message)'}`;
    default:
      return o.kind;
  }
}
