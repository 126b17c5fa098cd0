/**
 * The coordinator's view of one lane while a step runs: where it is parked, whether it is blocked
 * on a lock, what it committed and what it answered, and the small updates reports make to it.
 * No threads here; the coordinator does the waiting.
 */
import type { Event } from '../../model/events.ts';
import type { Observed } from '../../model/outcome.ts';
import type { LaneEnd, LaneRecord, PointKind, TraceEntry } from '../../types/scheduled-trace.ts';
import type { StatementEnd } from './statement-end.ts';

/** One lane of the step being run. Mutable; lives only while the step runs. */
export interface LaneState {
  readonly lane: number;
  readonly event: Event;
  status: 'parked' | 'blocked' | 'done' | 'crashed';
  point: PointKind;
  sql?: string;
  /** Its bound parameters, as text, for the trace. */
  params?: readonly string[] | undefined;
  write: boolean;
  /** Index of the yield point the lane is parked at (0 = start of a call). */
  yieldIndex: number;
  /** Index of the write statement it is parked before, or -1. */
  writeIndex: number;
  writesSeen: number;
  /** The last grant given to this lane, to be completed by its next report. */
  entry?: TraceEntry;
  entryAt: number;
  blockedAt: number;
  blockedEpoch: number;
  timeoutMs: number;
  observed?: Observed;
  /** Whether the reply is a yield point of this lane (only when a crash is planned there). */
  parksAtReply: boolean;
  faulted: boolean;
  /** Its code waited on a timer or I/O since its last grant: its next decision hands over (`decide.ts`). */
  slept: boolean;
  committed: boolean;
  /** A write became durable after the lane's injected fault (`LaneEnd.durableAfterFault`). */
  durableAfterFault: boolean;
  startAt?: number;
  /** The last statement that ran ok: where a call that committed nothing settled its answer. */
  lastRunAt?: number;
  durableAt?: number;
}

/** A lane about to run `event`, parked at `point`. */
export function laneState(lane: number, event: Event, point: PointKind): LaneState {
  return {
    lane,
    event,
    status: 'parked',
    point,
    write: false,
    yieldIndex: -1,
    writeIndex: -1,
    writesSeen: 0,
    entryAt: -1,
    blockedAt: 0,
    blockedEpoch: 0,
    timeoutMs: 0,
    parksAtReply: false,
    slept: false,
    faulted: false,
    committed: false,
    durableAfterFault: false,
  };
}

/** The lane has reached its next yield point: a statement or its reply. */
export function arrive(
  s: LaneState,
  point: 'statement' | 'reply',
  sql: string | undefined,
  write: boolean,
  params?: readonly string[],
): void {
  if (s.status === 'blocked') s.status = 'parked';
  s.point = point;
  s.sql = sql;
  s.params = params;
  s.write = write;
  s.writeIndex = write ? s.writesSeen++ : -1;
  s.yieldIndex++;
}

/** The lane's granted statement ended as `end`; true (progress) when it completed at all. */
export function finish(s: LaneState, end: StatementEnd | undefined): boolean {
  if (!end || !s.entry) return false;
  s.entry.result = end.result;
  if (end.durable) {
    s.entry.durable = true;
    // The fault grant marks the lane before its statement ends, and the faulted one never runs.
    if (s.faulted) s.durableAfterFault = true;
    s.committed = true;
    s.durableAt = s.entryAt;
  }
  if (end.result === 'ok') s.lastRunAt = s.entryAt;
  return true;
}

/** The lane's statement hit a lock; `clock` and `epoch` date the block (kept across retries). */
export function block(s: LaneState, timeoutMs: number, clock: number, epoch: number): void {
  if (s.entry) s.entry.result = 'blocked';
  if (s.status !== 'blocked') {
    s.status = 'blocked';
    s.blockedAt = clock;
    s.timeoutMs = timeoutMs;
  }
  s.blockedEpoch = epoch;
}

/** The lane's record once the step is over. */
export function laneRecord(step: number, s: LaneState, endAt: number): LaneRecord {
  let end: LaneEnd;
  if (s.event.kind !== 'call') end = { kind: 'applied' };
  else if (s.status === 'crashed') end = { kind: 'crashed', committed: s.committed };
  else if (s.observed)
    end = s.durableAfterFault
      ? { kind: 'observed', observed: s.observed, faulted: s.faulted, durableAfterFault: true }
      : { kind: 'observed', observed: s.observed, faulted: s.faulted };
  else throw new Error(`lane ${s.lane + 1} of step ${step + 1} ended without an outcome`);
  return {
    step,
    lane: s.lane,
    event: s.event,
    end,
    effectAt: s.durableAt ?? s.lastRunAt ?? s.startAt ?? endAt,
  };
}
