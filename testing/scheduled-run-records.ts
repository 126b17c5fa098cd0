/**
 * Test-only builders for the scheduled-run checker's tests: set_interval calls and answers, lane
 * records, the model's database after some events, the check on the default fixture, and a
 * scheduled counterexample saved and read back as a case file.
 */

import { checkScheduledRun } from '../src/check/check-scheduled-run.ts';
import type { CallEvent, Event, Step } from '../src/model/events.ts';
import { setInterval } from '../src/model/operations/set-interval.ts';
import type { Observed } from '../src/model/outcome.ts';
import { initialState, toSnapshot } from '../src/model/state.ts';
import { run as runModel } from '../src/model/step.ts';
import { DEFAULT_FIXTURE, type Snapshot } from '../src/model/world.ts';
import { formatCaseFile, parseCaseFile } from '../src/report/case-file.ts';
import type { CaseFile } from '../src/types/case-file.ts';
import type { Counterexample } from '../src/types/results.ts';
import type { LaneEnd, LaneRecord } from '../src/types/scheduled-trace.ts';

export const call = (requestId: string, minutes: number, version = 1, client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: version, intervalMinutes: minutes },
});
export const fresh = (minutes: number, version = 2): Observed => ({
  kind: 'ok',
  replayed: false,
  result: { id: 1, intervalMinutes: minutes, version },
});
export const replayed = (minutes: number): Observed =>
  ({ ...(fresh(minutes) as object), replayed: true }) as Observed;
export const seen = (observed: Observed, faulted = false): LaneEnd => ({
  kind: 'observed',
  observed,
  faulted,
});
export const rec = (
  step: number,
  lane: number,
  event: Event,
  end: LaneEnd,
  effectAt: number,
): LaneRecord => ({
  step,
  lane,
  event,
  end,
  effectAt,
});
/** The database the model ends with after `events` in this order. */
export const modelAfter = (...events: Event[]): Snapshot =>
  toSnapshot(runModel(initialState(DEFAULT_FIXTURE, setInterval), events).state);
export const check = (steps: Step[], lanes: LaneRecord[], snapshot: Snapshot) =>
  checkScheduledRun({ fixture: DEFAULT_FIXTURE, spec: setInterval, steps, lanes, snapshot });

/** A scheduled counterexample written as its case file and parsed back, as `replay` reads it. */
export const savedScheduledCase = (cx: Counterexample): CaseFile =>
  parseCaseFile(
    formatCaseFile({
      name: 'cx',
      description: '',
      handler: cx.handler,
      mode: 'scheduled',
      fixture: cx.fixture,
      steps: cx.steps,
      extra: { seed: cx.seed, detail: cx.detail },
    }),
    'cx.json',
  );
