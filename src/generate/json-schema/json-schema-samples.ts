/**
 * Candidate values for a field whose rule is its JSON Schema's check (`fields-from-json-schema.ts`):
 * values near what the schema says (its options, limits, lengths, pattern) and the near misses
 * around them. Not sorted into valid and invalid here: the caller asks the check. Pure and
 * deterministic (patterns are sampled from a fixed seed), since a spec must be the same on every
 * run. The JSON Schema twin of `zod/zod-samples.ts`.
 */
import fc from 'fast-check';
import type { JsonSchema } from './json-schema-check.ts';

/** Longest string candidate: a `maxLength: 1e9` must not build a gigabyte. */
const LENGTH_MAX = 10_000;

/** Strings drawn from a pattern; the shortest are tried first. */
const PATTERN_DRAWS = 60;

/** Candidates for `schema`, the likeliest valid first. */
export function candidatesOf(schema: JsonSchema): unknown[] {
  if (typeof schema === 'boolean') return [];
  const listed = [
    ...(Array.isArray(schema.enum) ? schema.enum : []),
    ...('const' in schema ? [schema.const] : []),
  ];
  const branches = [schema.anyOf, schema.oneOf].flatMap((b) => (Array.isArray(b) ? b : []));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const numeric = types.includes('integer') || types.includes('number');
  // A field's own type first: the invalid samples kept are the first few that fail.
  const typed = numeric
    ? [...numberCandidates(schema), ...stringCandidates(schema)]
    : [...stringCandidates(schema), ...numberCandidates(schema)];
  return [
    ...listed,
    ...listed.flatMap(nearMisses),
    ...branches.flatMap((b) => candidatesOf(b as JsonSchema)),
    ...typed,
    true,
    false,
    'true',
  ];
}

/** Values one step from `v`: another case, a suffix, the other type. */
function nearMisses(v: unknown): unknown[] {
  if (typeof v === 'string') return [`${v}x`, v.toUpperCase(), v.toLowerCase(), ` ${v}`, ''];
  if (typeof v === 'number') return [v - 1, v + 1, String(v)];
  if (typeof v === 'boolean') return [!v, String(v)];
  return [];
}

function numberCandidates(schema: Readonly<Record<string, unknown>>): unknown[] {
  const num = (k: string) => (typeof schema[k] === 'number' ? [schema[k] as number] : []);
  const lows = [...num('minimum'), ...num('exclusiveMinimum')];
  const highs = [...num('maximum'), ...num('exclusiveMaximum')];
  const steps = num('multipleOf');
  const lo = lows.length > 0 ? Math.max(...lows) : undefined;
  const hi = highs.length > 0 ? Math.min(...highs) : undefined;
  const inside =
    lo !== undefined && hi !== undefined ? [Math.trunc((lo + hi) / 2), (lo + hi) / 2] : [];
  const aligned = steps.flatMap((m) => [
    m,
    2 * m,
    -m,
    m / 2,
    ...(lo !== undefined ? [Math.ceil(lo / m) * m, Math.ceil(lo / m) * m + m] : []),
    ...(hi !== undefined ? [Math.floor(hi / m) * m] : []),
  ]);
  const around = [...lows, ...highs].flatMap((b) => [b, b - 1, b + 1, b - 0.5, b + 0.5]);
  return [
    ...around,
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
    0.5,
    1.5,
    2 ** 31,
    Number.MAX_SAFE_INTEGER,
    2 ** 53,
    '1',
  ];
}

function stringCandidates(schema: Readonly<Record<string, unknown>>): unknown[] {
  const int = (k: string) => (Number.isSafeInteger(schema[k]) ? (schema[k] as number) : undefined);
  const lo = Math.max(0, int('minLength') ?? 0);
  const hi = int('maxLength') ?? lo + 8;
  const lengths = [lo, hi, Math.trunc((lo + hi) / 2), 1, 3, lo - 1, hi + 1];
  const plain = [...new Set(lengths)]
    .filter((n) => n >= 0 && n <= LENGTH_MAX)
    .map((n) => 'abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n));
  const pattern = typeof schema.pattern === 'string' ? matching(schema.pattern) : [];
  return [...pattern, ...plain];
}

/**
 * Strings matching `source` (unanchored, as JSON Schema reads a pattern), shortest first; none
 * when fast-check cannot generate from it (lookarounds, back-references): then the user passes
 * samples.
 */
function matching(source: string): string[] {
  try {
    const drawn = fc.sample(fc.stringMatching(new RegExp(source, 'u')), {
      seed: 1,
      numRuns: PATTERN_DRAWS,
    });
    return [...new Set(drawn)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  } catch {
    return [];
  }
}
