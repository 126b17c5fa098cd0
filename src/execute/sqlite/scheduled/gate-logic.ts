/**
 * What a lane does at its yield points, whatever carries it out (a worker thread parking on
 * shared memory, `lane-gate.ts`, or an inline lane replayed on the coordinator's thread,
 * `inline-gate.ts`): count the points and the writes, pass points under the run-ahead budget,
 * park where it must (the point a crash or fault is planned at, whatever the budget), and build
 * the reports: how the last statement ended and which points were passed since. No threads here;
 * `park` and `post` are the carrier's.
 *
 * The run-ahead budget comes with a grant: the number of following yield points the coordinator
 * would grant to this lane anyway, which the lane passes without parking, reporting them with its
 * next report. The trace is the same as with one hand-off per point; only the hand-offs are saved.
 * A lane whose code slept since its grant (`sleptSinceGrant`) passes no point: it parks and says
 * so, and the scheduler hands the next turn over (`schedule/decide.ts`).
 */
import { leftOpen, type Observed } from '../../../model/outcome.ts';
import { paramText } from '../../schedule/param-text.ts';
import type { PassedPoint, StatementEnd } from '../../schedule/statement-end.ts';
import type { REPLAYED, StatementGate } from './connection/scheduled-connection.ts';
import type { GrantCode, Report } from './protocol.ts';

/** What a gated call plans: where it parks for sure. */
export interface GatePlan {
  readonly parkAtStart: boolean;
  readonly parkAtReply: boolean;
  readonly crashAt: number;
  readonly faultAt: number;
}

/** A world event parks before every statement and nowhere else. */
export const WORLD_PLAN: GatePlan = {
  parkAtStart: false,
  parkAtReply: false,
  crashAt: -1,
  faultAt: -1,
};

/** One lane's yield points; subclasses carry out `park` and `post`. */
export abstract class GateLogic implements StatementGate {
  readonly gated = true;
  protected plan = WORLD_PLAN;
  protected budget = 0;
  protected yieldIndex = 0;
  protected writes = 0;
  private passing = false;
  private last: StatementEnd | undefined;
  private passed: PassedPoint[] = [];

  /** Sends a report without waiting. */
  abstract post(report: Report): void;

  /** Sends a report and waits for the lane's next grant (setting `budget`); returns the grant. */
  protected abstract park(report: Report): GrantCode;

  /**
   * Whether the lane's code waited on something other than microtasks (a timer, I/O) since its
   * last grant. An inline lane never does (it refuses such a call); a worker thread can tell.
   */
  protected sleptSinceGrant(): boolean {
    return false;
  }

  /** Starts a command under `plan`. */
  protected resetPoints(plan: GatePlan): void {
    this.plan = plan;
    this.budget = 0;
    this.yieldIndex = plan.parkAtStart ? -1 : 0;
    this.writes = 0;
    this.passing = false;
    this.last = undefined;
    this.passed = [];
  }

  /** Parks at the call's start; returns the grant. */
  start(): GrantCode {
    this.yieldIndex = 0;
    return this.park({ type: 'start' });
  }

  /** Before a statement: the grant when it parks, `pass` when it goes on under the budget. */
  statement(
    sql: string,
    write: boolean,
    args?: readonly unknown[],
  ): GrantCode | 'pass' | typeof REPLAYED {
    this.yieldIndex++;
    const params = paramText(args);
    const writeIndex = write ? this.writes++ : -1;
    const planned =
      this.yieldIndex === this.plan.crashAt || (write && writeIndex === this.plan.faultAt);
    const slept = this.sleptSinceGrant();
    if (this.budget > 0 && !planned && !slept) {
      this.budget--;
      this.passing = true;
      this.passed.push(
        params ? { point: 'statement', sql, params, write } : { point: 'statement', sql, write },
      );
      return 'pass';
    }
    this.passing = false;
    // Built without spreads: this runs at every parked statement of every lane.
    const prev = this.last;
    const passed = this.passed;
    this.last = undefined;
    this.passed = [];
    const report: Report = params
      ? { type: 'statement', sql, params, write, passed }
      : { type: 'statement', sql, write, passed };
    if (prev) (report as { prev?: StatementEnd }).prev = prev;
    if (slept) (report as { slept?: boolean }).slept = true;
    return this.park(report);
  }

  /** Records how a statement ended, for the next report. */
  ended(_sql: string, end: StatementEnd): void {
    if (this.passing) (this.passed.at(-1) as PassedPoint).end = end;
    else this.last = end;
  }

  /** The statement hit a lock a busy handler would wait out: parks to retry it; returns the grant. */
  blocked(code: string, timeoutMs: number): GrantCode {
    if (this.passing)
      (this.passed.at(-1) as PassedPoint).end = { result: 'blocked', durable: false };
    this.passing = false;
    const slept = this.sleptSinceGrant();
    return this.park({
      type: 'blocked',
      code,
      timeoutMs,
      ...this.takeEnds(),
      ...(slept ? { slept } : {}),
    });
  }

  /** After the handler returned: parks when the reply is a point it must stop at; else just reports. */
  reply(observed: Observed, leaked: boolean): GrantCode | undefined {
    this.yieldIndex++;
    const isPoint = this.plan.parkAtReply;
    const slept = this.sleptSinceGrant();
    const park = isPoint && (this.budget <= 0 || slept || this.yieldIndex === this.plan.crashAt);
    if (isPoint && !park) this.passed.push({ point: 'reply', write: false });
    const report: Report = {
      type: 'reply',
      // A transaction the handler left open (rolled back by now) is a failure of the call.
      observed: leaked ? leftOpen(observed) : observed,
      leaked,
      parked: park,
      ...this.takeEnds(),
      ...(park && slept ? { slept } : {}),
    };
    if (!park) {
      this.post(report);
      return undefined;
    }
    return this.park(report);
  }

  /** A gated world event is over: reports how its last statements ended. */
  done(leaked: boolean): void {
    this.post({ type: 'done', leaked, ...this.takeEnds() });
  }

  private takeEnds(): { prev?: StatementEnd; passed: PassedPoint[] } {
    const prev = this.last;
    this.last = undefined;
    const passed = this.passed;
    this.passed = [];
    return prev ? { prev, passed } : { passed };
  }
}
