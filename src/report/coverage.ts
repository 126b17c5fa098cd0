/**
 * Counts what generated sequences exercised, per kind of step, so a summary shows that
 * revocations, moves, deletes, lost responses and store failures actually happened.
 */

import type { Event, Step } from '../model/events.ts';
import { COVERAGE_KINDS, type Coverage, type CoverageKind } from '../types/coverage.ts';

/** A coverage record with every count at zero. */
export function emptyCoverage(): Coverage {
  return Object.fromEntries(COVERAGE_KINDS.map((k) => [k, 0])) as Coverage;
}

/** Adds the kinds in `steps` to `into`; returns the number of events counted. */
export function countCoverage(steps: readonly Step[], into: Coverage): number {
  let events = 0;
  for (const s of steps) {
    if (s.kind === 'concurrent') {
      into['concurrent group']++;
      for (const e of s.events) events += countEvent(e, into);
    } else events += countEvent(s, into);
  }
  return events;
}

/**
 * The kind each world event counts as. A clock advance counts as none: only a plugin that
 * declares an expiry gets one, and every other summary would list it as never seen.
 */
const WORLD: Record<Exclude<Event['kind'], 'call'>, CoverageKind | undefined> = {
  revoke: 'revoke',
  restore: 'restore',
  move: 'move',
  delete: 'delete',
  recreate: 'recreate',
  storeFail: 'store fails',
  storeRestore: 'store restored',
  clockAdvance: undefined,
};
const INTENT: Record<string, CoverageKind> = {
  new: 'new intent',
  retry: 'retry',
  reuse: 'key reuse',
  invalid: 'invalid input',
};

function countEvent(e: Event, into: Coverage): number {
  if (e.kind !== 'call') {
    const kind = WORLD[e.kind];
    if (kind) into[kind]++;
    return 1;
  }
  const intent = INTENT[e.intent ?? 'new'];
  if (intent) into[intent]++;
  if (e.delivery === 'lostRequest') into['lost request']++;
  if (e.delivery === 'lostResponse') into['lost response']++;
  return 1;
}
