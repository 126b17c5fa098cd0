/**
 * "A replay returns exactly its fresh call's result" when receipts expire: the replay is judged
 * against the fresh call of its own receipt's life (in its own concurrent group, or earlier),
 * never against the key's next life after the clock moved past the receipt's expiry.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import type { Outcome } from '../../model/outcome.ts';
import { resolvePolicy } from '../../model/policy.ts';
import type { FixtureWithPolicy } from '../../model/state.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { Observation } from '../../types/trace.ts';
import type { RunRecord } from '../run-record.ts';
import { checkReplayMatchesFresh, REPLAY_MATCHES_FRESH } from './replay-matches-fresh.ts';

const fixture: FixtureWithPolicy = {
  ...DEFAULT_FIXTURE,
  policy: resolvePolicy({ receiptExpiry: 60 }),
};
const call = (automationId: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId: 'r0', automationId, expectedVersion: 1, intervalMinutes: 5 },
});
const ok = (id: number, replayed: boolean): Outcome => ({
  kind: 'ok',
  replayed,
  result: { id, intervalMinutes: 5, version: 2 },
});
/** A call and its retry racing, the receipt expiring, the key reused for another row. */
const steps: Step[] = [
  { kind: 'concurrent', events: [call(1), call(1)] },
  { kind: 'clockAdvance', ms: 90 * 60_000 },
  call(2),
];

function runWith(retryAnswer: Outcome): RunRecord {
  const observations: Observation[] = [
    { step: 0, lane: 0, event: call(1), observed: ok(1, false) },
    { step: 0, lane: 1, event: call(1), observed: retryAnswer },
    { step: 2, lane: 0, event: call(2), observed: ok(2, false) },
  ];
  return {
    spec: setIntervalSpec,
    fixture,
    steps,
    trace: { observations, snapshot: { rows: [], receipts: [] } },
  };
}

describe('a replay under expiring receipts', () => {
  it('ok: the retry in the fresh call’s own group answers for that call, not the key’s next life', () => {
    expect(checkReplayMatchesFresh(runWith(ok(1, true)))).toBeUndefined();
  });

  it('bad: the retry answers something its own fresh call did not return', () => {
    const bad = checkReplayMatchesFresh(runWith(ok(2, true)));
    expect(bad?.invariant).toBe(REPLAY_MATCHES_FRESH);
    expect(bad?.message).toMatch(/fresh call at step 1 returned/);
  });
});
