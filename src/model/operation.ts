/**
 * An operation spec: what differs between one retry-receipt tool and another. The contract's
 * generic rules (scope, validation, current access, the receipt keyed by workspace, user, tool
 * revision and request id, replay, the precondition, the receipt committed with the effect) are
 * the model's; the arguments, the target resource, the precondition and the effect are the
 * spec's. The model, the generators, the checkers and the reports read the spec, so a user's own
 * tool is checked by the same machinery as the built-ins (`operations/`).
 *
 * A spec is plain data plus pure functions: no I/O, no randomness. Generators derive their
 * values from each field's `rule` and `samples`, so the model needs no generator library.
 */
import type { Args, Fixture, Payload, Result, Row } from './world.ts';

export type { Args, Payload, Result, Row } from './world.ts';

/**
 * How a field is validated and generated.
 * - `id`: a positive safe integer naming a row (booleans, floats, strings, NaN are not);
 * - `integer`: a safe integer in `min`–`max`, and not 0 when `nonZero`;
 * - `custom`: the spec's own check, with valid and invalid samples for the generators.
 */
export type FieldRule =
  | { readonly kind: 'id' }
  | {
      readonly kind: 'integer';
      readonly min: number;
      readonly max: number;
      readonly nonZero?: boolean;
    }
  | {
      readonly kind: 'custom';
      readonly check: (value: unknown) => boolean;
      /**
       * Values that pass `check`; the generators draw new intents from them. Booleans for a
       * field whose valid values are booleans (a custom rule that accepts booleans has no
       * `boolean` invalid class; likewise `null`).
       */
      readonly valid: readonly (number | string | boolean)[];
    };

/** One argument of a call, in the order validation checks them. */
export interface ArgumentField {
  /** The argument's name in a request, e.g. `intervalMinutes`. */
  readonly name: string;
  readonly rule: FieldRule;
  /**
   * The field may be left out of a request (zod's `.optional()`, a JSON Schema property not
   * `required`): new intents sometimes omit it, so the handler meets it absent, and its rule's
   * check must accept `undefined`. Only for a `custom` rule.
   */
  readonly optional?: boolean;
  /** Values that break the rule, sent as invalid input besides the generic ones (types, NaN, …). */
  readonly invalid?: readonly unknown[];
  /**
   * What a client of this field usually sends: for `id` fields, unused; for `integer` fields,
   * the values new intents pick among (default: the bounds and a few inside).
   */
  readonly typical?: readonly (number | string)[];
}

/** Rows a call creates, with ids the server assigns: the next integer after the largest (SQLite's rowid rule). */
export interface CreatedRows {
  /** Table name in fixtures and snapshots, e.g. `invoices`. */
  readonly table: string;
  /** The created row's fields besides `id`, in display order. */
  readonly fields: readonly string[];
  /** The result field that carries the created row's id, e.g. `invoiceId`. */
  readonly resultId: string;
  /**
   * How the server assigns ids. `opaque` (the default, the contract): the model does not
   * predict them; a result's id matches any value (`SERVER_ASSIGNED`), and what holds the real
   * ids to account is order-free: a replay returns its fresh call's id, no two fresh creates
   * share one, each created row belongs to one receipt, and the created rows equal the model's
   * up to their ids. `rowid`: one more than the largest so far, in commit order (SQLite's
   * `INTEGER PRIMARY KEY`), predicted and compared exactly.
   */
  readonly ids?: 'opaque' | 'rowid';
}

/** Whether `spec` creates rows whose ids the model does not predict. */
export function opaqueIds(spec: OperationSpec): boolean {
  return spec.created !== undefined && spec.created.ids !== 'rowid';
}

/**
 * What the effect returns: the target row after the call, the other target rows after it (in
 * `otherTargets` order, for an operation that writes several rows), a created row if any, and
 * the result.
 */
export interface Effect {
  readonly row: Row;
  /** The other target rows after the call (`otherTargets`' order), when the spec names any. */
  readonly others?: readonly Row[];
  readonly created?: Row;
  readonly result: Result;
}

/** Which world events make sense for the operation's resources (default: all). */
export interface WorldEvents {
  readonly move?: boolean;
  readonly delete?: boolean;
  readonly recreate?: boolean;
  readonly revoke?: boolean;
  readonly storeFail?: boolean;
}

/** Everything that differs between one retry-receipt tool and another. */
export interface OperationSpec {
  /** The name users pick it by, e.g. `set-interval`. */
  readonly name: string;
  /** One line for `receiptcheck operations`. */
  readonly description: string;
  /** The tool revision in every receipt key, e.g. `set_interval.v1`. */
  readonly tool: string;
  /** The scope a principal needs, e.g. `automation:write`. */
  readonly scope: string;
  /** What reports call a target row, e.g. `automation`. */
  readonly noun: string;
  /** The target table's name in fixtures and snapshots, e.g. `automations`. */
  readonly table: string;
  /** The target row's fields besides `id` and `workspace`, in display order. */
  readonly rowFields: readonly string[];
  /** The argument that names the target row (its rule is `id`). */
  readonly targetField: string;
  /**
   * Further arguments naming target rows of the same table, each an `id` field, for an operation
   * that writes several rows in one transaction (a transfer's credited account). Every target
   * must exist in the principal's workspace (else `unavailable`), and the targets must be
   * distinct rows: a target field naming a row an earlier one names is invalid.
   */
  readonly otherTargets?: readonly string[];
  /**
   * The arguments after the request id, in validation order; `targetField` among them. An `id`
   * field named `expectedVersion`, with `version` among `rowFields`, is an expected version:
   * new intents send the version the client last saw, not an id of a row.
   */
  readonly fields: readonly ArgumentField[];
  /** The result's fields, in display order. */
  readonly resultFields: readonly string[];
  /** The canonical payload of validated arguments. Two calls with equal payloads are the same intent. */
  readonly payload: (args: Args) => Payload;
  /**
   * The refusal the precondition gives (e.g. `conflict` for a stale version), or undefined when
   * it holds. Checked after the receipt lookup. `others`: the other target rows, in
   * `otherTargets` order (empty for a one-row operation).
   */
  readonly precondition?: (row: Row, args: Args, others: readonly Row[]) => string | undefined;
  /** Refusal reasons beyond forbidden, unavailable and conflict that the precondition may give. */
  readonly refusals?: readonly string[];
  /**
   * The effect, pure: the target row and the arguments to the new row, created row and result.
   * `others`: the other target rows, in `otherTargets` order; the effect returns them changed as
   * `Effect.others` (an operation that writes one row ignores both).
   */
  readonly effect: (row: Row, args: Args, nextId: number, others: readonly Row[]) => Effect;
  /** Rows the operation creates, if it creates any. */
  readonly created?: CreatedRows;
  /** The row a `recreate` event puts back under a deleted id. */
  readonly recreated: (id: number, workspace: string) => Row;
  /** Where every run starts: target rows under `table` (and `created.table`, usually empty). */
  readonly fixture: Fixture;
  /** Which world events the generators produce (default: all). */
  readonly events?: WorldEvents;
  /**
   * Set when every write advances its target row's `version` by one and the result carries the
   * row's `id` and new `version` (set-interval). "Every effect has its receipt" is then checked
   * through versions (`row-change-has-receipt.ts`, `fresh-advances-version.ts`), which tell a
   * repeated or lost write apart where two writes to one row do not commute; without it, by
   * replaying the receipts' effects on the starting rows (`effects-match-receipts.ts`).
   */
  readonly versioned?: boolean;
}

/** Declares an operation spec with full type checking; returns it unchanged. */
export function defineOperation(spec: OperationSpec): OperationSpec {
  return spec;
}

/** The target rows of a fixture or snapshot, for `spec`. */
export function targetRows(
  tables: { readonly [table: string]: unknown },
  spec: OperationSpec,
): readonly Row[] {
  return (tables[spec.table] ?? []) as readonly Row[];
}

/** The created rows of a fixture or snapshot, for `spec` (empty when it creates none). */
export function createdRows(
  tables: { readonly [table: string]: unknown },
  spec: OperationSpec,
): readonly Row[] {
  return spec.created ? ((tables[spec.created.table] ?? []) as readonly Row[]) : [];
}

/** The arguments that name target rows: `targetField`, then `otherTargets`. */
export function targetFieldsOf(spec: OperationSpec): readonly string[] {
  return spec.otherTargets ? [spec.targetField, ...spec.otherTargets] : [spec.targetField];
}

/** Whether `spec` writes more than one target row per call (`otherTargets`). */
export function writesSeveralRows(spec: OperationSpec): boolean {
  return spec.otherTargets !== undefined && spec.otherTargets.length > 0;
}

/** The ids a validated request names in `spec`'s target fields, in `targetFieldsOf` order. */
export function targetIdsOf(
  spec: OperationSpec,
  request: { readonly [field: string]: unknown },
): number[] {
  return targetFieldsOf(spec).map((f) => request[f] as number);
}

/** Whether a world event kind is one the spec's resources take part in. */
export function allowsEvent(spec: OperationSpec, kind: keyof WorldEvents): boolean {
  return spec.events?.[kind] ?? true;
}
