/**
 * Bars for a scheduled run: the axis counts the scheduler's grants, each call spans from its
 * first grant to its last, and every statement it ran is a tick inside it, with its full SQL,
 * lock waits (`blocked`), injected faults and crashes. The harness's own notes (a stall) become
 * markers across every lane.
 */
import type { Step } from '../../model/events.ts';
import type { TraceEntry } from '../../types/scheduled-trace.ts';
import { describeEntry } from '../render-lanes.ts';
import type { BarFrame } from './bar-frame.ts';
import type { TimelineMarker, TimelineTick } from './timeline.ts';

/** Frames for `steps` run under the grants `entries`, and the stall markers. */
export function grantFrames(
  steps: readonly Step[],
  entries: readonly TraceEntry[],
): { frames: BarFrame[]; markers: TimelineMarker[]; end: number } {
  const ticks = new Map<string, TimelineTick[]>();
  const markers: TimelineMarker[] = [];
  const stepFirst = new Map<number, number>();
  entries.forEach((e, at) => {
    if (!stepFirst.has(e.step)) stepFirst.set(e.step, at);
    if (e.lane < 0) {
      markers.push({ at, label: describeEntry(e) });
      return;
    }
    const key = `${e.step}:${e.lane}`;
    const tick: TimelineTick = {
      at,
      grant: e.grant,
      point: e.point,
      ...(e.sql !== undefined ? { sql: e.sql } : {}),
      ...(e.params ? { params: e.params } : {}),
      ...(e.result !== undefined ? { result: e.result } : {}),
      ...(e.durable ? { durable: true } : {}),
      label: describeEntry(e),
    };
    ticks.set(key, [...(ticks.get(key) ?? []), tick]);
  });
  const frames: BarFrame[] = [];
  let cursor = 0;
  steps.forEach((s, step) => {
    const events = s.kind === 'concurrent' ? s.events : [s];
    const from = stepFirst.get(step) ?? cursor;
    let stepEnd = from + 1;
    events.forEach((event, lane) => {
      const own = ticks.get(`${step}:${lane}`) ?? [];
      const first = own[0];
      const last = own[own.length - 1];
      // A lane with no grant (a lost request, a world event the harness ran) gets a sliver.
      const start = first ? first.at : from;
      const end = last ? last.at + 1 : from + 0.5;
      const crashed = own.some((t) => t.grant === 'crash');
      stepEnd = Math.max(stepEnd, end);
      frames.push({
        id: frames.length,
        step,
        lane,
        row: lane,
        event,
        start,
        end,
        open: crashed || (event.kind === 'call' && event.delivery === 'lostResponse'),
        ...(crashed ? { crashed: true } : {}),
        ticks: own,
      });
    });
    cursor = stepEnd;
  });
  return { frames, markers, end: Math.max(cursor, entries.length, 1) };
}
