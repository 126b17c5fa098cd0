/**
 * A worker thread's gate: the yield-point logic of `gate-logic.ts`, carried out by posting each
 * report (stamped with its command and its number within it), ringing the doorbell, and parking
 * on this worker's grant slot until the coordinator's grant count moves.
 *
 * Whether the lane slept since its grant: parking blocks the thread (`Atomics.wait`) and SQLite
 * runs synchronously, so the thread's event loop turns between two grants only when the handler
 * awaited something other than microtasks (a timer, I/O). A `setImmediate` queued at each grant
 * therefore runs before the next point exactly when the handler slept: what the code did, not
 * how long it took, so a run replays.
 */
import type { MessagePort } from 'node:worker_threads';
import { takeOutput } from '../../../runtime/contain/handler-output.ts';
import { SleepWatch } from '../../../runtime/sleep-watch.ts';
import { GateLogic, type GatePlan } from '../gate-logic.ts';
import { Grant, type GrantCode, type Report, Slot, type Stamped } from '../protocol.ts';

/** One worker's gate. */
export class LaneGate extends GateLogic {
  /** The command being carried out (-1 outside any), and its reports so far. */
  private command = -1;
  private seq = 0;
  private readonly slot: Int32Array;
  private readonly doorbell: Int32Array;
  /** Whether the handler slept since its grant. */
  private readonly sleep = new SleepWatch();

  constructor(
    private readonly port: MessagePort,
    slot: SharedArrayBuffer,
    doorbell: SharedArrayBuffer,
  ) {
    super();
    this.slot = new Int32Array(slot);
    this.doorbell = new Int32Array(doorbell);
  }

  /** Starts command `command` under `plan`. */
  reset(command: number, plan: GatePlan): void {
    this.command = command;
    this.seq = 0;
    this.resetPoints(plan);
    // What the call does before its first point is not a sleep between statements.
    this.sleep.forget();
  }

  /** Parks at the call's start; what the handler does before its first statement is not a sleep. */
  override start(): GrantCode {
    const grant = super.start();
    this.sleep.forget();
    return grant;
  }

  protected override sleptSinceGrant(): boolean {
    return this.sleep.slept;
  }

  post(report: Report): void {
    const output = takeOutput();
    const stamped: Stamped = {
      ...report,
      command: this.command,
      seq: this.command === -1 ? 0 : this.seq++,
      ...(output ? { output } : {}),
    };
    this.port.postMessage(stamped);
    Atomics.add(this.doorbell, 0, 1);
    Atomics.notify(this.doorbell, 0);
  }

  /** Reports, then waits for the next grant: until the grant count moves, whatever wakes the thread. */
  protected park(report: Report): GrantCode {
    // Read before posting: the coordinator may grant as soon as it reads the report.
    const count = Atomics.load(this.slot, Slot.count);
    Atomics.store(this.slot, Slot.grant, Grant.parked);
    this.post(report);
    while (Atomics.load(this.slot, Slot.count) === count)
      Atomics.wait(this.slot, Slot.count, count);
    this.budget = Atomics.load(this.slot, Slot.budget);
    this.sleep.watch();
    const grant = Atomics.load(this.slot, Slot.grant) as GrantCode;
    if (grant < Grant.run || grant > Grant.giveUp) {
      const message = `scheduled worker: its grant slot held ${grant}, not a grant`;
      this.post({ type: 'failed', error: { code: 'E_WORKER', message } });
      throw new Error(message);
    }
    return grant;
  }
}
