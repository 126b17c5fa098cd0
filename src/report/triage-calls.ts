/**
 * The failing calls of a counterexample, read for triage (`triage.ts`): what each answered against
 * what the contract gives, and what its key met before it (earlier answers under the same key, a
 * crash, a failing receipt store, a call racing it in the same group). Data only; pure.
 */
import type { CallEvent } from '../model/events.ts';
import { flatten } from '../model/flatten.ts';
import type { Observed } from '../model/outcome.ts';
import { initialState } from '../model/state.ts';
import { step as modelStep } from '../model/step.ts';
import { callKey, failingPlaces } from './failing-calls.ts';
import { placeKey, scheduledInjections, storeFailingAt } from './injections.ts';
import type { ReadableCase } from './readable-case.ts';
import { crashedCalls, observedOutcomes } from './recorded-calls.ts';

/** One failing call and what its key met: the signals a triage rule reads. */
export interface TriageCall {
  readonly step: number;
  readonly lane: number;
  /** What the contract (under the declared policy) gives. */
  readonly expected: Observed;
  /** What the handler answered. */
  readonly actual: Observed;
  /** Answers of earlier calls under the same key (same client, same request id), in order. */
  readonly before: readonly Observed[];
  /** An earlier call under the same key crashed (scheduled mode). */
  readonly crashedBefore: boolean;
  /** The receipt store was failing while this call ran. */
  readonly storeFailing: boolean;
  /**
   * Another call under its key ran at the same time, in the same group (race modes only): the
   * same request, or a changed one.
   */
  readonly raced?: 'identical' | 'changed';
}

/** The failing calls of `c` that have both an expected and an actual answer, in step order. */
export function triageCalls(c: ReadableCase): TriageCall[] {
  const failing = failingPlaces(c.failures);
  const answers = answersOf(c);
  const crashed = new Set(crashedCalls(c.detail).keys());
  for (const [key, list] of scheduledInjections(c.detail))
    if (list.some((i) => i.kind === 'crash')) crashed.add(key);
  const store = storeFailingAt(c.steps);
  const calls: TriageCall[] = [];
  const earlier = new Map<string, { answers: Observed[]; crashed: boolean }>();
  for (const [step, s] of c.steps.entries()) {
    const events = s.kind === 'concurrent' ? s.events : [s];
    const lanes = events.flatMap((e, lane) => (e.kind === 'call' ? [{ e, lane }] : []));
    for (const { e, lane } of lanes) {
      const key = callKey(e);
      const f = failing.get(placeKey(step, lane));
      const seen = earlier.get(key) ?? { answers: [], crashed: false };
      if (f?.expected && f.actual) {
        const raced = racedIn(
          e,
          lanes.filter((l) => l.lane !== lane).map((l) => l.e),
          // Sequential mode runs a group in lane order: no call there is ever in flight.
          s.kind === 'concurrent' && c.mode !== 'sequential',
        );
        calls.push({
          step,
          lane,
          expected: f.expected,
          actual: f.actual,
          before: seen.answers,
          crashedBefore: seen.crashed,
          storeFailing: store[step] !== undefined,
          ...(raced ? { raced } : {}),
        });
      }
    }
    // A group's lanes are each other's partners, not each other's history: recorded after it.
    for (const { e, lane } of lanes) {
      const key = callKey(e);
      const seen = earlier.get(key) ?? { answers: [], crashed: false };
      const answer = answers.get(placeKey(step, lane));
      earlier.set(key, {
        answers: answer ? [...seen.answers, answer] : seen.answers,
        crashed: seen.crashed || crashed.has(placeKey(step, lane)),
      });
    }
  }
  return calls;
}

/** How `e` raced the other calls of its group: under its key, the same request or another. */
function racedIn(
  e: CallEvent,
  others: readonly CallEvent[],
  group: boolean,
): TriageCall['raced'] | undefined {
  if (!group) return undefined;
  const partners = others.filter((o) => callKey(o) === callKey(e));
  if (partners.length === 0) return undefined;
  const same = (o: CallEvent) => JSON.stringify(o.request) === JSON.stringify(e.request);
  return partners.some(same) ? 'identical' : 'changed';
}

/**
 * Every call's answer: the handler's where the case keeps them, else (a sequential case saved
 * without them) the model's, which the handler matched wherever no failure says otherwise.
 */
function answersOf(c: ReadableCase): Map<string, Observed> {
  const out = new Map<string, Observed>();
  if (c.mode === 'sequential') {
    let state = initialState(c.fixture, c.spec);
    for (const placed of flatten(c.steps)) {
      const t = modelStep(state, placed.event);
      state = t.state;
      if (t.outcome) out.set(placeKey(placed.step, placed.lane), t.outcome);
    }
  }
  for (const [key, o] of observedOutcomes(c)) out.set(key, o);
  for (const f of c.failures) if (f.kind === 'outcome') out.set(placeKey(f.step, f.lane), f.actual);
  return out;
}
