/**
 * `set-interval`'s hand-picked generation values, which predate operation specs: the intervals
 * new intents draw, and the examples and generated values for `intervalMinutes`' edge classes.
 * Every other field's are derived from its rule (`value-fields.ts`, `edge-values.ts`). Kept as
 * they were, not derived, so that fixed seeds keep giving the same sequences and the shrunk
 * counterexamples tests assert for them stay put.
 */
import fc from 'fast-check';
import { NUMBER_EXAMPLES, SQL_LIKE } from './invalid-values.ts';

/** What the picks for one field hold; any part missing is derived from the field's rule. */
export interface FieldPicks {
  /** The values new intents draw from, four times in five. */
  readonly intents?: readonly number[];
  /** Examples by class name after the field. */
  readonly examples?: Readonly<Record<string, readonly unknown[]>>;
  /** Generated values beside the examples, by class name after the field. */
  readonly generated?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
}

/** Picks by operation name, then field name. */
const HAND_PICKED: Readonly<Record<string, Readonly<Record<string, FieldPicks>>>> = {
  'set-interval': {
    intervalMinutes: {
      intents: [5, 30, 60, 1440],
      examples: {
        ...NUMBER_EXAMPLES,
        '4': [4],
        '1441': [1441],
        'far out of range': [1, 3, 10_000, 2 ** 31],
        'unsafe integer': [2 ** 53],
        fraction: [30.5, 4.5, 1440.5],
        'numeric string': ['30', '1440', '5.0'],
        'other string': [...SQL_LIKE, 'thirty'],
      },
      generated: {
        'far out of range': fc.oneof(
          fc.integer({ min: -100, max: 3 }),
          fc.integer({ min: 1442, max: 100_000 }),
        ),
        fraction: fc.double({ min: 5, max: 1440, noInteger: true }),
      },
    },
  },
};

/** The hand-picked values for `field` of the operation named `operation`, if any. */
export function handPicked(operation: string, field: string): FieldPicks {
  return HAND_PICKED[operation]?.[field] ?? {};
}
