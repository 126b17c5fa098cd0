/**
 * Hand-picked values for the input classes every operation shares: the request id's look-alikes
 * and wrong types, and the wrong types and shapes of a numeric field (`field-classes.ts`). Edge
 * moves send them (`edge-values.ts`); they include the article's cases. Data only.
 */

/** Strings that read as SQL: a handler that splices arguments into SQL breaks on them. */
export const SQL_LIKE = ['1 OR 1=1', "'; DROP TABLE receipts; --", '1; DELETE FROM automations'];

/** Examples shared by every numeric field, by class name after the field. */
export const NUMBER_EXAMPLES: Readonly<Record<string, readonly unknown[]>> = {
  '0': [0, -0],
  negative: [-1, -3],
  'unsafe integer': [2 ** 53, -(2 ** 53) - 2, 1e21],
  fraction: [1.5, 0.5, 1.000001],
  'NaN or Infinity': [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
  'other string': [...SQL_LIKE, 'one'],
  boolean: [true, false],
  null: [null],
};

/** Examples of an `id` field, by class: its extremes are valid, but no row has them. */
export const ID_EXAMPLES: Readonly<Record<string, readonly unknown[]>> = {
  ...NUMBER_EXAMPLES,
  // 2^32 + k wraps to k under `x | 0` or a 32-bit column: a row or version that exists.
  'beyond 32 bits': [2 ** 32 + 1, 2 ** 32 + 2, 2 ** 32 + 20, 2 ** 31],
  MAX_SAFE_INTEGER: [Number.MAX_SAFE_INTEGER],
  'numeric string': ['1', '2', ' 1', '1e0'],
};

/** Examples of a `custom` field's classes (its own invalid values come from its spec). */
export const CUSTOM_EXAMPLES: Readonly<Record<string, readonly unknown[]>> = {
  boolean: [true, false],
  null: [null],
};

/** Examples of the request id's invalid classes, by full class name. */
export const REQUEST_ID_EXAMPLES: Readonly<Record<string, readonly unknown[]>> = {
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
};
