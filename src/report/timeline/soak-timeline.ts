/**
 * A failed soak as a timeline: only the failing part of its history (the partition of the
 * checker's `partitionHistory` that holds the calls it could not place), one lane per client on
 * the run's clock. A soak history runs to thousands of operations; the part that fails is what a
 * reader can look at, and the whole history is saved beside it as data. Pure.
 */

import { partitionHistory } from '../../check/linearizability/partition.ts';
import type { HistoryEntry } from '../../model/history.ts';
import { initialState } from '../../model/state.ts';
import type { SoakResult } from '../../types/results.ts';
import { explainFailure } from '../explain-failure.ts';
import { quoteArg } from '../reproduce.ts';
import { decorateBars } from './decorate-bars.ts';
import { historyFrames } from './history-frames.ts';
import type { Timeline } from './timeline.ts';
import { timelineDatabase } from './timeline-database.ts';
import { timelineVerdict } from './timeline-verdict.ts';

/** The format tag of a saved soak history: the soak's result, its fixture and every operation. */
export const SOAK_HISTORY_FORMAT = 'receiptcheck-soak-history/1';

/** Most operations drawn when no partition can be singled out (the tail of the history). */
export const SOAK_OPERATIONS_SHOWN = 200;

/** What a soak leaves for its report: its result and the whole history. */
export type SoakReportInput = Omit<SoakResult, 'history'> & {
  readonly history: readonly HistoryEntry[];
};

/** The timeline of the failing part of a soak's history; `historyFile` names where the rest is. */
export function buildSoakTimeline(r: SoakReportInput, historyFile?: string): Timeline {
  const ranked = [...r.history].sort((a, b) => a.invokedAt - b.invokedAt || a.id - b.id);
  const rankOf = new Map(ranked.map((e, rank) => [e.id, rank]));
  const idOf = new Map(ranked.map((e, rank) => [rank, e.id]));
  const part = failingPart(r);
  const frames = historyFrames(part.entries, (e) => ({
    step: rankOf.get(e.id) ?? e.id,
    lane: e.client,
    row: e.client,
  }));
  const placeText = (op: { readonly step: number; readonly lane: number }) =>
    `#${idOf.get(op.step) ?? op.step} ${op.lane < 0 ? 'harness' : `client ${op.lane + 1}`}`;
  const bars = decorateBars(frames.frames, {
    fixture: r.fixture,
    spec: r.spec,
    steps: [],
    failures: r.failures,
    outcomes: new Map(),
    placeText,
  });
  const rows = [...new Set(bars.map((b) => b.row))].sort((a, b) => a - b);
  const { spec } = r;
  return {
    title: `Soak of ${r.handlerName}: ${r.verdict}`,
    description: `${r.clients} clients, seed ${r.seed}; ${r.counts.operations} operations in all`,
    handlerName: r.handlerName,
    mode: 'soak',
    status: r.verdict === 'passed' ? 'passed' : 'failed',
    axis: { unit: 'ms', start: frames.start, end: frames.end },
    lanes: rows.map((key) => ({ key, label: key < 0 ? 'harness' : `client ${key + 1}` })),
    bars,
    markers: [],
    verdict: timelineVerdict({
      fixture: r.fixture,
      spec,
      failures: r.failures,
      ran: true,
      placeText,
    }),
    failures: r.failures.map((f) => {
      const e = explainFailure(f, spec);
      return { where: f.kind, ...(e.rule ? { rule: e.rule } : {}), text: e.text };
    }),
    database: timelineDatabase(r.failures, true),
    reproduce: [
      `npx receiptcheck soak --handler ${quoteArg(r.handler)} --clients ${r.clients} --seed ${r.seed}   (timing is not seeded: a soak may need several runs to fail again)`,
    ],
    scope: `${part.why}${historyFile ? `; the whole history (${r.history.length} operations) is in ${historyFile}` : ''}`,
  };
}

/**
 * The part of the history to draw, and why it is that part: the partition holding the calls the
 * checker could not place, up to the last of them (and a few after), at most
 * `SOAK_OPERATIONS_SHOWN` operations.
 */
function failingPart(r: SoakReportInput): { entries: readonly HistoryEntry[]; why: string } {
  const lin = r.failures.find((f) => f.kind === 'linearizability');
  const ids = new Set(lin?.kind === 'linearizability' ? lin.stuck.map((op) => op.id) : []);
  const parts = ids.size > 0 ? partitionHistory(initialState(r.fixture, r.spec), r.history) : [];
  const failing = parts.filter((p) => p.some((e) => ids.has(e.id))).flat();
  if (failing.length === 0)
    return {
      entries: r.history.slice(-SOAK_OPERATIONS_SHOWN),
      why: `the last ${Math.min(SOAK_OPERATIONS_SHOWN, r.history.length)} of ${r.history.length} operations`,
    };
  const lastStuck = Math.max(...ids);
  const upTo = failing.sort((a, b) => a.id - b.id).filter((e) => e.id <= lastStuck + 20);
  const entries = upTo.slice(-SOAK_OPERATIONS_SHOWN);
  const whole = parts.length === 1 ? ' (the history did not split: one part holds it all)' : '';
  return {
    entries,
    why: `the failing partition${whole}: ${failing.length} of ${r.history.length} operations hold the calls the checker could not place${entries.length < failing.length ? `; ${entries.length} of them drawn, up to the last of those calls` : ''}`,
  };
}
