/**
 * The bookkeeping every gated step shares, SQLite's and PostgreSQL's alike: where the step's
 * schedule plans its crash and its fault, the scheduler's virtual clock, epoch and drawn choices
 * used so far, and the trace entry each grant writes. Pure: no threads and no connections; each
 * engine's gated step does its own waiting and only asks the book what a grant is and records it.
 */
import type { LanePoint, StepSchedule } from '../../types/schedule.ts';
import type { GrantKind, TraceEntry } from '../../types/scheduled-trace.ts';
import type { SchedulerState } from './decide.ts';
import type { LaneState } from './lane-state.ts';

/** One gated step's grants: what each one is, and the trace it leaves. */
export class GrantBook {
  /** The virtual clock: one tick per grant, or a jump to a busy timeout on a stall. */
  clock = 0;
  /** Grants given so far (the livelock bound counts these). */
  grants = 0;
  private epochCount = 0;
  private decision = 0;
  private last: number | undefined;
  private readonly crash: LanePoint | undefined;
  private readonly fault: LanePoint | undefined;

  /** `laneCount` folds the plan's lanes onto the step's; `entries` is the run's trace, appended to. */
  constructor(
    private readonly step: number,
    private readonly plan: StepSchedule,
    laneCount: number,
    private readonly trace: { readonly entries: TraceEntry[]; readonly grantsMax: number },
  ) {
    this.crash = plan.crash && { lane: plan.crash.lane % laneCount, at: plan.crash.at };
    this.fault = plan.fault && { lane: plan.fault.lane % laneCount, at: plan.fault.at };
  }

  /** Bumped whenever something a blocked lane waits on may have changed (a commit, a crash). */
  get epoch(): number {
    return this.epochCount;
  }

  /** Something changed that may unblock a lane: blocked lanes become candidates again. */
  changed(): void {
    this.epochCount++;
  }

  /** The yield point `lane` crashes at, or -1 when the plan crashes another lane or none. */
  crashAt(lane: number): number {
    return this.crash?.lane === lane ? this.crash.at : -1;
  }

  /** The write `lane` faults at, or -1 when the plan faults another lane or none. */
  faultAt(lane: number): number {
    return this.fault?.lane === lane ? this.fault.at : -1;
  }

  /** What `decide` needs to know of where the scheduler stands. */
  state(): SchedulerState {
    const { clock, epoch, decision, last } = this;
    // The second half of the livelock bound is fair (`decide.ts`).
    const fairIn = Math.ceil(this.trace.grantsMax / 2) - this.grants;
    return { clock, epoch, choices: this.plan.choices, decision, last, fairIn };
  }

  /**
   * What the plan makes of a grant to `s` at its current point: its crash, its fault (a parked
   * lane before the planned write: only a write statement has a write index), or a plain run.
   */
  planned(s: LaneState): GrantKind {
    if (s.event.kind !== 'call') return 'run';
    if (s.lane === this.crash?.lane && s.yieldIndex === this.crash.at) return 'crash';
    const faulting =
      s.status === 'parked' && s.lane === this.fault?.lane && s.writeIndex === this.fault.at;
    return faulting ? 'fault' : 'run';
  }

  /**
   * Grants `kind` to `s`: writes its trace entry (completed later by the lane's report), marks
   * the lane, and moves the clock. `chose` says a drawn choice picked the lane.
   */
  grant(s: LaneState, kind: GrantKind, chose: boolean): void {
    if (chose) this.decision++;
    // Keys in this order (a case file shows them), without a spread per optional field.
    const entry = { step: this.step, lane: s.lane, point: s.point, grant: kind } as {
      -readonly [K in keyof TraceEntry]: TraceEntry[K];
    };
    if (s.sql !== undefined) entry.sql = s.sql;
    if (s.params && s.point === 'statement') entry.params = s.params;
    if (chose) entry.chose = chose;
    s.entry = entry;
    s.entryAt = this.trace.entries.length;
    this.trace.entries.push(entry);
    if (s.point === 'start') s.startAt = s.entryAt;
    if (kind === 'fault') s.faulted = true;
    this.last = s.lane;
    this.clock++;
    this.grants++;
  }
}
