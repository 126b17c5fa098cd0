/**
 * fast-check arbitraries for a drawn spec's argument fields (`FieldDraw`), one per rule kind: an
 * extra `id`, an `integer` with bounds from small to the edge of the safe range, a `custom` rule
 * with its valid and invalid samples (each sample on the side its check puts it), and a field a
 * zod schema declares, for the zod bridge to derive. Pure data out; nothing here loads zod.
 */
import fc from 'fast-check';
import { customCheck } from './custom-check.ts';
import type { CustomCheckDraw, FieldDraw, Sample, ZodDraw } from './spec-draw.ts';

/** Largest magnitude of a field an `add` effect may add, so sums stay exact integers. */
export const ADDABLE_MAX = 1_000_000;

const SAFE = Number.MAX_SAFE_INTEGER;

/** Integer bounds: small, cents-like, or reaching the edge of the safe range. */
const boundsArbitrary: fc.Arbitrary<{ min: number; max: number }> = fc.oneof(
  fc
    .tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 2000 }))
    .map(([min, span]) => ({ min, max: min + span })),
  fc.constantFrom(
    { min: 1, max: 10_000_000 },
    { min: -ADDABLE_MAX, max: ADDABLE_MAX },
    { min: 0, max: 0 },
    { min: 5, max: 5 },
    { min: -SAFE, max: SAFE },
    { min: 1, max: SAFE },
    { min: -(2 ** 31), max: 2 ** 31 - 1 },
  ),
);

function integerField(name: string): fc.Arbitrary<FieldDraw> {
  return fc
    .record({ bounds: boundsArbitrary, nonZero: fc.boolean(), typicalSize: fc.nat({ max: 3 }) })
    .filter(({ bounds, nonZero }) => !(nonZero && bounds.min === 0 && bounds.max === 0))
    .chain(({ bounds: { min, max }, nonZero, typicalSize }) => {
      const zeroInside = min < 0 && max > 0;
      const excluded = nonZero && zeroInside;
      const inside = fc
        .integer({ min, max })
        .filter((v) => !(excluded && v === 0) && !(nonZero && v === 0));
      return (
        typicalSize === 0
          ? fc.constant([])
          : fc.uniqueArray(inside, { minLength: 1, maxLength: typicalSize })
      ).map((typical) => ({
        kind: 'integer' as const,
        name,
        min,
        max,
        nonZero: nonZero && (zeroInside || min === 0 || max === 0),
        ...(typical.length > 0 ? { typical } : {}),
      }));
    });
}

const WORDS = ['red', 'green', 'Blue', 'Ünïcode ✓', 'a b', '', ' ', 'x'.repeat(40), 'null', '0'];
// No -0: a draw travels as JSON (the plugin module holds it), which has no -0.
const NUMBERS = [0, 1, -1, 7, 2.5, 1e9, 2 ** 40, 0.1];

const customCheckArbitrary: fc.Arbitrary<CustomCheckDraw> = fc.oneof(
  fc
    .uniqueArray(fc.constantFrom<Sample>(...WORDS), { minLength: 1, maxLength: 4 })
    .map((values) => ({ kind: 'oneOf' as const, values })),
  fc
    .uniqueArray(fc.constantFrom<Sample>(...NUMBERS), {
      minLength: 1,
      maxLength: 3,
      comparator: 'SameValue',
    })
    .map((values) => ({ kind: 'oneOf' as const, values })),
  fc
    .uniqueArray(fc.constantFrom<Sample>('on', 3, true, false, 'off'), {
      minLength: 2,
      maxLength: 3,
    })
    .map((values) => ({ kind: 'oneOf' as const, values })),
  fc
    .tuple(fc.nat({ max: 5 }), fc.nat({ max: 40 }))
    .map(([min, span]) => ({ kind: 'length' as const, min, max: min + span })),
  fc
    .tuple(
      fc.integer({ min: 2, max: 10 }),
      fc.integer({ min: -100, max: 0 }),
      fc.integer({ min: 10, max: 1000 }),
    )
    .map(([step, min, max]) => ({ kind: 'multipleOf' as const, step, min, max })),
  fc.constant({ kind: 'boolean' as const }),
);

/** Candidate samples for a check; each lands among the valid or the invalid by the check itself. */
function candidatesFor(check: CustomCheckDraw): unknown[] {
  switch (check.kind) {
    case 'oneOf':
      return [...check.values, ...WORDS, ...NUMBERS, 'on', 'off', 3, true, false, 'x'];
    case 'length':
      return [
        check.min,
        check.max,
        check.min - 1,
        check.max + 1,
        Math.trunc((check.min + check.max) / 2),
      ]
        .filter((n) => n >= 0)
        .map((n): unknown => 'ab✓'.repeat(n).slice(0, n))
        .concat([7, 'Ünï'.slice(0, Math.max(check.min, 1))]);
    case 'multipleOf':
      return [
        check.min,
        check.max,
        0,
        check.step,
        check.step * 3,
        check.step + 1,
        check.max + check.step,
        check.min - check.step,
        String(check.step),
      ];
    case 'boolean':
      return [true, false, 'true', 0, 1];
  }
}

function customField(name: string): fc.Arbitrary<FieldDraw> {
  return customCheckArbitrary
    .map((check) => {
      const holds = customCheck(check);
      const all = candidatesFor(check).filter(
        (v, i, a) => a.findIndex((w) => Object.is(v, w)) === i,
      );
      const valid = all.filter((v): v is Sample => holds(v) && isSample(v));
      const invalid = all.filter((v) => !holds(v) && v !== null && typeof v !== 'boolean');
      return { kind: 'custom' as const, name, check, valid, invalid };
    })
    .filter((f) => f.valid.length > 0)
    .chain((f) =>
      fc
        .subarray([...f.valid], { minLength: 1 })
        .chain((valid) => fc.subarray([...f.invalid]).map((invalid) => ({ ...f, valid, invalid }))),
    );
}

function isSample(v: unknown): v is Sample {
  return typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';
}

const PATTERNS = ['^[a-z]{2,6}$', '^[A-Z][0-9]{3}$', '^(draft|final)-[0-9]{1,3}$'];

const zodLeaf: fc.Arbitrary<ZodDraw> = fc.oneof(
  fc.constantFrom<ZodDraw>(
    { type: 'int', min: 1 },
    { type: 'int', min: 0, max: 100 },
    { type: 'int' },
  ),
  fc
    .tuple(fc.integer({ min: -1000, max: 10 }), fc.integer({ min: 1, max: 5000 }))
    .map(([min, span]): ZodDraw => ({ type: 'int', min, max: min + span })),
  fc
    .tuple(fc.integer({ min: -1000, max: -1 }), fc.integer({ min: 1, max: 1000 }))
    .map(([min, max]): ZodDraw => ({ type: 'intNotZero', min, max })),
  fc
    .tuple(fc.integer({ min: -10, max: 10 }), fc.integer({ min: 1, max: 100 }))
    .map(([min, span]): ZodDraw => ({ type: 'number', min, max: min + span })),
  fc
    .tuple(fc.nat({ max: 4 }), fc.integer({ min: 1, max: 30 }))
    .map(([min, span]): ZodDraw => ({ type: 'string', min, max: min + span })),
  fc.constantFrom(...PATTERNS).map((source): ZodDraw => ({ type: 'regex', source })),
  fc
    .uniqueArray(fc.constantFrom('low', 'mid', 'high', 'Ünï', 'x y'), {
      minLength: 1,
      maxLength: 4,
    })
    .map((values): ZodDraw => ({ type: 'enum', values })),
  fc.constantFrom<Sample>('fixed', 42, true).map((value): ZodDraw => ({ type: 'literal', value })),
  fc.constant<ZodDraw>({ type: 'boolean' }),
);

/** A zod schema: a leaf, optional or nullable, or a union of two leaves. */
export const zodDrawArbitrary: fc.Arbitrary<ZodDraw> = fc.oneof(
  { weight: 6, arbitrary: zodLeaf },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('optional' as const, 'nullable' as const), zodLeaf)
      .map(([type, inner]): ZodDraw => ({ type, inner })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(zodLeaf, zodLeaf)
      .map(([a, b]): ZodDraw => ({ type: 'union', options: [a, b] })),
  },
);

/** Whether an `add` effect may add `field`: an integer field whose values stay small. */
export function addable(field: FieldDraw): boolean {
  if (field.kind === 'integer')
    return Math.max(Math.abs(field.min), Math.abs(field.max)) <= ADDABLE_MAX;
  if (field.kind !== 'zod') return false;
  const s = field.schema;
  if (s.type === 'intNotZero') return true;
  return (
    s.type === 'int' &&
    s.min !== undefined &&
    s.max !== undefined &&
    Math.max(Math.abs(s.min), Math.abs(s.max)) <= ADDABLE_MAX
  );
}

/** An argument field besides the target and the expected version, named `name`. */
export function fieldDrawArbitrary(name: string, zod: boolean): fc.Arbitrary<FieldDraw> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<FieldDraw>({ kind: 'id', name }) },
    { weight: 3, arbitrary: integerField(name) },
    { weight: 3, arbitrary: customField(name) },
    ...(zod
      ? [
          {
            weight: 3,
            arbitrary: zodDrawArbitrary.map((schema): FieldDraw => ({ kind: 'zod', name, schema })),
          },
        ]
      : []),
  );
}
