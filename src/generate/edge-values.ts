/**
 * Values for the input classes an ordinary call never reaches: every invalid class of every
 * field (wrong types, out of range, look-alike request ids) and the valid numeric extremes
 * (ids and versions beyond 32 bits or at MAX_SAFE_INTEGER). An edge move sends one of them in
 * one field of an otherwise well-formed request. Mostly hand-picked examples
 * (`invalid-values.ts`, and `hand-picked.ts` for `set-interval`'s interval), else derived from
 * the field's rule and its declared invalid values; some classes also draw generated values so
 * new shapes turn up. Every value is held to its class by `input-classes.ts` (a test checks the
 * examples).
 */
import fc from 'fast-check';
import type { ArgumentField, FieldRule, OperationSpec } from '../model/operation.ts';
import { type ClassName, inputClassesOf } from './field-classes.ts';
import { handPicked } from './hand-picked.ts';
import { fieldClasses } from './input-classes.ts';
import {
  CUSTOM_EXAMPLES,
  ID_EXAMPLES,
  NUMBER_EXAMPLES,
  REQUEST_ID_EXAMPLES,
  SQL_LIKE,
} from './invalid-values.ts';

type Examples = Readonly<Record<string, readonly unknown[]>>;
type IntegerRule = Extract<FieldRule, { kind: 'integer' }>;

/** Examples for each class an edge move of `spec` aims at, by class name. */
export function edgeExamples(spec: OperationSpec): Examples {
  return {
    ...REQUEST_ID_EXAMPLES,
    ...Object.fromEntries(spec.fields.flatMap((f) => prefixed(f.name, fieldExamples(spec, f)))),
  };
}

function fieldExamples(spec: OperationSpec, field: ArgumentField): Examples {
  const declared: Examples = field.invalid?.length ? { 'declared invalid': field.invalid } : {};
  const rule = field.rule;
  const own =
    rule.kind === 'id'
      ? ID_EXAMPLES
      : rule.kind === 'integer'
        ? (handPicked(spec.name, field.name).examples ?? integerExamples(rule))
        : CUSTOM_EXAMPLES;
  return { ...own, ...declared };
}

/** Examples of an integer field's classes, from its limits. */
function integerExamples(rule: IntegerRule): Examples {
  const { min, max } = rule;
  return {
    ...NUMBER_EXAMPLES,
    [String(min - 1)]: [min - 1],
    [String(max + 1)]: [max + 1],
    'far out of range': [min - 2, max + 2, 2 ** 31, -(2 ** 31)],
    'unsafe integer': [2 ** 53],
    fraction: [min + 0.5, max - 0.5, 1.5],
    'numeric string': [String(min), String(max), `${max}.0`],
    'other string': [...SQL_LIKE, 'ten'],
  };
}

/** `byClass` with each class name put after `field`. */
function prefixed<T>(field: string, byClass: Readonly<Record<string, T>>): [string, T][] {
  return Object.entries(byClass).map(([k, v]) => [`${field} ${k}`, v]);
}

/** Generated values beside the examples of `field`'s classes, for classes with room to vary. */
function fieldGenerated(
  spec: OperationSpec,
  field: ArgumentField,
): Readonly<Record<string, fc.Arbitrary<unknown>>> {
  const rule = field.rule;
  if (rule.kind === 'id')
    return {
      negative: fc.integer({ max: -1 }),
      fraction: fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
    };
  if (rule.kind !== 'integer') return {};
  return (
    handPicked(spec.name, field.name).generated ?? {
      'far out of range': fc.oneof(
        fc.integer({ min: rule.min - 100_000, max: rule.min - 2 }),
        fc.integer({ min: rule.max + 2, max: rule.max + 100_000 }),
      ),
      // A field of one value (min = max) has no fraction inside its limits: one just past them.
      fraction:
        rule.min < rule.max
          ? fc.double({ min: rule.min, max: rule.max, noInteger: true })
          : fc.constant(rule.min + 0.5),
    }
  );
}

const ID_CHAR = fc.constantFrom(...'abcxyz019_-');

/** Generated request ids beside the examples. */
const REQUEST_ID_GENERATED: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  'requestId longer than 65': fc.string({ unit: ID_CHAR, minLength: 66, maxLength: 100 }),
  'requestId punctuation or space inside': fc
    .string({ unit: fc.constantFrom(' ', '/', '.', '%', ':'), minLength: 1, maxLength: 3 })
    .map((s) => `r${s}0`),
};

/** The field an input class of `spec` is about: `requestId` or one of its fields' names. */
export function edgeField(cls: ClassName, spec: OperationSpec): string {
  const field = ['requestId', ...spec.fields.map((f) => f.name)].find((f) =>
    cls.startsWith(`${f} `),
  );
  if (!field) throw new RangeError(`${cls} is not a request field's class`);
  return field;
}

/**
 * What edge moves of one operation draw from: the classes they aim at and a value in a class.
 * Built once per arbitrary, since the examples derive from the spec.
 */
export interface EdgeValues {
  /** The classes an edge move aims at, in `inputClassesOf` order, leaving out the excluded. */
  readonly classes: ClassName[];
  /** An arbitrary value in class `cls` and in no excluded class: mostly an example. */
  readonly value: (cls: ClassName) => fc.Arbitrary<unknown>;
}

/** The edge values of `spec`, leaving out `excluded`'s classes and every value also in one. */
export function edgeValues(
  spec: OperationSpec,
  excluded: ReadonlySet<ClassName> = new Set(),
): EdgeValues {
  const examples = edgeExamples(spec);
  const generated = {
    ...REQUEST_ID_GENERATED,
    ...Object.fromEntries(spec.fields.flatMap((f) => prefixed(f.name, fieldGenerated(spec, f)))),
  };
  const inClassOnly = (cls: ClassName, value: unknown) => {
    const classes = fieldClasses(edgeField(cls, spec), value, [], spec);
    return classes.includes(cls) && !classes.some((c) => excluded.has(c));
  };
  const allowed = (cls: ClassName) => (examples[cls] ?? []).filter((v) => inClassOnly(cls, v));
  // Every edge move asks for its class's arbitrary (inside a `chain`): built once per class, as
  // an arbitrary is immutable and draws the same from the same random source.
  const byClass = new Map<ClassName, fc.Arbitrary<unknown>>();
  const build = (cls: ClassName): fc.Arbitrary<unknown> => {
    const picked = fc.constantFrom(...allowed(cls));
    const extra = generated[cls];
    if (!extra) return picked;
    return fc.oneof(
      { arbitrary: picked, weight: 4 },
      { arbitrary: extra.filter((v) => inClassOnly(cls, v)), weight: 1 },
    );
  };
  return {
    classes: inputClassesOf(spec).filter((c) => examples[c] !== undefined && allowed(c).length > 0),
    value: (cls) => {
      let arbitrary = byClass.get(cls);
      if (!arbitrary) {
        arbitrary = build(cls);
        byClass.set(cls, arbitrary);
      }
      return arbitrary;
    },
  };
}
