/**
 * Values for the input classes an ordinary call never reaches: every invalid class of every
 * field (wrong types, out of range, look-alike request ids) and the valid numeric extremes
 * (ids and versions beyond 32 bits or at MAX_SAFE_INTEGER). An edge move sends one of them in
 * one field of an otherwise well-formed request. Mostly the hand-picked examples below, which
 * include the article's cases; some classes also draw generated values so new shapes turn up.
 * Every value is held to its class by `input-classes.ts` (a test checks the examples).
 */
import fc from 'fast-check';
import { INPUT_CLASSES, type InputClass } from '../types/input-coverage.ts';
import { fieldClasses, REQUEST_FIELDS, type RequestField } from './input-classes.ts';

const SQL_LIKE = ['1 OR 1=1', "'; DROP TABLE receipts; --", '1; DELETE FROM automations'];

/** Examples shared by the three number fields, by class name after the field. */
const NUMBER_EXAMPLES: Record<string, readonly unknown[]> = {
  '0': [0, -0],
  negative: [-1, -3],
  'unsafe integer': [2 ** 53, -(2 ** 53) - 2, 1e21],
  fraction: [1.5, 0.5, 1.000001],
  'NaN or Infinity': [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
  'other string': [...SQL_LIKE, 'one'],
  boolean: [true, false],
  null: [null],
};

/** The extremes of the two id-like number fields: valid, but no row has them. */
const ID_EXAMPLES: Record<string, readonly unknown[]> = {
  ...NUMBER_EXAMPLES,
  // 2^32 + k wraps to k under `x | 0` or a 32-bit column: a row or version that exists.
  'beyond 32 bits': [2 ** 32 + 1, 2 ** 32 + 2, 2 ** 32 + 20, 2 ** 31],
  MAX_SAFE_INTEGER: [Number.MAX_SAFE_INTEGER],
  'numeric string': ['1', '2', ' 1', '1e0'],
};

/** Hand-picked values for each class an edge move aims at. */
export const EDGE_EXAMPLES: Partial<Record<InputClass, readonly unknown[]>> = {
  'requestId empty': [''],
  'requestId length 65': ['x'.repeat(65), 'r0-'.padEnd(65, 'x')],
  'requestId longer than 65': ['r0-'.padEnd(80, 'x'), 'y'.repeat(100)],
  'requestId space at an edge': ['r0 ', ' r0', 'r0\n', '\tr0'],
  'requestId punctuation or space inside': ['unsafe key', 'edit/42', 'a.b', '%', ...SQL_LIKE],
  'requestId NUL': ['r0\u0000', '\u0000', 'r\u00000'],
  'requestId accented letter': ['é', 'café', 'rè0'],
  // Cyrillic а and е, Greek ο: they render as the Latin letters.
  'requestId homoglyph': ['\u0430b', 'r\u0435q', 'r\u03bf0'],
  // ｒ０ and ｒ0: NFKC normalisation makes them r0.
  'requestId full-width': ['\uff52\uff10', 'r\uff10'],
  'requestId emoji': ['r0\u{1f600}', '\u{1f511}'],
  'requestId number': [42, 0, 1.5, -1, Number.NaN],
  'requestId null': [null],
  'requestId boolean': [true, false],
  'requestId array': [['r0'], []],
  // No `$number` or `$undefined` key: case files use those to tag special values.
  'requestId object': [{ id: 'r0' }, {}],
  ...prefixed('automationId', ID_EXAMPLES),
  ...prefixed('expectedVersion', ID_EXAMPLES),
  ...prefixed('intervalMinutes', {
    ...NUMBER_EXAMPLES,
    '4': [4],
    '1441': [1441],
    'far out of range': [1, 3, 10_000, 2 ** 31],
    'unsafe integer': [2 ** 53],
    fraction: [30.5, 4.5, 1440.5],
    'numeric string': ['30', '1440', '5.0'],
    'other string': [...SQL_LIKE, 'thirty'],
  }),
};

function prefixed(
  field: RequestField,
  examples: Record<string, readonly unknown[]>,
): Partial<Record<InputClass, readonly unknown[]>> {
  return Object.fromEntries(Object.entries(examples).map(([k, v]) => [`${field} ${k}`, v]));
}

const ID_CHAR = fc.constantFrom(...'abcxyz019_-');

/** Generated values beside the examples, for classes with room to vary. */
const GENERATED: Partial<Record<InputClass, fc.Arbitrary<unknown>>> = {
  'requestId longer than 65': fc.string({ unit: ID_CHAR, minLength: 66, maxLength: 100 }),
  'requestId punctuation or space inside': fc
    .string({ unit: fc.constantFrom(' ', '/', '.', '%', ':'), minLength: 1, maxLength: 3 })
    .map((s) => `r${s}0`),
  ...Object.fromEntries(
    (['automationId', 'expectedVersion'] as const).flatMap((f) => [
      [`${f} negative`, fc.integer({ max: -1 })],
      [`${f} fraction`, fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true })],
    ]),
  ),
  'intervalMinutes far out of range': fc.oneof(
    fc.integer({ min: -100, max: 3 }),
    fc.integer({ min: 1442, max: 100_000 }),
  ),
  'intervalMinutes fraction': fc.double({ min: 5, max: 1440, noInteger: true }),
};

/** The field an input class is about, for the classes an edge move may aim at. */
export function edgeField(cls: InputClass): RequestField {
  const field = REQUEST_FIELDS.find((f) => cls.startsWith(`${f} `));
  if (!field) throw new RangeError(`${cls} is not a request field's class`);
  return field;
}

/** The classes an edge move aims at, in `INPUT_CLASSES` order, leaving out `excluded`. */
export function edgeClasses(excluded: ReadonlySet<InputClass> = new Set()): InputClass[] {
  return INPUT_CLASSES.filter(
    (c) => EDGE_EXAMPLES[c] !== undefined && allowedValues(c, excluded).length > 0,
  );
}

/** An arbitrary value in class `cls` and in no class of `excluded`: mostly an example. */
export function edgeValue(
  cls: InputClass,
  excluded: ReadonlySet<InputClass> = new Set(),
): fc.Arbitrary<unknown> {
  const examples = fc.constantFrom(...allowedValues(cls, excluded));
  const generated = GENERATED[cls];
  if (!generated) return examples;
  const fits = (v: unknown) => inClassOnly(cls, v, excluded);
  return fc.oneof(
    { arbitrary: examples, weight: 4 },
    { arbitrary: generated.filter(fits), weight: 1 },
  );
}

function allowedValues(cls: InputClass, excluded: ReadonlySet<InputClass>): unknown[] {
  return (EDGE_EXAMPLES[cls] ?? []).filter((v) => inClassOnly(cls, v, excluded));
}

function inClassOnly(cls: InputClass, value: unknown, excluded: ReadonlySet<InputClass>): boolean {
  const classes = fieldClasses(edgeField(cls), value);
  return classes.includes(cls) && !classes.some((c) => excluded.has(c));
}
