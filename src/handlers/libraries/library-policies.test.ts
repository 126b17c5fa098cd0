/**
 * Each declared policy switch, shown needed and sufficient on a short hand-written sequence: the
 * library's documented behaviour passes the model under the plugin's declared policy, and fails
 * it, with exactly the expected difference, when that one switch is taken away.
 */

import { afterAll, describe, expect, it } from 'vitest';
import type { JudgedRunner } from '../../api/judged-runner.ts';
import { judgedRunner } from '../../api/judged-runner.ts';
import { sequentialRunner } from '../../execute/sqlite/sequential-mode.ts';
import type { CallRequest, Step } from '../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { type Observed, outcome } from '../../model/outcome.ts';
import { type Policy, resolvePolicy } from '../../model/policy.ts';
import type { FixtureWithPolicy } from '../../model/state.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { Failure } from '../../types/verdict.ts';
import reference from '../operations/set-interval/sqlite/set-interval-reference.ts';
import type { HandlerPlugin } from '../plugin.ts';
import expressIdempotency from './express-idempotency.ts';
import nodeIdempotency from './node-idempotency.ts';
import powertools, { RECORD_LIFETIME_MS } from './powertools.ts';

const runners: JudgedRunner[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
});

/** Failures of `steps` on `plugin`, checked under `policy`. */
async function failuresUnder(plugin: HandlerPlugin, policy: Policy, steps: Step[]) {
  const fixture: FixtureWithPolicy = { ...DEFAULT_FIXTURE, policy };
  const runner = judgedRunner(sequentialRunner(plugin, fixture), fixture, setIntervalSpec);
  runners.push(runner);
  const run = await runner.execute(steps);
  return run.verdict.verdict === 'ok' ? [] : run.verdict.failures;
}

const call = (requestId: string, automationId: number, expectedVersion: number): Step => ({
  kind: 'call',
  client: 0,
  request: { requestId, automationId, expectedVersion, intervalMinutes: 30 } as CallRequest,
  delivery: 'delivered',
});

/** The one outcome failure expected when the switch is off. */
function onlyOutcomeFailure(failures: readonly Failure[], expected: Observed, actual: Observed) {
  expect(failures.map((f) => f.kind)).toEqual(['outcome']);
  expect(failures[0]).toMatchObject({ expected, actual });
}

const REPLAY_AFTER_MOVE: Step[] = [
  call('r1', 1, 1),
  { kind: 'move', resourceId: 1, workspace: 'team-b' },
  call('r1', 1, 1),
];
const REPLAYED = outcome.replayed({ id: 1, intervalMinutes: 30, version: 2 });

const STORE_DOWN_ON_MISSING_ROW: Step[] = [{ kind: 'storeFail' }, call('r1', 999, 1)];

describe.each([
  ['powertools', powertools],
  ['node-idempotency', nodeIdempotency],
  ['express-idempotency', expressIdempotency],
])('%s: idempotencyFirst', (_name, plugin) => {
  const declared = resolvePolicy(plugin.policy);
  const without = { ...declared, idempotencyFirst: false };

  it('replays a receipt after the automation moved away', async () => {
    expect(await failuresUnder(plugin, declared, REPLAY_AFTER_MOVE)).toEqual([]);
    const failures = await failuresUnder(plugin, without, REPLAY_AFTER_MOVE);
    onlyOutcomeFailure(failures, outcome.refused('unavailable'), REPLAYED);
  });
});

describe.each([
  ['powertools', powertools],
  ['express-idempotency', expressIdempotency],
])('%s: idempotencyFirst while the store fails', (_name, plugin) => {
  // node-idempotency answers the same, but there storesRefusals alone already predicts it.
  const declared = resolvePolicy(plugin.policy);
  const without = { ...declared, idempotencyFirst: false };

  it('answers error, not unavailable: the key is claimed before access is checked', async () => {
    expect(await failuresUnder(plugin, declared, STORE_DOWN_ON_MISSING_ROW)).toEqual([]);
    const failures = await failuresUnder(plugin, without, STORE_DOWN_ON_MISSING_ROW);
    expect(failures[0]).toMatchObject({
      expected: outcome.refused('unavailable'),
      actual: { kind: 'error' },
    });
  });
});

describe('node-idempotency: storesRefusals', () => {
  const declared = resolvePolicy(nodeIdempotency.policy);
  const without = { ...declared, storesRefusals: false };
  // A stale version is refused and stored; the corrected request under the same key is then a
  // key reuse for the library, a fresh write for the contract.
  const steps: Step[] = [call('r1', 1, 2), call('r1', 1, 1)];

  it('stores a refusal and treats a corrected retry under its key as key reuse', async () => {
    expect(await failuresUnder(nodeIdempotency, declared, steps)).toEqual([]);
    const failures = await failuresUnder(nodeIdempotency, without, steps);
    expect(failures[0]).toMatchObject({
      kind: 'outcome',
      expected: outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 }),
      actual: outcome.keyReuse(),
    });
  });

  it.each([
    ['powertools', powertools],
    ['express-idempotency', expressIdempotency],
  ])('is not declared by %s, which deletes the record of a refused call', async (_n, plugin) => {
    expect(resolvePolicy(plugin.policy).storesRefusals).toBe(false);
    expect(await failuresUnder(plugin, resolvePolicy(plugin.policy), steps)).toEqual([]);
  });
});

describe('powertools: receiptExpiry (F3 declared)', () => {
  const declared = resolvePolicy(powertools.policy);
  const without = { ...declared, receiptExpiry: 'never' as const };
  const tick = (ms: number): Step => ({ kind: 'clockAdvance', ms });
  // Within the hour the retry replays; past it the record is gone, the retry re-runs the write,
  // and the version check refuses it.
  const steps: Step[] = [
    call('r1', 1, 1),
    tick(RECORD_LIFETIME_MS * 0.4),
    call('r1', 1, 1),
    tick(RECORD_LIFETIME_MS * 1.5),
    call('r1', 1, 1),
  ];

  it('declares the library default, expiresAfterSeconds 3600', () => {
    expect(declared.receiptExpiry).toBe(3_600_000);
  });

  it('re-executes a retry after the expiry: declared, it passes; undeclared, it fails', async () => {
    expect(await failuresUnder(powertools, declared, steps)).toEqual([]);
    const failures = await failuresUnder(powertools, without, steps);
    expect(failures[0]).toMatchObject({
      kind: 'outcome',
      step: 4,
      expected: REPLAYED,
      actual: outcome.refused('conflict'),
    });
  });
});

describe('a declared expiry that never comes', () => {
  // The reference handler keeps receipts for good; declaring that they expire after a minute
  // is a false declaration the model must catch.
  const neverExpires: HandlerPlugin = {
    ...reference,
    name: 'claims-expiry',
    policy: { receiptExpiry: 60_000 },
    advanceClock() {},
  };
  const steps: Step[] = [call('r1', 1, 1), { kind: 'clockAdvance', ms: 90_000 }, call('r1', 1, 1)];

  it('fails: the retry past the minute is replayed, not re-executed', async () => {
    const failures = await failuresUnder(neverExpires, resolvePolicy(neverExpires.policy), steps);
    expect(failures[0]).toMatchObject({
      kind: 'outcome',
      step: 2,
      expected: outcome.refused('conflict'),
      actual: REPLAYED,
    });
    // Declaring what it does, never, it passes the same steps.
    expect(await failuresUnder(reference, resolvePolicy(undefined), steps)).toEqual([]);
  });
});
