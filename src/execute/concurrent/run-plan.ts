/**
 * Who does what in one concurrent run, worked out the same way on the main thread and on every
 * worker from the steps alone, so no message has to carry it.
 *
 * A run is carried out by `parts` workers at once, each walking the sequence with its own list
 * of items. Part 0 runs every plain step, back to back, with no hand-off in between. A
 * concurrent group runs in waves of at most `size` lanes (the pool's size); the j-th event of a
 * wave that reaches a worker (a lost request does not) is part j's, and the parts of a wave meet
 * at its barrier (`lane-board.ts`) so that their calls overlap on separate threads and
 * connections. A wave with one event sent is just part 0's. After each wave part 0 waits for the
 * wave's other parts to finish (`join`) before it goes on, so every step starts after the one
 * before it ended; it also stamps the wave's lost requests, at that instant. Pure.
 */
import { type Event, type Step, unsentOutcome } from '../../model/events.ts';

/** One thing a part does, in order. `lane` is the event's lane in its step (its history client). */
export type PartItem =
  /** Run `event` alone (a plain step, or a wave with one event sent). */
  | { readonly kind: 'solo'; readonly step: number; readonly lane: number; readonly event: Event }
  /** Meet the other `width` parts of wave `wave`, run `event`, count it done. */
  | {
      readonly kind: 'lane';
      readonly step: number;
      readonly lane: number;
      readonly event: Event;
      readonly wave: number;
      readonly width: number;
    }
  /** Part 0: wait until the `width` lanes of wave `wave` are done. */
  | { readonly kind: 'join'; readonly wave: number; readonly width: number }
  /** Part 0: stamp a lost request, which never reaches a worker. */
  | {
      readonly kind: 'unsent';
      readonly step: number;
      readonly lane: number;
      readonly event: Event;
    };

/** The whole run's plan. */
export interface RunPlan {
  /** Workers the run needs: the widest wave, at least 1. */
  readonly parts: number;
  /** Barriers the run needs (waves of two or more events sent), numbered from 0. */
  readonly waves: number;
  /** `items[p]`: part p's items, in order. */
  readonly items: readonly (readonly PartItem[])[];
}

/** The plan for `steps` on a pool of `size` workers. */
export function planRun(steps: readonly Step[], size: number): RunPlan {
  if (!Number.isSafeInteger(size) || size < 1)
    throw new RangeError(`a run needs a positive number of workers (got ${size})`);
  const items: PartItem[][] = [[]];
  const zero = items[0] as PartItem[];
  let waves = 0;
  for (const [step, s] of steps.entries()) {
    const events = s.kind === 'concurrent' ? s.events : [s];
    for (let from = 0; from < events.length; from += size) {
      const lanes = events.slice(from, from + size).map((event, i) => ({ event, lane: from + i }));
      const sent = lanes.filter((l) => unsentOutcome(l.event) === undefined);
      const unsent = lanes.filter((l) => unsentOutcome(l.event) !== undefined);
      if (sent.length === 1) {
        const only = sent[0] as (typeof sent)[number];
        zero.push({ kind: 'solo', step, lane: only.lane, event: only.event });
      } else if (sent.length > 1) {
        const wave = waves++;
        const width = sent.length;
        for (const [j, l] of sent.entries()) {
          while (items.length <= j) items.push([]);
          (items[j] as PartItem[]).push({ kind: 'lane', step, ...l, wave, width });
        }
        zero.push({ kind: 'join', wave, width });
      }
      for (const l of unsent) zero.push({ kind: 'unsent', step, ...l });
    }
  }
  return { parts: items.length, waves, items };
}

/** The first lane of the wave holding `lane` (waves of `size` lanes). */
export function waveStart(lane: number, size: number): number {
  return lane - (lane % size);
}
