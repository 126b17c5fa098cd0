/**
 * The kinds of step a summary counts, so that it shows revocations, moves, deletes, lost
 * responses and store failures actually happened. Names only; counting lives in `report/`.
 */

/** The coverage kinds, in the order summaries list them. */
export const COVERAGE_KINDS = [
  'new intent',
  'retry',
  'key reuse',
  'invalid input',
  'lost request',
  'lost response',
  'revoke',
  'restore',
  'move',
  'delete',
  'recreate',
  'store fails',
  'store restored',
  'concurrent group',
] as const;

/** One coverage kind. */
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

/** Counts per kind; every kind present, zero when unseen. */
export type Coverage = Record<CoverageKind, number>;
