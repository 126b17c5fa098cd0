/**
 * A custom field's check, built from its drawn parameters (`CustomCheckDraw`): a pure predicate,
 * the same on every thread that rebuilds the spec, as a user's own `check` would be.
 */
import type { CustomCheckDraw } from './spec-draw.ts';

/** The predicate `draw` describes. */
export function customCheck(draw: CustomCheckDraw): (value: unknown) => boolean {
  switch (draw.kind) {
    case 'oneOf': {
      const values = draw.values;
      return (v) => values.some((w) => Object.is(v, w));
    }
    case 'length': {
      const { min, max } = draw;
      return (v) => typeof v === 'string' && v.length >= min && v.length <= max;
    }
    case 'multipleOf': {
      const { step, min, max } = draw;
      return (v) =>
        Number.isSafeInteger(v) &&
        (v as number) >= min &&
        (v as number) <= max &&
        (v as number) % step === 0;
    }
    case 'boolean':
      return (v) => typeof v === 'boolean';
  }
}
