/**
 * Bars for a run on real threads: each operation from the moment it was sent to the moment its
 * answer arrived, on the run's own clock (ms from the first send). An operation whose answer
 * never came (a lost response, a crash) stays open to the end of the axis.
 */
import type { HistoryEntry } from '../../model/history.ts';
import type { BarFrame } from './bar-frame.ts';

/** Where an entry stood: its step and lane, and the row it is drawn in. */
export interface EntryPlace {
  readonly step: number;
  readonly lane: number;
  readonly row: number;
}

/** Frames for `history` (entries without a place are left out), and the axis they need. */
export function historyFrames(
  history: readonly HistoryEntry[],
  placeOf: (e: HistoryEntry) => EntryPlace | undefined,
): { frames: BarFrame[]; start: number; end: number } {
  if (history.length === 0) return { frames: [], start: 0, end: 1 };
  const start = Math.min(...history.map((e) => e.invokedAt));
  const last = Math.max(...history.map((e) => e.completedAt ?? e.invokedAt));
  // Open bars reach a little past the last event, so they read as "still waiting".
  const end = last + Math.max((last - start) * 0.05, 0.001);
  const frames: BarFrame[] = [];
  for (const e of history) {
    const at = placeOf(e);
    if (!at) continue;
    frames.push({
      id: e.id,
      ...at,
      event: e.event,
      start: e.invokedAt - start,
      end: (e.completedAt ?? end) - start,
      open: e.completedAt === undefined,
      ...(e.observed ? { observed: e.observed } : {}),
      ticks: [],
    });
  }
  return { frames, start: 0, end: end - start };
}
