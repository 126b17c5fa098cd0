/**
 * Candidate values for a field whose rule is its JSON Schema's check (`fields-from-json-schema.ts`):
 * values near what the schema says (its options, limits, lengths, pattern) and the near misses
 * around them. Not sorted into valid and invalid here: the caller asks the check. Pure and
 * deterministic (patterns are sampled from a fixed seed), since a spec must be the same on every
 * run. The JSON Schema twin of `zod/zod-samples.ts`.
 */
import {
  matching,
  nearMisses,
  numericBounds,
  ORDINARY_NUMBERS,
  stringsAround,
} from '../schema-samples.ts';
import type { JsonSchema } from './json-schema-check.ts';

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

function numberCandidates(schema: Readonly<Record<string, unknown>>): unknown[] {
  const num = (k: string) => (typeof schema[k] === 'number' ? [schema[k] as number] : []);
  const lows = [...num('minimum'), ...num('exclusiveMinimum')];
  const highs = [...num('maximum'), ...num('exclusiveMaximum')];
  const steps = num('multipleOf');
  const { lo, hi, inside, around } = numericBounds(lows, highs);
  const aligned = steps.flatMap((m) => [
    m,
    2 * m,
    -m,
    m / 2,
    ...(lo !== undefined ? [Math.ceil(lo / m) * m, Math.ceil(lo / m) * m + m] : []),
    ...(hi !== undefined ? [Math.floor(hi / m) * m] : []),
  ]);
  return [
    ...around,
    ...inside,
    ...aligned,
    ...ORDINARY_NUMBERS,
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
  const plain = stringsAround(lo, hi);
  const pattern = typeof schema.pattern === 'string' ? matching(schema.pattern) : [];
  return [...pattern, ...plain];
}
