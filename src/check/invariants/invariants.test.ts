/**
 * Each invariant checker in a pass/fail pair: a trace the model produced (must pass) and the same
 * trace with one defect a buggy handler would cause (must fail, naming the invariant).
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { initialState, toSnapshot } from '../../model/state.ts';
import { run } from '../../model/step.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { Trace } from '../../types/trace.ts';
import type { RunRecord } from '../run-record.ts';
import { checkInvariants } from './all-invariants.ts';
import { checkFreshAdvancesVersion, FRESH_ADVANCES_VERSION } from './fresh-advances-version.ts';
import { checkReceiptsCountFresh, RECEIPTS_COUNT_FRESH } from './receipts-count-fresh.ts';
import { checkReplayMatchesFresh, REPLAY_MATCHES_FRESH } from './replay-matches-fresh.ts';
import { checkRowChangeHasReceipt, ROW_CHANGE_HAS_RECEIPT } from './row-change-has-receipt.ts';

const call = (requestId: string, expectedVersion: number, intervalMinutes: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion, intervalMinutes },
});
const steps: Step[] = [call('a', 1, 30), call('b', 2, 60), call('a', 1, 30)];

/** The run the model itself produces for `steps`: the "ok" fixture. */
function goodRun(): RunRecord {
  const { state, outcomes } = run(
    initialState(DEFAULT_FIXTURE, setIntervalSpec),
    steps as CallEvent[],
  );
  const observations = steps.map((event, step) => ({
    step,
    lane: 0,
    event: event as CallEvent,
    observed: outcomes[step] ?? { kind: 'notSent' as const },
  }));
  return {
    spec: setIntervalSpec,
    fixture: DEFAULT_FIXTURE,
    steps,
    trace: { observations, snapshot: toSnapshot(state) },
  };
}

function withTrace(change: (t: Trace) => Trace): RunRecord {
  const good = goodRun();
  return { ...good, trace: change(good.trace) };
}

describe('invariant checkers', () => {
  it('ok: the model’s own run breaks no invariant', () => {
    expect(checkInvariants(goodRun())).toEqual([]);
  });

  it('bad: a fresh ok that skipped a version', () => {
    const bad = withTrace((t) => ({
      ...t,
      observations: t.observations.map((o, i) =>
        i === 1
          ? {
              ...o,
              observed: {
                kind: 'ok',
                replayed: false,
                result: { id: 1, intervalMinutes: 60, version: 4 },
              },
            }
          : o,
      ),
    }));
    expect(checkFreshAdvancesVersion(bad)?.invariant).toBe(FRESH_ADVANCES_VERSION);
  });

  it('bad: a receipt stored for a call that reported an error', () => {
    const bad = withTrace((t) => ({
      ...t,
      observations: t.observations.map((o, i) =>
        i === 1 ? { ...o, observed: { kind: 'error', message: 'boom' } } : o,
      ),
    }));
    expect(checkReceiptsCountFresh(bad)?.invariant).toBe(RECEIPTS_COUNT_FRESH);
  });

  it('bad: a row change with no receipt', () => {
    const bad = withTrace((t) => ({
      ...t,
      snapshot: { ...t.snapshot, receipts: t.snapshot.receipts.slice(1) },
    }));
    expect(checkRowChangeHasReceipt(bad)?.invariant).toBe(ROW_CHANGE_HAS_RECEIPT);
  });

  it('bad: a receipt whose stored result differs from what the fresh call returned', () => {
    const bad = withTrace((t) => ({
      ...t,
      snapshot: {
        ...t.snapshot,
        receipts: t.snapshot.receipts.map((r) =>
          r.requestId === 'a' ? { ...r, result: { ...r.result, intervalMinutes: 99 } } : r,
        ),
      },
    }));
    expect(checkRowChangeHasReceipt(bad)?.invariant).toBe(ROW_CHANGE_HAS_RECEIPT);
  });

  it('bad: a replay that returns the current row instead of the stored result', () => {
    const bad = withTrace((t) => ({
      ...t,
      observations: t.observations.map((o, i) =>
        i === 2
          ? {
              ...o,
              observed: {
                kind: 'ok',
                replayed: true,
                result: { id: 1, intervalMinutes: 60, version: 3 },
              },
            }
          : o,
      ),
    }));
    expect(checkReplayMatchesFresh(bad)?.invariant).toBe(REPLAY_MATCHES_FRESH);
  });
});
