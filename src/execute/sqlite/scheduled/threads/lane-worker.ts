/**
 * The coordinator's handle on one scheduled-mode worker thread: its private channel, its grant
 * slot, and a synchronous wait for its next report on the shared doorbell. Only the coordinator
 * creates these; `ts-worker-entry.mjs` registers tsx in the thread so `.ts` plugins load.
 */
import { fileURLToPath } from 'node:url';
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
} from 'node:worker_threads';
import { ReceiptcheckError } from '../../../../errors.ts';
import { siblingModuleUrl } from '../../../../sibling-module-url.ts';
import { keepOutput } from '../../../runtime/contain/handler-output.ts';
import type { Lane } from '../lanes.ts';
import {
  type CommandBody,
  type GrantCode,
  type Report,
  type ScheduledWorkerData,
  Slot,
  type Stamped,
} from '../protocol.ts';

const ENTRY = fileURLToPath(new URL('../../../workers/ts-worker-entry.mjs', import.meta.url));
const MODULE = siblingModuleUrl('./scheduled-worker.ts', import.meta.url).href;

/** What every worker of one coordinator shares. */
export interface SharedMemory {
  /** One Int32 bumped after every report. */
  readonly doorbell: SharedArrayBuffer;
  /** One Int32 per client: 1 while that principal holds the write scope. */
  readonly scopes: SharedArrayBuffer;
}

/** The coordinator's current run, shared by a runner's workers (`LaneWorkers.startRun`). */
export interface RunCount {
  readonly current: number;
}

/** One live worker. */
export class LaneWorker implements Lane {
  readonly onThisThread = false;
  private readonly port: MessagePort;
  private readonly slot: Int32Array;
  private readonly bell: Int32Array;
  private readonly thread: Worker;
  private exited: number | undefined;
  private error: Error | undefined;
  private loaded = false;
  /** The last command's id, and how many of its reports were read. */
  private command = 0;
  private seq = 0;

  /** Starts the thread; call `ready()` before sending it anything. */
  constructor(
    handlerPath: string,
    shared: SharedMemory,
    private readonly runs: RunCount = { current: 0 },
  ) {
    const { port1, port2 } = new MessageChannel();
    const slot = new SharedArrayBuffer(4 * Slot.size);
    const data: ScheduledWorkerData = {
      tsEntry: MODULE,
      handlerPath,
      port: port2,
      slot,
      doorbell: shared.doorbell,
      scopes: shared.scopes,
    };
    this.thread = new Worker(ENTRY, { workerData: data, transferList: [port2] });
    this.thread.on('error', (thrown) => {
      this.error ??= thrown;
    });
    this.thread.once('exit', (code) => {
      this.exited = code;
    });
    this.port = port1;
    this.slot = new Int32Array(slot);
    this.bell = new Int32Array(shared.doorbell);
  }

  /** Whether the thread exited before it said it was ready (not a plugin that failed to load). */
  get died(): boolean {
    return this.exited !== undefined && !this.loaded;
  }

  /** Waits (polling, so the event loop stays free) until the plugin is loaded; throws what the worker reports. */
  async ready(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const report = this.take();
      if (report?.type === 'ready') {
        this.loaded = true;
        return;
      }
      if (report?.type === 'failed') throw ReceiptcheckError.fromData(report.error);
      if (report) throw new Error(`a starting worker sent ${report.type}`);
      if (this.exited !== undefined)
        throw new ReceiptcheckError(
          'E_WORKER',
          `a scheduled-mode worker exited (code ${this.exited}) while loading the plugin${this.error ? `: ${this.error.message}` : ''}`,
        );
      if (deadline - performance.now() <= 0)
        throw new ReceiptcheckError(
          'E_WORKER',
          `a scheduled-mode worker did not start within ${timeoutMs} ms`,
        );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Sends a command; the worker runs it when idle. Reports of earlier commands are dropped from now on. */
  send(command: CommandBody): void {
    this.command++;
    this.seq = 0;
    this.port.postMessage({ ...command, id: this.command, run: this.runs.current });
  }

  /** Lets the parked worker go on with `grant`, passing up to `budget` points before it parks again. */
  grant(grant: GrantCode, budget = 0): void {
    Atomics.store(this.slot, Slot.budget, budget);
    Atomics.store(this.slot, Slot.grant, grant);
    Atomics.add(this.slot, Slot.count, 1);
    Atomics.notify(this.slot, Slot.count);
  }

  /**
   * Blocks this thread until the worker's next report. Only this worker may be running (every
   * other one is parked), so the next report on the doorbell is its. Undefined on timeout.
   *
   * No spin before it sleeps, on either side: a worker takes 0.1-0.3 ms from a grant to its next
   * report (the handler's code and SQLite), so a spin of 0.05 ms caught about 3.5% of reports
   * (370 of 10,468 in 600 runs) and burnt 0.05 ms of coordinator CPU on nearly every other one;
   * more than half find their report already there. Without it, 300-run checks of the reference
   * on thread lanes used no more CPU (one process alternating 10 pairs at load 6-7: 5,387 ->
   * 5,463 steps per CPU second, 5,360 -> 5,389 steps/s, within noise), so the simpler wait stays.
   * Parked workers never spin either: they would take the core the running lane needs.
   */
  next(timeoutMs: number): Report | undefined {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const seen = Atomics.load(this.bell, 0);
      const report = this.take();
      if (report) return report;
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      Atomics.wait(this.bell, 0, seen, left);
    }
  }

  /** Whether an idle thread may keep the process alive: yes while a runner uses it, no while pooled. */
  hold(keepAlive: boolean): void {
    if (keepAlive) this.thread.ref();
    else this.thread.unref();
  }

  /** Stops the thread (its connection closes with it). */
  async terminate(): Promise<void> {
    this.port.close();
    await this.thread.terminate();
  }

  /**
   * The next report of the current command, if one is waiting. A report of an earlier command
   * (nothing it says can matter any more) is dropped, a failure never; one out of order stops
   * the run.
   */
  private take(): Report | undefined {
    for (;;) {
      const report = receiveMessageOnPort(this.port)?.message as Stamped | undefined;
      if (!report) return undefined;
      // What the plugin printed belongs to the run, whichever command's report brought it.
      if (report.output) keepOutput(report.output);
      if (report.type === 'failed') return report;
      if (report.command === -1 || report.command === this.command) {
        if (report.command === this.command && report.seq !== this.seq++)
          throw new ReceiptcheckError(
            'E_WORKER',
            `a scheduled-mode worker's report ${report.seq} (${report.type}) of command ${report.command} came out of order: the scheduler cannot trust this run`,
          );
        return report;
      }
    }
  }
}
