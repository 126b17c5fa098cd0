/**
 * Candidate values for a zod field whose rule is zod's own check (`fields-from-zod.ts`): values
 * near what the schema's definition says (its limits, lengths, patterns, options) and the near
 * misses around them. Candidates are not sorted into valid and invalid here: the caller asks
 * zod, so a candidate misjudged here is merely filed on the other side. Pure and deterministic
 * (patterns are sampled from a fixed seed), since a spec must be the same on every run.
 */
import type * as z4 from 'zod/v4/core';
import {
  matching,
  nearMisses,
  numericBounds,
  ORDINARY_NUMBERS,
  stringsAround,
} from '../schema-samples.ts';

type CheckDef = z4.$ZodChecks['_zod']['def'];

/** Candidates for `schema`, the likeliest valid first. */
export function candidatesOf(schema: z4.$ZodType): unknown[] {
  const def = (schema as z4.$ZodTypes)._zod.def;
  switch (def.type) {
    case 'number':
      return numberCandidates(checksOf(def));
    case 'string':
      return stringCandidates(checksOf(def));
    case 'boolean':
      return [true, false, 'true', 0, 1];
    case 'enum':
      return withNearMisses(Object.values(def.entries));
    case 'literal':
      return withNearMisses(def.values);
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'nonoptional':
      return candidatesOf(def.innerType);
    case 'union':
      return def.options.flatMap((o) => candidatesOf(o));
    default:
      return [];
  }
}

/** A definition's checks, its own first (`z.int()`, `z.email()` are a schema and a check in one). */
function checksOf(def: z4.$ZodTypeDef): CheckDef[] {
  const own = 'check' in def ? [def as unknown as CheckDef] : [];
  return [...own, ...(def.checks ?? []).map((c) => (c as z4.$ZodChecks)._zod.def)];
}

function withNearMisses(values: readonly unknown[]): unknown[] {
  return [...values, ...values.flatMap(nearMisses)];
}

function numberCandidates(checks: readonly CheckDef[]): unknown[] {
  const lows = limits(checks, 'greater_than');
  const highs = limits(checks, 'less_than');
  const steps = checks.flatMap((c) =>
    c.check === 'multiple_of' && typeof c.value === 'number' ? [c.value] : [],
  );
  const { lo, hi, inside, around } = numericBounds(lows, highs);
  const aligned = steps.flatMap((m) => [
    m,
    2 * m,
    -m,
    m / 2,
    ...(lo !== undefined ? [Math.ceil(lo / m) * m] : []),
    ...(hi !== undefined ? [Math.floor(hi / m) * m] : []),
  ]);
  return [
    ...[lo, hi].filter((b) => b !== undefined),
    ...inside,
    ...aligned,
    ...ORDINARY_NUMBERS,
    ...around,
    0.5,
    1.5,
    -0.5,
    2 ** 31,
    2 ** 32 + 1,
    Number.MAX_SAFE_INTEGER,
    2 ** 53,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '1',
  ];
}

/** The numeric limits of `kind`'s checks. */
function limits(checks: readonly CheckDef[], kind: 'greater_than' | 'less_than'): number[] {
  return checks.flatMap((c) => (c.check === kind && typeof c.value === 'number' ? [c.value] : []));
}

function stringCandidates(checks: readonly CheckDef[]): unknown[] {
  const mins = checks.flatMap((c) =>
    c.check === 'min_length' ? [c.minimum] : c.check === 'length_equals' ? [c.length] : [],
  );
  const maxes = checks.flatMap((c) =>
    c.check === 'max_length' ? [c.maximum] : c.check === 'length_equals' ? [c.length] : [],
  );
  const lo = Math.max(0, ...mins);
  const hi = maxes.length > 0 ? Math.min(...maxes) : lo + 8;
  const plain = stringsAround(lo, hi);
  const patterns = checks.flatMap((c) =>
    'pattern' in c && c.pattern instanceof RegExp ? [c.pattern] : [],
  );
  return [...patterns.flatMap(matching), ...plain, 0, 1];
}
