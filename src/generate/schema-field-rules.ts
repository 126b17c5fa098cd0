/**
 * What a field read from a validation schema becomes, whether the schema is zod's
 * (`zod/fields-from-zod.ts`) or a JSON Schema (`json-schema/fields-from-json-schema.ts`): an id
 * or integer rule when the schema is a plain integer range the model's rule equals exactly, else
 * a custom rule that asks the schema itself, with valid and invalid samples sorted from candidate
 * values by the schema's own check. One place, so both languages are read by the same rules. Pure.
 */
import type { ArgumentField, FieldRule } from '../model/operation.ts';
import { fieldHolds } from '../model/validate.ts';

/** Most valid samples kept for a custom field: new intents draw from these. */
const VALID_MAX = 8;

/** Most invalid samples kept for a custom field (sent as its `declared invalid` class). */
const INVALID_MAX = 12;

/**
 * How far past each limit the generators reach (`edge-values.ts` draws `far out of range` up
 * to 100 000 beyond): an integer rule's limits must sit that far inside the safe range.
 */
const GENERATOR_REACH = 100_000;

/** The model's rules a plain integer schema can stand for. */
export type IntegerRule = Extract<FieldRule, { kind: 'id' | 'integer' }>;

/** A value new intents may send in a custom field. */
type Sample = number | string | boolean;

/**
 * The rule for the integers `[min, max]`: `id` for 1 up to the largest safe integer, else
 * `integer`; undefined when the generators, reaching past a limit, would leave the safe range.
 */
export function integerRuleFor(min: number, max: number): IntegerRule | undefined {
  const rule: IntegerRule =
    min === 1 && max === Number.MAX_SAFE_INTEGER ? { kind: 'id' } : { kind: 'integer', min, max };
  if (
    rule.kind === 'integer' &&
    (min - GENERATOR_REACH < Number.MIN_SAFE_INTEGER ||
      max + GENERATOR_REACH > Number.MAX_SAFE_INTEGER)
  )
    return undefined;
  return rule;
}

/** Whether `rule` judges every one of `probes` as the schema's check `accepts` does. */
export function ruleAgrees(
  rule: FieldRule,
  probes: readonly unknown[],
  accepts: (value: unknown) => boolean,
): boolean {
  return probes.every((v) => fieldHolds({ name: '', rule }, v) === accepts(v));
}

/**
 * `candidates` sorted by the schema's check, each side without repeats and in order: the
 * samples it accepts, and the values it refuses (booleans and null left out: they are the
 * generic classes' already, `field-classes.ts`).
 */
export function sortCandidates(
  candidates: readonly unknown[],
  accepts: (value: unknown) => boolean,
): { valid: Sample[]; invalid: unknown[] } {
  const valid = distinct(candidates.filter((v): v is Sample => isSample(v) && accepts(v)));
  const invalid = distinct(
    candidates.filter((v) => v !== null && typeof v !== 'boolean' && !accepts(v)),
  );
  return { valid, invalid };
}

/**
 * A field whose rule is the schema's check, with the first few samples of each side; optional
 * when the schema accepts the field left out, so new intents sometimes leave it out.
 */
export function customField(
  name: string,
  accepts: (value: unknown) => boolean,
  { valid, invalid }: { valid: readonly Sample[]; invalid: readonly unknown[] },
): ArgumentField {
  return {
    name,
    rule: { kind: 'custom', check: accepts, valid: valid.slice(0, VALID_MAX) },
    ...(invalid.length > 0 ? { invalid: invalid.slice(0, INVALID_MAX) } : {}),
    ...(acceptsAbsent(accepts) ? { optional: true } : {}),
  };
}

function acceptsAbsent(accepts: (value: unknown) => boolean): boolean {
  try {
    return accepts(undefined);
  } catch {
    return false;
  }
}

function isSample(value: unknown): value is Sample {
  return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean';
}

/** `values` without repeats (`Object.is`, so NaN once and -0 apart from 0), in order. */
function distinct<T>(values: readonly T[]): T[] {
  return values.filter((v, i) => values.findIndex((w) => Object.is(v, w)) === i);
}
