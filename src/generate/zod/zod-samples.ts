/**
 * Candidate values for a zod field whose rule is zod's own check (`fields-from-zod.ts`): values
 * near what the schema's definition says (its limits, lengths, patterns, options) and the near
 * misses around them. Candidates are not sorted into valid and invalid here: the caller asks
 * zod, so a candidate misjudged here is merely filed on the other side. Pure and deterministic
 * (patterns are sampled from a fixed seed), since a spec must be the same on every run.
 */
import fc from 'fast-check';
import type * as z4 from 'zod/v4/core';

type CheckDef = z4.$ZodChecks['_zod']['def'];

/** Longest string candidate: a `.max(1e9)` must not build a gigabyte. */
const LENGTH_MAX = 10_000;

/** Strings drawn from each pattern; the shortest are tried first. */
const PATTERN_DRAWS = 60;

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

/** Values one step from `v`: another case, a suffix, the other type. */
function nearMisses(v: unknown): unknown[] {
  if (typeof v === 'string') return [`${v}x`, v.toUpperCase(), v.toLowerCase(), ` ${v}`, ''];
  if (typeof v === 'number') return [v - 1, v + 1, String(v)];
  if (typeof v === 'boolean') return [!v, String(v)];
  return [];
}

function numberCandidates(checks: readonly CheckDef[]): unknown[] {
  const lows = limits(checks, 'greater_than');
  const highs = limits(checks, 'less_than');
  const steps = checks.flatMap((c) =>
    c.check === 'multiple_of' && typeof c.value === 'number' ? [c.value] : [],
  );
  const lo = lows.length > 0 ? Math.max(...lows) : undefined;
  const hi = highs.length > 0 ? Math.min(...highs) : undefined;
  const inside =
    lo !== undefined && hi !== undefined ? [Math.trunc((lo + hi) / 2), (lo + hi) / 2] : [];
  const aligned = steps.flatMap((m) => [
    m,
    2 * m,
    -m,
    m / 2,
    ...(lo !== undefined ? [Math.ceil(lo / m) * m] : []),
    ...(hi !== undefined ? [Math.floor(hi / m) * m] : []),
  ]);
  const around = [...lows, ...highs].flatMap((b) => [b, b - 1, b + 1, b - 0.5, b + 0.5]);
  return [
    ...[lo, hi].filter((b) => b !== undefined),
    ...inside,
    ...aligned,
    1,
    -1,
    0,
    2,
    10,
    100,
    1000,
    -100,
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
  const lengths = [lo, hi, Math.trunc((lo + hi) / 2), 1, 3, lo - 1, hi + 1];
  const plain = [...new Set(lengths)]
    .filter((n) => n >= 0 && n <= LENGTH_MAX)
    .map((n) => 'abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n));
  const patterns = checks.flatMap((c) =>
    'pattern' in c && c.pattern instanceof RegExp ? [c.pattern] : [],
  );
  return [...patterns.flatMap(matching), ...plain, 0, 1];
}

/**
 * Strings matching `pattern`, shortest first; none when fast-check cannot generate from it
 * (lookarounds, back-references, the `i` flag, …): then the user passes samples.
 */
function matching(pattern: RegExp): string[] {
  try {
    const drawn = fc.sample(fc.stringMatching(pattern), { seed: 1, numRuns: PATTERN_DRAWS });
    return [...new Set(drawn)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  } catch {
    return [];
  }
}
