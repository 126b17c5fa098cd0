/**
 * How one concurrent run is spread over the pool's workers, worked out before anything runs: its
 * phases, one after another, and each worker's script of parts (`protocol.ts`'s `ScriptPart`).
 *
 * - The plain steps up to the next group are one phase with one part, on worker 0: plain steps
 *   never overlap anything, so they run back to back on one worker. A lost request among them is
 *   a `stamp` item, stamped by that worker where it stands between its neighbours.
 * - A concurrent group is one phase per wave of at most `poolSize` lanes; the wave's lanes that
 *   reach a worker go to workers 0, 1, … in lane order, one part each, released together by the
 *   gate their items carry (`gate.ts`) when there are two or more. A lost request in a group
 *   reaches no worker; it is stamped when its wave's phase ended (or the phase before, for a wave
 *   where nothing reached a worker).
 *
 * Every operation is listed in step and lane order with where its reply will be, so the runner
 * reads the history back in the order the old one-task-per-batch runner recorded it.
 */
import type { Event, Step } from '../../../model/events.ts';
import { createGate } from './gate.ts';
import type { GateRef, ScriptItem, ScriptPart } from './protocol.ts';

/** One operation of the run and where its reply comes from. */
export interface PlannedOp {
  readonly step: number;
  /** The lane within its group (0 for a plain step). */
  readonly lane: number;
  readonly event: Event;
  /** The worker slot and the index of its item in that worker's script; absent for a lost request in a group. */
  readonly at?: { readonly slot: number; readonly index: number };
  /** For a lost request in a group, the phase whose end stamps it (-1: the run's start). */
  readonly stampedAfter?: number;
}

/** The whole plan: a script per worker slot (slot 0 first), the number of phases, every operation. */
export interface RunPlan {
  readonly scripts: readonly (readonly ScriptPart[])[];
  readonly phases: number;
  readonly ops: readonly PlannedOp[];
}

/** Builds an event's item; undefined for a lost request (it never reaches a worker). */
export type ItemOf = (event: Event, gate?: GateRef) => ScriptItem | undefined;

const STAMP: ScriptItem = { type: 'stamp' };

/** Plans `steps` over a pool of `poolSize` workers (see the file's comment). */
export function planRun(steps: readonly Step[], poolSize: number, itemOf: ItemOf): RunPlan {
  if (!Number.isSafeInteger(poolSize) || poolSize < 1)
    throw new RangeError(`a run needs at least one worker (got ${poolSize})`);
  const scripts: { phase: number; parties: number; items: ScriptItem[] }[][] = [];
  /** Items placed so far on each slot: the next one's index in that worker's script. */
  const placed: number[] = [];
  const ops: PlannedOp[] = [];
  let phases = 0;
  const place = (slot: number, item: ScriptItem, phase: number, parties: number) => {
    const script = scripts[slot] ?? [];
    scripts[slot] = script;
    let part = script[script.length - 1];
    if (part?.phase !== phase) {
      part = { phase, parties, items: [] };
      script.push(part);
    }
    part.items.push(item);
    const index = placed[slot] ?? 0;
    placed[slot] = index + 1;
    return { slot, index };
  };
  let step = 0;
  while (step < steps.length) {
    const s = steps[step] as Step;
    if (s.kind !== 'concurrent') {
      const phase = phases++;
      for (; step < steps.length && (steps[step] as Step).kind !== 'concurrent'; step++) {
        const event = steps[step] as Event;
        const at = place(0, itemOf(event) ?? STAMP, phase, 1);
        ops.push({ step, lane: 0, event, at });
      }
      continue;
    }
    for (let from = 0; from < s.events.length; from += poolSize) {
      const wave = s.events.slice(from, from + poolSize);
      const sent = wave.filter((e) => itemOf(e) !== undefined).length;
      const gate = sent > 1 ? createGate(sent) : undefined;
      const phase = sent > 0 ? phases++ : phases - 1;
      let slot = 0;
      for (const [i, event] of wave.entries()) {
        const item = itemOf(event, gate);
        const lane = from + i;
        if (item) ops.push({ step, lane, event, at: place(slot++, item, phase, sent) });
        else ops.push({ step, lane, event, stampedAfter: phase });
      }
    }
    step++;
  }
  return { scripts, phases, ops };
}
