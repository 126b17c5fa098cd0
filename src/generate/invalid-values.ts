/**
 * Values that break the validation rules, per field: the article's cases (booleans, floats,
 * strings, out-of-range numbers, empty, long and unsafe request ids) plus NaN, unsafe integers
 * and SQL-looking strings. Each field also draws from a general arbitrary so new shapes turn up.
 */
import fc from 'fast-check';
import type { InvalidField } from '../model/outcome.ts';

const SQL_LIKE = ['1 OR 1=1', "'; DROP TABLE receipts; --", '1; DELETE FROM automations'];

const NOT_AN_INTEGER: readonly unknown[] = [
  true,
  false,
  1.5,
  '1',
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  -(2 ** 53) - 2,
  null,
  ...SQL_LIKE,
];

/** Hand-picked bad values for each field. */
export const INVALID_EXAMPLES: Record<InvalidField, readonly unknown[]> = {
  requestId: ['', 'x'.repeat(65), null, 'unsafe key', 'edit/42', 'é', 42, true, ...SQL_LIKE],
  automationId: [0, -1, ...NOT_AN_INTEGER],
  expectedVersion: [0, -3, ...NOT_AN_INTEGER],
  intervalMinutes: [4, 1441, 0, -5, 30.5, '30', ...NOT_AN_INTEGER],
};

/** An arbitrary bad value for `field`: mostly the examples above, sometimes a generated one. */
export function invalidValue(field: InvalidField): fc.Arbitrary<unknown> {
  const generated: Record<InvalidField, fc.Arbitrary<unknown>> = {
    requestId: fc.oneof(
      fc.string({ minLength: 65, maxLength: 80 }),
      fc.string({
        unit: fc.constantFrom(' ', '/', '.', '%', '\u0000'),
        minLength: 1,
        maxLength: 3,
      }),
    ),
    automationId: fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true })),
    expectedVersion: fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true })),
    intervalMinutes: fc.oneof(
      fc.integer({ min: -100, max: 4 }),
      fc.integer({ min: 1441, max: 100_000 }),
      fc.double({ min: 5, max: 1440, noInteger: true }),
    ),
  };
  return fc.oneof(
    { arbitrary: fc.constantFrom(...INVALID_EXAMPLES[field]), weight: 4 },
    { arbitrary: generated[field], weight: 1 },
  );
}
