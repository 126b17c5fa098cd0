/**
 * The linearizability verdict drawn on top of the lanes: for a history no serial order explains,
 * the longest order the checker built and the calls it could not place, each with the contract
 * rule it breaks; otherwise the serial order the verdict rests on, which explains the history.
 * Pure.
 */
import type { Event } from '../../model/events.ts';
import type { OperationSpec } from '../../model/operation.ts';
import { describeOutcome, type Observed, sameOutcome } from '../../model/outcome.ts';
import type { FixtureWithPolicy } from '../../model/state.ts';
import type { Failure, PlacedOperation } from '../../types/verdict.ts';
import { describeEvent } from '../describe-event.ts';
import { explainLinearizability } from '../explain-linearizability.ts';
import { ruleFor } from '../rule-for.ts';
import type { OrderItem, StuckItem, TimelineVerdict } from './timeline.ts';

/** An operation of an order: where it stood, what it was, what the client saw. */
export interface OrderedOperation {
  readonly step: number;
  readonly lane: number;
  readonly event: Event;
  readonly observed?: Observed;
  /** What the contract gives where the client saw something else. */
  readonly expected?: Observed;
}

/** What the verdict is computed from. */
export interface VerdictSources {
  readonly fixture: FixtureWithPolicy;
  /** The operation of the run: operations are described, and rules explained, in its terms. */
  readonly spec: OperationSpec;
  readonly failures: readonly Failure[];
  /** The serial order the run's verdict rests on, when it has one. */
  readonly order?: readonly OrderedOperation[];
  /** Whether anything ran: a case file alone has no verdict. */
  readonly ran: boolean;
  /** How an operation is named: `step 2 lane 1` by default. */
  readonly placeText?: (op: { readonly step: number; readonly lane: number }) => string;
}

/** The verdict to draw. */
export function timelineVerdict(s: VerdictSources): TimelineVerdict {
  const placeText = s.placeText ?? ((op) => `step ${op.step + 1} lane ${op.lane + 1}`);
  const item = (op: OrderedOperation): OrderItem => ({
    place: placeText(op),
    label: describeEvent(op.event, s.fixture, s.spec),
    ...(op.observed ? { outcome: describeOutcome(op.observed) } : {}),
    ...(op.expected && op.observed && !sameOutcome(op.expected, op.observed)
      ? { expected: describeOutcome(op.expected) }
      : {}),
  });
  const lin = s.failures.find((f) => f.kind === 'linearizability');
  if (lin?.kind === 'linearizability') {
    const text = explainLinearizability(lin, s.spec).text;
    if (lin.verdict === 'unknown') return { kind: 'unknown', text };
    return {
      kind: 'illegal',
      order: lin.longestPrefix.map(item),
      orderLength: lin.prefixLength ?? lin.longestPrefix.length,
      stuck: lin.stuck.map((op) => stuckItem(op, item(op), s)),
      text,
    };
  }
  if (!s.ran)
    return {
      kind: 'notRun',
      text: 'this file holds no run: the bars show its steps and what it expects; replay it with --html to see a run',
    };
  if (!s.order || s.order.length === 0)
    return { kind: 'order', order: [], text: 'the run recorded no serial order' };
  const others = s.failures.length > 0;
  return {
    kind: 'order',
    order: s.order.map(item),
    text: others
      ? 'the serial order the outcomes were checked against; the failures below are where the handler disagreed with it'
      : 'one serial order consistent with real time that explains every outcome the clients saw',
  };
}

function stuckItem(op: PlacedOperation, base: OrderItem, s: VerdictSources): StuckItem {
  const blamed =
    op.expected !== undefined &&
    op.observed !== undefined &&
    !sameOutcome(op.expected, op.observed);
  if (!blamed || !op.expected) return { ...base, blamed: false };
  const r = ruleFor(op.expected, s.spec);
  return {
    ...base,
    expected: describeOutcome(op.expected),
    ...(r.rule ? { rule: r.rule } : {}),
    ruleText: r.text,
    blamed: true,
  };
}
