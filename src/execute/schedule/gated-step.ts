/**
 * The one grant loop: runs one step's lanes under the scheduler, on any engine. Every lane parks
 * at each yield point, and the loop grants one lane at a time, so the interleaving is exactly the
 * one the step's schedule entry chooses (`decide.ts` says who goes next). The chosen lane runs,
 * faults or crashes as the entry says; the engine's driver (`lane-driver.ts`) carries the grant
 * out and says where the lane stopped next, and every other lane is parked meanwhile.
 *
 * With a statement grant goes a run-ahead budget: how many following decisions would pick the
 * same lane anyway. A lane that passes points under it reports them with its next report; they
 * are recorded here exactly as if each had been granted (same entries, same choices used), so
 * only hand-offs are saved, never a decision.
 *
 * Where the choices come from is the schedule entry's business: drawn at random with the case
 * (scheduled mode), read from a case file (replay), or forced by the prover, which also asks for
 * every decision to be recorded (`GrantLimits.decisions`: the candidates, the last lane, the lane
 * granted) so that it can branch at each one. A run that records nothing decides the same way.
 *
 * The virtual clock advances one ms per grant. Past `grantsMax` grants the step is a livelock:
 * the lanes still running are stopped and reported as unexpected errors. A stall (every live
 * lane blocked) jumps the clock to the first busy timeout, or ends the run where the engine's
 * locks wait for ever.
 */
import { type Event, unsentOutcome } from '../../model/events.ts';
import type { StepSchedule } from '../../types/schedule.ts';
import type {
  DecisionRecord,
  GrantKind,
  LaneRecord,
  TraceEntry,
} from '../../types/scheduled-trace.ts';
import type { Task } from '../runtime/task.ts';
import { type Decision, decide, lastSlept, runAhead } from './decide.ts';
import { GrantBook } from './grant-book.ts';
import type { LaneDriver, LaneReport } from './lane-driver.ts';
import { arrive, block, finish, type LaneState, laneRecord, laneState } from './lane-state.ts';
import type { PassedPoint } from './statement-end.ts';

/** What the loop needs of the run: the trace it appends to and the livelock bound. */
export interface GrantLimits {
  readonly entries: TraceEntry[];
  /** Grants per step before the step is a livelock. */
  readonly grantsMax: number;
  /** When given, every grant's decision is appended here (the prover reads them); else none is kept. */
  readonly decisions?: DecisionRecord[];
}

/** The state of one gated step while it runs; `start()`, then `loop()`. */
export class GatedStep {
  readonly lanes: LaneState[];
  private readonly book: GrantBook;

  constructor(
    private readonly run: GrantLimits,
    private readonly driver: LaneDriver,
    private readonly step: number,
    events: readonly Event[],
    plan: StepSchedule,
  ) {
    this.lanes = events.map((event, lane) => laneState(lane, event, 'start'));
    this.book = new GrantBook(step, plan, events.length, run);
  }

  /**
   * Starts each lane's event, then waits for every started lane to reach its first point. Lanes
   * run side by side only up to there: the plugin's code before its first statement, touching
   * nothing shared, so the order they get there in does not matter.
   */
  *start(): Task<void> {
    const scopeRace = this.lanes.some(
      (s) => s.event.kind === 'revoke' || s.event.kind === 'restore',
    );
    yield* this.driver.open(
      this.lanes.filter(
        (s) => s.event.kind !== 'revoke' && s.event.kind !== 'restore' && !unsentOutcome(s.event),
      ),
    );
    const started: LaneState[] = [];
    for (const s of this.lanes) {
      const e = s.event;
      const unsent = unsentOutcome(e);
      if (unsent) {
        s.status = 'done';
        s.observed = unsent;
        continue;
      }
      if (e.kind === 'revoke' || e.kind === 'restore') {
        s.point = 'scope';
        s.sql = `${e.kind} client ${e.client + 1}`;
        continue;
      }
      const crashAt = this.book.crashAt(s.lane);
      const parkAtStart = e.kind === 'call' && (scopeRace || crashAt === 0);
      if (e.kind === 'call') {
        s.parksAtReply = crashAt > 0;
        // A call parked at its start is at yield point 0 (its start report says so again).
        s.yieldIndex = 0;
      }
      const plan = {
        parkAtStart,
        parkAtReply: s.parksAtReply,
        crashAt,
        faultAt: this.book.faultAt(s.lane),
      };
      if (yield* this.driver.launch(s, plan)) started.push(s);
    }
    for (const s of started) this.absorb(s, yield* this.driver.next(s));
  }

  /** Grants until every lane is done, crashed or stopped. */
  *loop(): Task<void> {
    for (;;) {
      const live = this.live();
      if (live.length === 0) return;
      if (this.book.grants >= this.run.grantsMax) return yield* this.stopLivelock(live);
      const d = decide(live, this.book.state());
      if (d.kind === 'stall') {
        const { sql, ends } = this.driver.stall(d, d.until - this.book.clock, live);
        this.run.entries.push({ step: this.step, lane: -1, point: 'stall', grant: 'run', sql });
        if (ends) throw ends;
        this.book.clock = d.until;
        continue;
      }
      const s = this.lanes[d.lane] as LaneState;
      const kind = d.kind === 'giveUp' ? 'giveUp' : this.book.planned(s);
      if (this.run.decisions) this.note(live, d, kind);
      this.book.grant(s, kind, d.kind === 'choose' && d.chose);
      s.slept = false;
      if (s.point === 'scope') this.applyScope(s);
      else if (kind === 'crash' && this.driver.crashKills) {
        s.status = 'crashed';
        this.book.changed();
        yield* this.driver.kill(s);
      } else {
        const budget =
          kind === 'run' && s.point === 'statement' && this.driver.runAheadMax > 0
            ? runAhead(
                s.lane,
                live.filter((o) => o !== s),
                this.book.state(),
                Math.min(this.driver.runAheadMax, this.run.grantsMax - this.book.grants),
              )
            : 0;
        const report = yield* this.driver.grant(s, kind, budget);
        if (report) this.absorb(s, report);
        else s.status = 'done';
      }
      if (this.driver.afterGrant) yield* this.driver.afterGrant(this.lanes);
    }
  }

  /** Each lane's record once the step is over. */
  records(): LaneRecord[] {
    return this.lanes.map((s) => laneRecord(this.step, s, this.run.entries.length));
  }

  private live(): LaneState[] {
    return this.lanes.filter((s) => s.status === 'parked' || s.status === 'blocked');
  }

  /** A revoke or restore lane's grant: the change takes effect, and the lane is done. */
  private applyScope(s: LaneState): void {
    const e = s.event;
    if (e.kind === 'revoke' || e.kind === 'restore')
      this.driver.applyScope(e.client, e.kind === 'restore');
    if (s.entry) s.entry.result = 'ok';
    s.lastRunAt = s.entryAt;
    s.status = 'done';
    this.book.changed();
  }

  /** Folds a lane's report into its state. */
  private absorb(s: LaneState, report: LaneReport): void {
    switch (report.type) {
      case 'start':
        s.point = 'start';
        s.yieldIndex = 0;
        return;
      case 'crashed':
        s.status = 'crashed';
        this.book.changed();
        return;
      default:
        if (finish(s, report.prev)) this.book.changed();
        if (report.passed) for (const p of report.passed) this.pass(s, p);
        s.slept = 'slept' in report && report.slept === true;
    }
    if (report.type === 'statement')
      arrive(s, 'statement', report.sql, report.write, report.params);
    else if (report.type === 'blocked')
      block(s, report.timeoutMs, this.book.clock, this.book.epoch);
    else {
      if (report.freed) this.book.changed();
      if (report.type === 'done') s.status = 'done';
      else {
        s.observed = report.observed;
        if (report.parked) arrive(s, 'reply', undefined, false);
        else s.status = 'done';
      }
    }
  }

  /** Records a point the lane passed under its budget, as the grant it stands for. */
  private pass(s: LaneState, p: PassedPoint): void {
    arrive(s, p.point, p.sql, p.write, p.params);
    const d = decide(this.live(), this.book.state());
    if (d.kind !== 'choose' || d.lane !== s.lane || this.book.planned(s) !== 'run')
      throw new Error(`step ${this.step + 1} lane ${s.lane + 1}: a run-ahead went past a decision`);
    if (this.run.decisions) this.note(this.live(), d, 'run');
    this.book.grant(s, 'run', d.chose);
    if (p.point === 'reply' || p.end?.result === 'blocked') return;
    if (finish(s, p.end)) this.book.changed();
  }

  /**
   * Records decision `d` over `live` for the prover: the candidates as `decide` saw them (a
   * give-up has its lane alone), before the grant moves `last` on.
   */
  private note(
    live: readonly LaneState[],
    d: Exclude<Decision, { kind: 'stall' }>,
    kind: GrantKind,
  ): void {
    const { epoch, last } = this.book.state();
    const open =
      d.kind === 'giveUp'
        ? live.filter((s) => s.lane === d.lane)
        : live.filter((s) => s.status === 'parked' || s.blockedEpoch < epoch);
    const yielded = d.kind === 'choose' && d.chose && lastSlept(open, last);
    (this.run.decisions as DecisionRecord[]).push({
      step: this.step,
      candidates: open.map((s) => ({
        lane: s.lane,
        point: s.point,
        ...(s.sql !== undefined ? { sql: s.sql } : {}),
        write: s.write,
        blocked: s.status === 'blocked',
      })),
      last,
      ...(yielded ? { lastSlept: true } : {}),
      lane: d.lane,
      chose: d.kind === 'choose' && d.chose,
      grant: kind,
    });
  }

  /** Lanes that never finish: each is stopped (its transaction rolls back) and reported unexpected. */
  private *stopLivelock(live: readonly LaneState[]): Task<void> {
    for (const s of live) {
      this.run.entries.push({
        step: this.step,
        lane: s.lane,
        point: s.point,
        grant: 'crash',
        ...(s.sql ? { sql: s.sql } : {}),
      });
      s.status = 'crashed';
      yield* this.driver.kill(s);
      s.status = 'done';
      s.observed = {
        kind: 'unexpected',
        message: `livelock: lane ${s.lane + 1} of step ${this.step + 1} did not finish within ${this.run.grantsMax} scheduler grants (a handler retrying a lock forever?)`,
      };
    }
  }
}

/** Runs the lanes of step `step` under `plan` with `driver`; returns each lane's record. A task. */
export function* runGatedStep(
  run: GrantLimits,
  driver: LaneDriver,
  step: number,
  events: readonly Event[],
  plan: StepSchedule,
): Task<LaneRecord[]> {
  const gated = new GatedStep(run, driver, step, events, plan);
  yield* gated.start();
  yield* gated.loop();
  return gated.records();
}
