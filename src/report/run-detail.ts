/**
 * A run's detail for reports and saved cases, from its execution record and its judgement: a
 * concurrent run's history and linearisation, a scheduled run's schedule, trace hash and lanes
 * view. The hash, the lanes and how each call ended are computed when first read (a report, a
 * saved counterexample), not for every passing run. Pure.
 */
import type { Judgement } from '../check/judge-run.ts';
import type {
  Execution,
  Place,
  RunDetail,
  ScheduledCallEnd,
  ScheduledDetail,
} from '../types/execution.ts';
import type { Trace } from '../types/trace.ts';
import { renderLanes } from './render-lanes.ts';
import { traceHash } from './trace-hash.ts';

/** The detail of a run; undefined for a sequential one, whose trace says everything. */
export function runDetail(execution: Execution, judgement: Judgement): RunDetail | undefined {
  if (execution.mode === 'concurrent') {
    const order = judgement.mode === 'concurrent' ? judgement.order : undefined;
    return {
      mode: 'concurrent',
      history: execution.history,
      places: execution.places,
      ...(order ? { order } : {}),
    };
  }
  if (execution.mode !== 'scheduled') return undefined;
  const { entries, schedule } = execution;
  let lanes: string | undefined;
  let hash: string | undefined;
  let ends: ScheduledCallEnd[] | undefined;
  const detail: ScheduledDetail = {
    mode: 'scheduled',
    schedule,
    get traceHash() {
      hash ??= traceHash(entries);
      return hash;
    },
    get lanes() {
      lanes ??= renderLanes(entries);
      return lanes;
    },
    entries,
    order: judgement.mode === 'scheduled' ? judgement.order : [],
    get ends() {
      ends ??= callEnds(
        execution.lanes,
        judgement.trace,
        judgement.mode === 'scheduled' ? judgement.leftClaim : undefined,
      );
      return ends;
    },
    ...(execution.decisions ? { decisions: execution.decisions } : {}),
    ...(execution.serverOrdered ? { serverOrdered: true as const } : {}),
  };
  return detail;
}

/**
 * Whether `detail` (a case result's, whatever its mode) is a scheduled run whose path the server
 * chose in part (`ScheduledDetail.serverOrdered`): the same schedule may take another path.
 */
export function isServerOrdered(detail: unknown): boolean {
  const d = detail as RunDetail | undefined;
  return d?.mode === 'scheduled' && d.serverOrdered === true;
}

/**
 * How each call of a scheduled run ended, so a report shows every call's outcome, not only the
 * failing ones; a call that crashed after a commit carries the outcome the verdict read it as
 * having had (the trace's observation of it), if any, or that it left its claim (`leftClaim`).
 */
function callEnds(
  lanes: Extract<Execution, { mode: 'scheduled' }>['lanes'],
  trace: Trace,
  leftClaim: readonly Place[] = [],
): ScheduledCallEnd[] {
  const read = new Map(trace.observations.map((o) => [`${o.step}:${o.lane}`, o.observed]));
  const claimed = new Set(leftClaim.map((p) => `${p.step}:${p.lane}`));
  return lanes.flatMap((r) => {
    if (r.event.kind !== 'call') return [];
    const at = `${r.step}:${r.lane}`;
    const readAs = r.end.kind === 'crashed' ? read.get(at) : undefined;
    const claim = r.end.kind === 'crashed' && claimed.has(at);
    return [
      {
        step: r.step,
        lane: r.lane,
        end: r.end,
        ...(readAs ? { readAs } : {}),
        ...(claim ? { leftClaim: true as const } : {}),
      },
    ];
  });
}
