/**
 * The harness's view of a concurrent run (lost responses completed with their real outcomes):
 * what it holds, that checking it first saves the search from trying lost calls at every dead
 * end, and that it only ever adds an `ok` the clients' view would give too.
 */
import { describe, expect, it } from 'vitest';
import {
  call,
  forbidden,
  fresh,
  replayed,
  request,
  world,
} from '../../testing/linearizability/fixture-builders.ts';
import type { HistoryEntry } from '../model/history.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import { initialState, toSnapshot } from '../model/state.ts';
import { step } from '../model/step.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { checkConcurrentRun } from './check-concurrent-run.ts';
import { harnessView } from './harness-view.ts';
import { soakRecord } from './soak-record.ts';

/** A run record over `history`, whose database is the model after the events in id order. */
function record(
  history: readonly HistoryEntry[],
  real: readonly (Observed | undefined)[],
  returnedAt?: readonly (number | undefined)[],
) {
  let state = initialState(DEFAULT_FIXTURE, setIntervalSpec);
  for (const e of history) state = step(state, e.event).state;
  const run = soakRecord(DEFAULT_FIXTURE, setIntervalSpec, history, real, toSnapshot(state));
  return returnedAt ? { ...run, returnedAt } : run;
}

describe('harnessView', () => {
  const lost = call(0, 0, [0], request('r1', 1, 1, 30), undefined, 'lostResponse');
  const retry = call(1, 0, [5, 6], request('r1', 1, 1, 30), replayed(1, 30, 2));

  it('completes each lost response at its real return, with its real outcome', () => {
    const run = record([lost, retry], [fresh(1, 30, 2), replayed(1, 30, 2)], [2, undefined]);
    expect(harnessView(run)).toEqual([
      { ...lost, completedAt: 2, observed: fresh(1, 30, 2) },
      retry,
    ]);
  });

  it('is absent when the harness knows no return, or nothing was lost', () => {
    expect(harnessView(record([lost, retry], [fresh(1, 30, 2), replayed(1, 30, 2)]))).toBe(
      undefined,
    );
    const delivered = call(0, 0, [0, 1], request('r1', 1, 1, 30), fresh(1, 30, 2));
    expect(harnessView(record([delivered], [fresh(1, 30, 2)], [1]))).toBe(undefined);
  });
});

describe('checkConcurrentRun with the harness view', () => {
  /**
   * Bob (client 1) loses every response and retries, so each retry's level is stuck until his
   * lost call is placed; alice (client 0), revoked first, loses calls on automation 2 that never
   * go stale, so the clients' view scans all of hers at each of bob's retries.
   */
  function slowForClients(): { history: HistoryEntry[]; real: Observed[]; returned: number[] } {
    const history: HistoryEntry[] = [world(0, [0, 1], { kind: 'revoke', client: 0 })];
    const real: Observed[] = [{ kind: 'notSent' }];
    const returned: number[] = [NaN];
    const add = (entry: HistoryEntry, outcome: Observed, at: number) => {
      history.push(entry);
      real.push(outcome);
      returned.push(at);
    };
    for (let i = 0; i < 300; i++) {
      const t = 2 + i * 0.001;
      add(
        call(history.length, 0, [t], request(`a${i}`, 2, 1, 5), undefined, 'lostResponse'),
        forbidden,
        t + 0.005,
      );
    }
    for (let v = 1; v <= 600; v++) {
      const t = 10 * v;
      const req = request(`b${v}`, 1, v, v + 5);
      add(
        call(history.length, 1, [t], req, undefined, 'lostResponse'),
        fresh(1, v + 5, v + 1),
        t + 1,
      );
      add(
        call(history.length, 1, [t + 2, t + 3], req, replayed(1, v + 5, v + 1)),
        replayed(1, v + 5, v + 1),
        t + 3,
      );
    }
    return { history, real, returned };
  }
  // The search looks at its step count every 1,024 rounds: the history is long enough to get there.
  const budget = { partition: false, stepsMax: 20_000 };

  it('decides within a budget the clients’ view alone runs out of', () => {
    const { history, real, returned } = slowForClients();
    const withHarness = checkConcurrentRun(record(history, real, returned), budget);
    expect(withHarness.verdict).toEqual({ verdict: 'ok' });
    const clientsOnly = checkConcurrentRun(record(history, real), budget);
    expect(clientsOnly.verdict).toMatchObject({
      verdict: 'failed',
      failures: [{ kind: 'linearizability', verdict: 'unknown' }],
    });
  });

  it('falls back to the clients’ view when the real outcomes explain nothing', () => {
    // The harness recorded a refusal for a call that wrote (a plugin that lost its own reply,
    // say): no order fits the harness's view, and the clients' view, which ignores it, passes.
    const lost = call(0, 0, [0], request('r1', 1, 1, 30), undefined, 'lostResponse');
    const retry = call(1, 0, [5, 6], request('r1', 1, 1, 30), replayed(1, 30, 2));
    // The invariants read the real outcomes and object; the history's verdict is the clients'.
    const run = record([lost, retry], [forbidden, replayed(1, 30, 2)], [2, undefined]);
    const result = checkConcurrentRun(run);
    expect(result.order).toEqual([0, 1]);
    const kinds =
      result.verdict.verdict === 'failed' ? result.verdict.failures.map((f) => f.kind) : [];
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['invariant']));
  });
});
