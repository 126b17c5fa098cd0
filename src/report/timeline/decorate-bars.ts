/**
 * Turns placed frames into drawn bars: each call's words, what the client saw, and where that
 * differs from the contract the expected outcome and the rule it breaks; calls the checker could
 * not place are marked stuck; a hang stops the bars after it. Pure.
 */

import type { Step } from '../../model/events.ts';
import type { OperationSpec } from '../../model/operation.ts';
import { describeOutcome, type Observed, sameOutcome } from '../../model/outcome.ts';
import { describePattern, type OutcomePattern } from '../../model/outcome-pattern.ts';
import type { FixtureWithPolicy } from '../../model/state.ts';
import type { Failure, PlacedOperation } from '../../types/verdict.ts';
import { describeEvent } from '../describe-event.ts';
import { explainFailure } from '../explain-failure.ts';
import { hangMark } from '../explain-hang.ts';
import { describeInjection, placeKey, scheduledInjections, storeFailingAt } from '../injections.ts';
import { ruleFor } from '../rule-for.ts';
import type { BarFrame } from './bar-frame.ts';
import { outcomeClass } from './outcome-class.ts';
import type { OutcomeClass, TimelineBar } from './timeline.ts';

/** What the bars are decorated from. */
export interface BarSources {
  readonly fixture: FixtureWithPolicy;
  /** The operation of the run: calls are labelled, and failures explained, in its terms. */
  readonly spec: OperationSpec;
  readonly steps: readonly Step[];
  readonly failures: readonly Failure[];
  /** What the handler answered at each call, by `placeKey`, where the run kept it. */
  readonly outcomes: ReadonlyMap<string, Observed>;
  /**
   * The model's outcome of each call along the run's order, by `placeKey`: drawn where no answer
   * was kept, and as the expectation beside an answer that differs from it.
   */
  readonly modelled?: ReadonlyMap<string, Observed>;
  /** A case file's promises, by `placeKey`, drawn when nothing ran. */
  readonly patterns?: ReadonlyMap<string, OutcomePattern>;
  /** A scheduled run's detail, for its injected faults and crashes. */
  readonly detail?: unknown;
  /** How an operation is named: `step 2 lane 1` by default. */
  readonly placeText?: (frame: BarFrame) => string;
}

/** The bars for `frames`. */
export function decorateBars(frames: readonly BarFrame[], s: BarSources): TimelineBar[] {
  const { spec } = s;
  const wrong = new Map<string, Extract<Failure, { kind: 'outcome' }>>();
  const stuck = new Map<string, PlacedOperation>();
  const hang = s.failures.find((f) => f.kind === 'hang');
  for (const f of s.failures) {
    if (f.kind === 'outcome') wrong.set(placeKey(f.step, f.lane), f);
    if (f.kind === 'linearizability')
      for (const op of f.stuck) stuck.set(placeKey(op.step, op.lane), op);
  }
  const injected = scheduledInjections(s.detail);
  const store = s.steps.length > 0 ? storeFailingAt(s.steps) : [];
  const placeText = s.placeText ?? ((f: BarFrame) => `step ${f.step + 1} lane ${f.lane + 1}`);
  return frames.map((frame) => {
    const key = placeKey(frame.step, frame.lane);
    const event = frame.event;
    const notes = (injected.get(key) ?? []).map(describeInjection);
    const storeNote = store[frame.step];
    if (storeNote && event.kind === 'call' && event.delivery !== 'lostRequest')
      notes.push(describeInjection(storeNote));
    const base = {
      id: frame.id,
      step: frame.step,
      lane: frame.lane,
      row: frame.row,
      place: placeText(frame),
      label: describeEvent(event, s.fixture, spec),
      start: frame.start,
      end: frame.end,
      open: frame.open,
      notes,
      ticks: frame.ticks,
      stuck: stuck.has(key),
    };
    const drawn = (
      outcomeClassOf: OutcomeClass,
      rest: Partial<Pick<TimelineBar, 'outcome' | 'expected' | 'rule' | 'ruleText'>> = {},
      isWrong = false,
    ): TimelineBar => ({ ...base, outcomeClass: outcomeClassOf, ...rest, wrong: isWrong });
    if (hang?.kind === 'hang' && hang.step === frame.step && hang.lane === frame.lane)
      return drawn('hang', { outcome: hangMark(hang).replace(/^✗ /, '') }, true);
    if (hang?.kind === 'hang' && frame.step > hang.step)
      return drawn('unknown', { outcome: 'not run: the run stopped at the hang' });
    const failure = wrong.get(key);
    if (failure) {
      const e = explainFailure(failure, spec);
      return drawn(
        outcomeClass(failure.actual),
        {
          outcome: describeOutcome(failure.actual),
          expected: describeOutcome(failure.expected),
          ...(e.rule ? { rule: e.rule } : {}),
          ruleText: e.text,
        },
        true,
      );
    }
    const op = stuck.get(key);
    if (op?.expected && op.observed && !sameOutcome(op.expected, op.observed)) {
      const r = ruleFor(op.expected, spec);
      return drawn(
        outcomeClass(op.observed),
        {
          outcome: describeOutcome(op.observed),
          expected: describeOutcome(op.expected),
          ...(r.rule ? { rule: r.rule } : {}),
          ruleText: r.text,
        },
        true,
      );
    }
    if (event.kind !== 'call') return drawn('world');
    if (frame.crashed) return drawn('crashed', { outcome: 'crashed: the client gets no answer' });
    const answered = frame.observed ?? s.outcomes.get(key);
    const model = s.modelled?.get(key);
    const seen = answered ?? model;
    // The model leaves some values to the server (a created id) and any error message to the
    // handler: it accepts such an answer, which is drawn as the handler gave it.
    const differs =
      answered !== undefined && model !== undefined && !sameOutcome(model, answered)
        ? { expected: describeOutcome(model) }
        : {};
    if (event.delivery === 'lostResponse')
      return drawn('lost', {
        outcome: `response lost${seen ? ` (the handler answered ${describeOutcome(seen)})` : ''}: the client never sees it`,
        ...differs,
      });
    if (seen) return drawn(outcomeClass(seen), { outcome: describeOutcome(seen), ...differs });
    const pattern = s.patterns?.get(key);
    if (pattern)
      return drawn(patternClass(pattern), {
        outcome: `the file expects ${describePattern(pattern)}`,
      });
    return drawn(frame.open ? 'lost' : 'unknown');
  });
}

function patternClass(p: OutcomePattern): OutcomeClass {
  if (p.kind === 'ok')
    return (p as { replayed?: unknown }).replayed === true ? 'replayed' : 'fresh';
  return p.kind;
}
