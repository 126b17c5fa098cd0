/**
 * Outcome patterns: an outcome with fields left out, each missing field matching anything.
 * Case files use them where the contract leaves a detail open, e.g. `{"kind": "ok",
 * "replayed": false}` for "the winner of a race, whichever result it got".
 */
import { describeOutcome, type Observed } from './outcome.ts';
import { isOutcome } from './outcome-shape.ts';

/** A partial outcome; `kind` is required. */
export type OutcomePattern = { readonly kind: Observed['kind'] } & Readonly<
  Record<string, unknown>
>;

const KINDS = new Set(['ok', 'refused', 'keyReuse', 'invalid', 'error', 'unexpected', 'notSent']);

/** Whether `value` can serve as a pattern. */
export function isOutcomePattern(value: unknown): value is OutcomePattern {
  return (
    typeof value === 'object' &&
    value !== null &&
    KINDS.has((value as { kind?: string }).kind ?? '')
  );
}

/** Whether every field the pattern names equals the observed one (deeply). Error messages are never compared. */
export function matchesPattern(pattern: OutcomePattern, observed: Observed): boolean {
  return Object.entries(pattern).every(
    ([k, v]) =>
      (pattern.kind === 'error' && k === 'message') ||
      deepEqual(v, (observed as Record<string, unknown>)[k]),
  );
}

/** A short rendering: the outcome's usual text when complete, else its fields. */
export function describePattern(pattern: OutcomePattern): string {
  if (isOutcome(pattern)) return describeOutcome(pattern);
  const rest = Object.entries(pattern)
    .filter(([k]) => k !== 'kind')
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`);
  return rest.length ? `${pattern.kind}(${rest.join(', ')}, …)` : `${pattern.kind}(…)`;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  return (
    ka.length === Object.keys(b).length &&
    ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
