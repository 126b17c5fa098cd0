/**
 * The candidate values both schema languages derive from what a schema says
 * (`zod/zod-samples.ts`, `json-schema/json-schema-samples.ts`): near misses around a listed
 * value, strings drawn from a pattern, strings of the lengths around a length limit, and numbers
 * around numeric limits. Pure and deterministic (patterns are sampled from a fixed seed), since a
 * spec must be the same on every run.
 */
import fc from 'fast-check';

/** Longest string candidate: a length limit of 1e9 must not build a gigabyte. */
const LENGTH_MAX = 10_000;

/** Strings drawn from a pattern; the shortest are tried first. */
const PATTERN_DRAWS = 60;

/** Values one step from `v`: another case, a suffix, the other type. */
export function nearMisses(v: unknown): unknown[] {
  if (typeof v === 'string') return [`${v}x`, v.toUpperCase(), v.toLowerCase(), ` ${v}`, ''];
  if (typeof v === 'number') return [v - 1, v + 1, String(v)];
  if (typeof v === 'boolean') return [!v, String(v)];
  return [];
}

/**
 * Strings matching `pattern` (a source is read unanchored with the `u` flag, as JSON Schema reads
 * one), shortest first; none when fast-check cannot generate from it (lookarounds,
 * back-references, the `i` flag, …): then the user passes samples.
 */
export function matching(pattern: RegExp | string): string[] {
  try {
    const regex = typeof pattern === 'string' ? new RegExp(pattern, 'u') : pattern;
    const drawn = fc.sample(fc.stringMatching(regex), { seed: 1, numRuns: PATTERN_DRAWS });
    return [...new Set(drawn)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  } catch {
    return [];
  }
}

/** Plain strings at and around the lengths `lo` and `hi` (and between), up to `LENGTH_MAX`. */
export function stringsAround(lo: number, hi: number): string[] {
  const lengths = [lo, hi, Math.trunc((lo + hi) / 2), 1, 3, lo - 1, hi + 1];
  return [...new Set(lengths)]
    .filter((n) => n >= 0 && n <= LENGTH_MAX)
    .map((n) => 'abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n));
}

/** Numbers tried whatever the limits: small ones of either sign and a few orders of magnitude. */
export const ORDINARY_NUMBERS: readonly number[] = [1, -1, 0, 2, 10, 100, 1000, -100];

/** What numeric limits give: the tightest of each side, values inside both, values around each. */
export interface NumericBounds {
  readonly lo: number | undefined;
  readonly hi: number | undefined;
  /** Between the tightest limits, an integer and a half: none unless both sides are limited. */
  readonly inside: readonly number[];
  /** Each limit, one and a half either side of it. */
  readonly around: readonly number[];
}

/** The bounds of the lower limits `lows` and the upper limits `highs`. */
export function numericBounds(lows: readonly number[], highs: readonly number[]): NumericBounds {
  const lo = lows.length > 0 ? Math.max(...lows) : undefined;
  const hi = highs.length > 0 ? Math.min(...highs) : undefined;
  const inside =
    lo !== undefined && hi !== undefined ? [Math.trunc((lo + hi) / 2), (lo + hi) / 2] : [];
  const around = [...lows, ...highs].flatMap((b) => [b, b - 1, b + 1, b - 0.5, b + 0.5]);
  return { lo, hi, inside, around };
}
