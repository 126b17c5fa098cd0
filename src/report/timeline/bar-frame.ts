/**
 * Where a call or world event sits on the axis, before the outcome is known: what each mode's
 * bar builder (steps, history, grants) returns and `decorate-bars.ts` turns into a drawn bar.
 */
import type { Event } from '../../model/events.ts';
import type { Observed } from '../../model/outcome.ts';
import type { TimelineTick } from './timeline.ts';

/** One operation placed on the axis. */
export interface BarFrame {
  readonly id: number;
  readonly step: number;
  readonly lane: number;
  readonly row: number;
  readonly event: Event;
  readonly start: number;
  readonly end: number;
  /** No answer came back: a lost response, a crash, an interval that never closed. */
  readonly open: boolean;
  /** What the run recorded the client saw, when it recorded it per operation. */
  readonly observed?: Observed;
  /** The lane's connection died here (scheduled crash). */
  readonly crashed?: boolean;
  readonly ticks: readonly TimelineTick[];
}
