/**
 * "Every effect has its receipt and every receipt its effect" for an operation that writes two
 * rows (`transfer`), in pass/fail pairs: the run the model produces passes, and the same run
 * with the credited account changed (a leg applied twice) or left alone (a leg lost) fails,
 * naming the account. Two transfers sharing a row in one concurrent step pass in either order.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../../model/events.ts';
import { transfer } from '../../model/operations/transfer.ts';
import { initialState, toSnapshot } from '../../model/state.ts';
import { run } from '../../model/step.ts';
import type { Row } from '../../model/world.ts';
import type { RunRecord } from '../run-record.ts';
import { checkEffectsMatchReceipts, EFFECTS_MATCH_RECEIPTS } from './effects-match-receipts.ts';

const fixture = { ...transfer.fixture, operation: 'transfer' };
const send = (client: number, requestId: string, from: number, to: number, amount: number) =>
  ({
    kind: 'call',
    client,
    delivery: 'delivered',
    request: { requestId, fromAccountId: from, toAccountId: to, amount },
  }) as CallEvent;

/** The model's run of `events`, all in one concurrent step when `together`. */
function modelRun(events: readonly CallEvent[], together = false): RunRecord {
  const { state, outcomes } = run(initialState(fixture, transfer), events);
  const steps: Step[] = together ? [{ kind: 'concurrent', events }] : [...events];
  const observations = events.map((event, i) => ({
    step: together ? 0 : i,
    lane: together ? i : 0,
    event,
    observed: outcomes[i] ?? { kind: 'notSent' as const },
  }));
  return { spec: transfer, fixture, steps, trace: { observations, snapshot: toSnapshot(state) } };
}

function withBalance(good: RunRecord, id: number, balance: number): RunRecord {
  const accounts = (good.trace.snapshot.accounts as Row[]).map((r) =>
    r.id === id ? { ...r, balance } : r,
  );
  return { ...good, trace: { ...good.trace, snapshot: { ...good.trace.snapshot, accounts } } };
}

describe('effects match receipts, two rows per call', () => {
  const good = modelRun([send(0, 'r1', 1, 2, 300), send(1, 'r2', 2, 3, 100)]);

  it('holds for the run the model produces', () => {
    expect(checkEffectsMatchReceipts(good)).toBeUndefined();
  });

  it('fails when the credit landed twice, or not at all', () => {
    for (const balance of [1500, 900]) {
      const bad = checkEffectsMatchReceipts(withBalance(good, 2, balance));
      expect(bad?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
      expect(bad?.message).toMatch(/^account 2 ends as .*"balance":1200/);
    }
  });

  it('holds for two transfers sharing a row in one concurrent step, in either order', () => {
    const a = send(0, 'r1', 1, 2, 300);
    const b = send(1, 'r2', 2, 1, 100);
    expect(checkEffectsMatchReceipts(modelRun([a, b], true))).toBeUndefined();
    expect(checkEffectsMatchReceipts(modelRun([b, a], true))).toBeUndefined();
    expect(checkEffectsMatchReceipts(withBalance(modelRun([a, b], true), 1, 700))?.invariant).toBe(
      EFFECTS_MATCH_RECEIPTS,
    );
  });
});
