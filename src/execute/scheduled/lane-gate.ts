/**
 * The worker side of the hand-off: post a report, ring the doorbell, park on this worker's grant
 * slot until the coordinator stores a grant. With a grant comes a run-ahead budget: the number of
 * following yield points the coordinator would grant to this lane anyway, which the worker passes
 * without parking (never the point a crash or fault is planned at), reporting them with its next
 * report. The trace is the same as with one hand-off per point; only the hand-offs are saved.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Observed } from '../../model/outcome.ts';
import {
  Grant,
  type GrantCode,
  type PassedPoint,
  type Report,
  Slot,
  type StatementEnd,
} from './protocol.ts';
import type { StatementGate } from './scheduled-connection.ts';

/** What a gated call plans: where it parks for sure. */
export interface GatePlan {
  readonly parkAtStart: boolean;
  readonly parkAtReply: boolean;
  readonly crashAt: number;
  readonly faultAt: number;
}

const NONE: GatePlan = { parkAtStart: false, parkAtReply: false, crashAt: -1, faultAt: -1 };

/** One worker's gate. */
export class LaneGate implements StatementGate {
  readonly gated = true;
  private plan = NONE;
  private budget = 0;
  private yieldIndex = 0;
  private writes = 0;
  private passing = false;
  private last: StatementEnd | undefined;
  private passed: PassedPoint[] = [];
  /** The command being carried out (-1 outside any), and its reports so far. */
  private command = -1;
  private seq = 0;
  private readonly slot: Int32Array;
  private readonly doorbell: Int32Array;

  constructor(
    private readonly port: MessagePort,
    slot: SharedArrayBuffer,
    doorbell: SharedArrayBuffer,
  ) {
    this.slot = new Int32Array(slot);
    this.doorbell = new Int32Array(doorbell);
  }

  /** Starts command `command` under `plan`. */
  reset(command: number, plan: GatePlan): void {
    this.command = command;
    this.seq = 0;
    this.plan = plan;
    this.budget = 0;
    this.yieldIndex = this.plan.parkAtStart ? -1 : 0;
    this.writes = 0;
    this.passing = false;
    this.last = undefined;
    this.passed = [];
  }

  /** Sends a report without waiting. */
  post(report: Report): void {
    const stamped = { ...report, command: this.command, seq: this.command === -1 ? 0 : this.seq++ };
    this.port.postMessage(stamped);
    Atomics.add(this.doorbell, 0, 1);
    Atomics.notify(this.doorbell, 0);
  }

  /** Parks at the call's start; returns the grant. */
  start(): GrantCode {
    this.yieldIndex = 0;
    return this.park({ type: 'start' });
  }

  /** Before a statement: the grant when it parks, `pass` when it goes on under the budget. */
  statement(sql: string, write: boolean): GrantCode | 'pass' {
    this.yieldIndex++;
    const writeIndex = write ? this.writes++ : -1;
    const planned =
      this.yieldIndex === this.plan.crashAt || (write && writeIndex === this.plan.faultAt);
    if (this.budget > 0 && !planned) {
      this.budget--;
      this.passing = true;
      this.passed.push({ point: 'statement', sql, write });
      return 'pass';
    }
    this.passing = false;
    return this.park({ type: 'statement', sql, write, ...this.takeEnds() });
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
    return this.park({ type: 'blocked', code, timeoutMs, ...this.takeEnds() });
  }

  /** After the handler returned: parks when the reply is a point it must stop at; else just reports. */
  reply(observed: Observed, leaked: boolean): GrantCode | undefined {
    this.yieldIndex++;
    const isPoint = this.plan.parkAtReply;
    const park = isPoint && (this.budget <= 0 || this.yieldIndex === this.plan.crashAt);
    if (isPoint && !park) this.passed.push({ point: 'reply', write: false });
    const report: Report = { type: 'reply', observed, leaked, parked: park, ...this.takeEnds() };
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

  /** Reports, then waits for the next grant: until the grant count moves, whatever wakes the thread. */
  private park(report: Report): GrantCode {
    // Read before posting: the coordinator may grant as soon as it reads the report.
    const count = Atomics.load(this.slot, Slot.count);
    Atomics.store(this.slot, Slot.grant, Grant.parked);
    this.post(report);
    while (Atomics.load(this.slot, Slot.count) === count)
      Atomics.wait(this.slot, Slot.count, count);
    this.budget = Atomics.load(this.slot, Slot.budget);
    const grant = Atomics.load(this.slot, Slot.grant) as GrantCode;
    if (grant < Grant.run || grant > Grant.giveUp) {
      const message = `scheduled worker: its grant slot held ${grant}, not a grant`;
      this.post({ type: 'failed', error: { code: 'E_WORKER', message } });
      throw new Error(message);
    }
    return grant;
  }
}
