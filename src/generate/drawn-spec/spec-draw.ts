/**
 * A drawn operation spec as plain data: every choice an operation spec makes (its fields and
 * their rules, the row's fields and what the effect does to each, the precondition's checks and
 * their refusal reasons, the rows it creates, the result, the payload, the world events, the
 * fixture) written down as JSON, so a spec can be drawn by fast-check, printed, saved beside a
 * case file and rebuilt the same on every thread (`spec-from-draw.ts`). The drawn-spec guard
 * draws these to hold the harness to "a correct handler always passes" beyond the built-ins.
 */

/** A value a client may send in a custom field. */
export type Sample = number | string | boolean;

/** A value a row or a result holds. */
export type Cell = number | string;

/** How a custom field's check is built: pure, from these parameters alone. */
export type CustomCheckDraw =
  /** Exactly these values (compared with `Object.is`). */
  | { readonly kind: 'oneOf'; readonly values: readonly Sample[] }
  /** A string of `min`–`max` UTF-16 units. */
  | { readonly kind: 'length'; readonly min: number; readonly max: number }
  /** A safe integer in `min`–`max` that `step` divides. */
  | {
      readonly kind: 'multipleOf';
      readonly step: number;
      readonly min: number;
      readonly max: number;
    }
  /** `true` or `false`. */
  | { readonly kind: 'boolean' };

/** A zod schema for one field, built by the zod bridge's side (`generate/zod/drawn-zod-field.ts`). */
export type ZodDraw =
  | { readonly type: 'int'; readonly min?: number; readonly max?: number }
  | { readonly type: 'intNotZero'; readonly min: number; readonly max: number }
  | { readonly type: 'number'; readonly min: number; readonly max: number }
  | { readonly type: 'string'; readonly min: number; readonly max: number }
  | { readonly type: 'regex'; readonly source: string }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'literal'; readonly value: Sample }
  | { readonly type: 'boolean' }
  | { readonly type: 'optional' | 'nullable'; readonly inner: ZodDraw }
  | { readonly type: 'union'; readonly options: readonly ZodDraw[] };

/** One argument field after the request id. */
export type FieldDraw =
  | { readonly kind: 'id'; readonly name: string }
  | {
      readonly kind: 'integer';
      readonly name: string;
      readonly min: number;
      readonly max: number;
      readonly nonZero: boolean;
      readonly typical?: readonly number[];
    }
  | {
      readonly kind: 'custom';
      readonly name: string;
      readonly check: CustomCheckDraw;
      readonly valid: readonly Sample[];
      /** JSON values only, so the draw stays plain data. */
      readonly invalid: readonly unknown[];
    }
  | { readonly kind: 'zod'; readonly name: string; readonly schema: ZodDraw };

/** What the effect does to one of the target row's fields. */
export type RowEffectDraw =
  | { readonly kind: 'keep' }
  /** The field becomes an argument's value (a non-number, non-string one as its `String`). */
  | { readonly kind: 'set'; readonly field: string }
  /** The field adds an integer argument (`sign` -1: subtracts it). */
  | { readonly kind: 'add'; readonly field: string; readonly sign: 1 | -1 }
  /** The field counts calls, `step` at a time. */
  | { readonly kind: 'count'; readonly step: number }
  /** The `version` field advances by one (an expected version's row field). */
  | { readonly kind: 'version' };

/** One of the target row's fields besides `id` and `workspace`. */
export interface RowFieldDraw {
  readonly name: string;
  /** Its value in a re-created row. */
  readonly init: Cell;
  readonly effect: RowEffectDraw;
}

/** One check of the precondition; the first that fails gives its reason. */
export type CheckDraw =
  /** The row's `version` differs from `expectedVersion`: `conflict`. */
  | { readonly kind: 'version' }
  /** The row field's new value (after the effect) would leave `min`–`max`. */
  | {
      readonly kind: 'bound';
      readonly row: string;
      readonly min: number;
      readonly max: number;
      readonly reason: string;
    }
  /** The `set` row field already holds the value the call would set. */
  | { readonly kind: 'unchanged'; readonly row: string; readonly reason: string };

/** Where a created row's field comes from. */
export type CreatedFromDraw =
  | { readonly kind: 'parent' }
  | { readonly kind: 'arg'; readonly field: string }
  | { readonly kind: 'const'; readonly value: Cell };

/** The rows a call creates. */
export interface CreatedDraw {
  readonly table: string;
  readonly fields: readonly { readonly name: string; readonly from: CreatedFromDraw }[];
  readonly resultId: string;
  /** What the spec declares; `undefined` leaves it to the default (opaque). */
  readonly ids: 'opaque' | 'rowid' | undefined;
  /** Created rows the fixture starts with: their ids and their fields' values by name. */
  readonly fixtureRows: readonly {
    readonly id: number;
    readonly values: Readonly<Record<string, Cell>>;
  }[];
}

/** The result: the target's id, some of the row's fields after the effect, echoed arguments. */
export interface ResultDraw {
  readonly targetId: string;
  readonly rowFields: readonly string[];
  readonly echo: readonly { readonly name: string; readonly field: string }[];
}

/** A fixture row of the target table: its id, its workspace, its fields' values by name. */
export interface FixtureRowDraw {
  readonly id: number;
  readonly workspace: string;
  readonly values: Readonly<Record<string, Cell>>;
}

/** A further target row, for an operation that writes two (`otherTargets`). */
export interface OtherTargetDraw {
  /** Its argument, an `id` field among the fields. */
  readonly name: string;
  /**
   * Per row field: kept, changed as the first row's is (`same`), or by the opposite of the first
   * row's change (`mirror`, for fields the call adds to or counts: a transfer's credit).
   */
  readonly effects: Readonly<Record<string, 'keep' | 'same' | 'mirror'>>;
  /** The row fields the result reports of it after the call, each as `peer_<field>`. */
  readonly resultFields: readonly string[];
}

/** Everything an operation spec chooses, as data. */
export interface SpecDraw {
  readonly noun: string;
  readonly table: string;
  /** The fields in validation order; `targetField` and `expectedVersion` (if any) among them. */
  readonly fields: readonly FieldDraw[];
  readonly targetField: string;
  readonly rowFields: readonly RowFieldDraw[];
  readonly checks: readonly CheckDraw[];
  readonly created?: CreatedDraw;
  readonly result: ResultDraw;
  /** The payload's key for each field; a field left out is not part of the intent. */
  readonly payload: readonly { readonly key: string; readonly field: string }[];
  /** Which world events apply; `undefined` for the default (all). */
  readonly events?: {
    readonly move: boolean;
    readonly delete: boolean;
    readonly recreate: boolean;
    readonly revoke: boolean;
    readonly storeFail: boolean;
  };
  readonly rows: readonly FixtureRowDraw[];
  /** Further target rows; absent for an operation that writes one row. */
  readonly others?: readonly OtherTargetDraw[];
}

/** What a field's valid values are: decides how the effect stores them. */
export type ValueKind = 'integer' | 'number' | 'string' | 'mixed';

/** The kind of every valid value of `field`. */
export function valueKindOf(field: FieldDraw): ValueKind {
  switch (field.kind) {
    case 'id':
    case 'integer':
      return 'integer';
    case 'custom':
      return customKind(field.check, field.valid);
    case 'zod':
      return zodKind(field.schema);
  }
}

function customKind(check: CustomCheckDraw, valid: readonly Sample[]): ValueKind {
  if (check.kind === 'multipleOf') return 'integer';
  if (check.kind === 'length') return 'string';
  if (check.kind === 'boolean') return 'mixed';
  return kindOfSamples(valid);
}

function kindOfSamples(values: readonly unknown[]): ValueKind {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => Number.isSafeInteger(v))) return 'integer';
  if (values.every((v) => typeof v === 'number')) return 'number';
  return 'mixed';
}

/** The kind of every value `schema` accepts. */
export function zodKind(schema: ZodDraw): ValueKind {
  switch (schema.type) {
    case 'int':
    case 'intNotZero':
      return 'integer';
    case 'number':
      return 'number';
    case 'string':
    case 'regex':
    case 'enum':
      return 'string';
    case 'literal':
      return kindOfSamples([schema.value]);
    case 'boolean':
    case 'optional':
    case 'nullable':
      return 'mixed';
    case 'union': {
      const kinds = new Set(schema.options.map(zodKind));
      if (kinds.size === 1) return [...kinds][0] as ValueKind;
      return kinds.has('mixed') || kinds.has('string') ? 'mixed' : 'number';
    }
  }
}

/** A short stable hash of `draw`'s JSON (FNV-1a, 32 bits, hex): the spec's name part. */
export function drawHash(draw: SpecDraw): string {
  const text = JSON.stringify(draw);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The operation's name for `draw`: `drawn-<hash>`, distinct per draw. */
export function drawnName(draw: SpecDraw): string {
  return `drawn-${drawHash(draw)}`;
}
