/**
 * Computes a counterexample's timeline (`timeline.ts`) from what a run left: a shrunk
 * counterexample, a replayed case, or a case file alone. The axis follows what was recorded: a
 * scheduled run's grants, a real-thread run's clock, else one slot per step. Pure: the HTML page
 * is drawn from this data and nothing else.
 */
import type { Event, Step } from '../../model/events.ts';
import type { HistoryEntry } from '../../model/history.ts';
import type { Observed } from '../../model/outcome.ts';
import type { OutcomePattern } from '../../model/outcome-pattern.ts';
import { initialState } from '../../model/state.ts';
import { step as modelStep } from '../../model/step.ts';
import type { CaseFile, StepExpectation } from '../../types/case-file.ts';
import type { Place } from '../../types/execution.ts';
import type { TraceEntry } from '../../types/scheduled-trace.ts';
import { explainFailure } from '../explain-failure.ts';
import { placeKey } from '../injections.ts';
import type { ReadableCase, RenderContext } from '../readable-case.ts';
import { observedOutcomes } from '../recorded-calls.ts';
import { reproduce } from '../reproduce.ts';
import { triageLine, triageOf } from '../triage.ts';
import type { BarFrame } from './bar-frame.ts';
import { decorateBars } from './decorate-bars.ts';
import { grantFrames } from './grant-frames.ts';
import { historyFrames } from './history-frames.ts';
import { stepFrames } from './step-frames.ts';
import type { AxisUnit, FailureLine, Timeline, TimelineLane, TimelineMarker } from './timeline.ts';
import { timelineDatabase } from './timeline-database.ts';
import { type OrderedOperation, timelineVerdict } from './timeline-verdict.ts';

/** A case to draw: a counterexample or a replayed case, with what else the run or file kept. */
export interface TimelineCase extends ReadableCase {
  readonly name?: string;
  readonly description?: string;
  /** A case file's promises, drawn on calls when nothing ran. */
  readonly expectations?: readonly StepExpectation[];
  readonly expectFinal?: CaseFile['expectFinal'];
  /** False for a case file that records no run (a scenario). Default true. */
  readonly ran?: boolean;
}

/** The timeline of `c`; `context` gives the saved path for the reproduce commands. */
export function buildTimeline(c: TimelineCase, context: RenderContext = {}): Timeline {
  const ran = c.ran !== false;
  const layout = layoutOf(c);
  const answers = ran ? observedOutcomes(c) : new Map<string, Observed>();
  const modelled = ran ? modelAlong(c, layout.order) : new Map<string, Observed>();
  const bars = decorateBars(layout.frames, {
    fixture: c.fixture,
    spec: c.spec,
    steps: c.steps,
    failures: c.failures,
    outcomes: answers,
    modelled,
    patterns: patternsOf(c.expectations ?? []),
    detail: c.detail,
  });
  const rows = [...new Set(bars.map((b) => b.row))].sort((a, b) => a - b);
  const lanes: TimelineLane[] = rows.map((key) => ({ key, label: `lane ${key + 1}` }));
  const wrong = new Map(
    c.failures.flatMap((f) =>
      f.kind === 'outcome' ? [[placeKey(f.step, f.lane), f] as const] : [],
    ),
  );
  const order = layout.order?.flatMap((p): OrderedOperation[] => {
    const event = eventAt(c.steps, p);
    if (!event) return [];
    const key = placeKey(p.step, p.lane);
    const failed = wrong.get(key);
    const observed = failed?.actual ?? answers.get(key) ?? modelled.get(key);
    return [
      {
        ...p,
        event,
        ...(observed ? { observed } : {}),
        ...(failed ? { expected: failed.expected } : {}),
      },
    ];
  });
  const { spec } = c;
  const failures: FailureLine[] = c.failures.map((f) => {
    const e = explainFailure(f, spec);
    return { where: whereOf(f, c.steps), ...(e.rule ? { rule: e.rule } : {}), text: e.text };
  });
  return {
    title: c.name ?? `Counterexample for ${c.handlerName} (${c.mode} mode)`,
    description: c.description ?? '',
    handlerName: c.handlerName,
    mode: c.mode,
    status: !ran ? 'not run' : c.failures.length > 0 ? 'failed' : 'passed',
    axis: { unit: layout.unit, start: 0, end: layout.end },
    lanes,
    bars,
    markers: layout.markers,
    verdict: timelineVerdict({
      fixture: c.fixture,
      spec,
      failures: c.failures,
      ...(order ? { order } : {}),
      ran,
    }),
    failures,
    ...(ran && c.failures.length > 0 ? { triage: triageLine(triageOf(c)) } : {}),
    database: timelineDatabase(c.failures, ran, c.expectFinal),
    reproduce: reproduce(c, context)
      .slice(1)
      .map((l) => l.trim()),
  };
}

interface Layout {
  readonly unit: AxisUnit;
  readonly end: number;
  readonly frames: readonly BarFrame[];
  readonly markers: TimelineMarker[];
  /** The serial order the run's verdict rests on, when the run kept one. */
  readonly order?: readonly Place[];
}

/** Bars on the axis the run recorded: grants, its clock, or steps. */
function layoutOf(c: TimelineCase): Layout {
  const d = c.detail as
    | {
        mode?: unknown;
        entries?: unknown;
        history?: unknown;
        places?: unknown;
        order?: unknown;
      }
    | undefined;
  if (d?.mode === 'scheduled' && Array.isArray(d.entries)) {
    const g = grantFrames(c.steps, d.entries as TraceEntry[]);
    return {
      unit: 'grant',
      end: g.end,
      frames: g.frames,
      markers: g.markers,
      ...(Array.isArray(d.order) ? { order: d.order as Place[] } : {}),
    };
  }
  if (d?.mode === 'concurrent' && Array.isArray(d.history) && Array.isArray(d.places)) {
    const places = d.places as Place[];
    const h = historyFrames(d.history as HistoryEntry[], (e) => {
      const p = places[e.id];
      return p ? { ...p, row: p.lane } : undefined;
    });
    const order = Array.isArray(d.order)
      ? (d.order as number[]).flatMap((id) => (places[id] ? [places[id]] : []))
      : undefined;
    return {
      unit: 'ms',
      end: h.end,
      frames: h.frames,
      markers: [],
      ...(order ? { order } : {}),
    };
  }
  return {
    unit: 'step',
    end: Math.max(1, c.steps.length),
    frames: stepFrames(c.steps, c.mode),
    markers: [],
    ...(c.mode === 'sequential' && c.ran !== false ? { order: flatOrder(c.steps) } : {}),
  };
}

/**
 * The model's outcome of each call along the run's serial order, by `placeKey`: what a call is
 * drawn with when the case keeps no answer of the handler's (an older file), and beside the
 * handler's answer where the two differ.
 */
function modelAlong(c: TimelineCase, order: readonly Place[] | undefined): Map<string, Observed> {
  const out = new Map<string, Observed>();
  if (!order) return out;
  let state = initialState(c.fixture, c.spec);
  for (const p of order) {
    const event = eventAt(c.steps, p);
    if (!event) continue;
    const t = modelStep(state, event);
    state = t.state;
    if (t.outcome) out.set(placeKey(p.step, p.lane), t.outcome);
  }
  return out;
}

function flatOrder(steps: readonly Step[]): Place[] {
  return steps.flatMap((s, step) =>
    s.kind === 'concurrent' ? s.events.map((_, lane) => ({ step, lane })) : [{ step, lane: 0 }],
  );
}

function eventAt(steps: readonly Step[], p: Place): Event | undefined {
  const s = steps[p.step];
  if (!s) return undefined;
  return s.kind === 'concurrent' ? s.events[p.lane] : p.lane === 0 ? s : undefined;
}

function patternsOf(expectations: readonly StepExpectation[]): Map<string, OutcomePattern> {
  const out = new Map<string, OutcomePattern>();
  for (const e of expectations) if ('lane' in e) out.set(placeKey(e.step, e.lane), e.outcome);
  return out;
}

function whereOf(f: TimelineCase['failures'][number], steps: readonly Step[]): string {
  const group = (step: number) => steps[step]?.kind === 'concurrent';
  if (f.kind === 'outcome' || (f.kind === 'hang' && f.event !== undefined))
    return `step ${f.step + 1}${group(f.step) ? ` lane ${f.lane + 1}` : ''}`;
  if (f.kind === 'hang') return 'after the last step';
  if (f.kind === 'invariant' && f.step !== undefined) return `after step ${f.step + 1}`;
  if (f.kind === 'snapshot') return 'the database at the end';
  if (f.kind === 'linearizability') return 'the order of the concurrent calls';
  return '';
}
