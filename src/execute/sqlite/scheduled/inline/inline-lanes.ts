/**
 * Lanes carried out on the coordinator's own thread, for replayable handlers: no worker thread,
 * no hand-off, nothing left to timing. Each lane has its own connection to the run's database,
 * as a worker would. A command runs in attempts (`inline-gate.ts`): an attempt replays what the
 * call already did, takes the grant at the point it paused last, and runs on until the next point
 * where a worker would park, where it pauses again; the reports are the ones a worker would send.
 *
 * An async call is settled on the spot: the coordinator runs the microtask queue inside its
 * stretch (`task.ts`, `SettleNow`), so a call whose awaits all settle there (an async handler
 * over a synchronous driver) pauses, replays and answers exactly as a synchronous one, under the
 * same call budget. Which microtasks run is decided by the code, never by timing.
 *
 * A handler that turns out not to be replayable (its call's promise was still pending once the
 * microtasks ran out: it waits on a timer, I/O or nothing; or a replay took another path) stops
 * the run with `E_NOT_REPLAYABLE`; the runner then starts over on worker threads.
 */
import { ReceiptcheckError } from '../../../../errors.ts';
import type { HandlerPlugin } from '../../../../handlers/plugin.ts';
import { pluginOperation } from '../../../../handlers/plugin.ts';
import type { Observed } from '../../../../model/outcome.ts';
import { type Principal, scopedAs } from '../../../../model/world.ts';
import { settledOutcome, startCall } from '../../../apply-event.ts';
import { applyWorldEvent } from '../../../apply-world-event.ts';
import { type Settled, settledOf } from '../../../runtime/call-watch.ts';
import { pluginCodeRunning } from '../../../runtime/contain/handler-output.ts';
import { NOT_SETTLED, SettleNow } from '../../../runtime/task.ts';
import { KeptLaneConnection } from '../connection/kept-lane-connection.ts';
import type { ScheduledConnection } from '../connection/scheduled-connection.ts';
import { WORLD_PLAN } from '../gate-logic.ts';
import { AwaitingCall, type Lane, type Lanes } from '../lanes.ts';
import { type CommandBody, Grant, type GrantCode, type Report } from '../protocol.ts';
import { InlineGate, type LoggedOutcome, Pause, type Resume } from './inline-gate.ts';

/** One inline lane: its connection, its command, and what that command did so far. */
class InlineLane implements Lane {
  readonly onThisThread = true;
  private readonly gate = new InlineGate();
  private readonly connection: KeptLaneConnection;
  private command: CommandBody | undefined;
  private log: LoggedOutcome[] = [];
  private reads: boolean[] = [];
  private pending: Resume | undefined;
  private reports: Report[] = [];
  private startPassed = false;
  private scopeGranted: boolean | undefined;
  private atReply = false;
  private over = true;
  /**
   * The handler's busy timeout when the command's first attempt began: each replay starts from
   * it, as the recorded statements do from theirs (the timeout is the harness's, not SQLite's,
   * so nothing else replays it).
   */
  private busyAtStart: number | undefined;

  constructor(
    private readonly plugin: HandlerPlugin,
    private readonly scopes: Int32Array,
    /** The run the coordinator is in (`InlineLanes.startRun`). */
    private readonly runs: { readonly current: number },
  ) {
    this.connection = new KeptLaneConnection(this.gate, plugin.replayable === true, true);
  }

  send(command: CommandBody): void {
    this.command = command;
    this.log = [];
    this.reads = [];
    this.pending = undefined;
    this.reports = [];
    this.startPassed = false;
    this.scopeGranted = undefined;
    this.atReply = false;
    this.over = false;
    this.busyAtStart = undefined;
  }

  grant(grant: GrantCode, budget = 0): void {
    this.pending = { grant, budget };
  }

  next(): Report | AwaitingCall | undefined {
    if (this.reports.length === 0 && !this.over) {
      const awaiting = this.attempt();
      if (awaiting) return awaiting;
    }
    return this.reports.shift();
  }

  /** Closes the connection (`KeptLaneConnection.close`). */
  close(): void {
    this.connection.close();
  }

  /**
   * Runs the command from its start, replaying, up to its next report; a call that returned a
   * promise is handed to the coordinator to settle first (`AwaitingCall`).
   */
  private attempt(): AwaitingCall | undefined {
    const command = this.command as CommandBody;
    const conn = this.connection.for(command.dbPath, this.runs.current);
    if (this.busyAtStart === undefined) this.busyAtStart = conn.busyTimeoutMs;
    else conn.busyTimeoutMs = this.busyAtStart;
    if (this.atReply) {
      this.grantReply(conn);
      return undefined;
    }
    const plan = command.type === 'call' ? command : WORLD_PLAN;
    this.gate.begin(plan, this.log, this.reads, this.pending, this.reports);
    this.pending = undefined;
    try {
      if (command.type === 'world') {
        conn.faultable = false;
        applyWorldEvent(this.plugin, conn.proxy, command.event);
        if (this.paused()) return undefined;
        this.over = true;
        this.gate.done(conn.rollbackLeak());
        return undefined;
      }
      conn.faultable = true;
      if (command.parkAtStart) {
        if (this.startPassed) this.gate.passStart();
        else {
          const granted = this.gate.start();
          this.startPassed = true;
          if (granted === Grant.crash) {
            this.crash(conn);
            return undefined;
          }
        }
      }
      // Read once, when the start is granted: a racing revoke may have come first.
      this.scopeGranted ??= Atomics.load(this.scopes, command.event.client) === 1;
      const principal: Principal = scopedAs(
        command.principal,
        this.scopeGranted,
        pluginOperation(this.plugin).scope,
      );
      const returned = startCall(this.plugin, conn.proxy, principal, command.event);
      if (returned instanceof Promise) return this.awaiting(conn, returned);
      this.answer(conn, returned);
    } catch (thrown) {
      // A pause outside the handler: at the start, or out of a world function.
      if (!(thrown instanceof Pause)) throw thrown;
      this.paused();
    }
    return undefined;
  }

  /**
   * The call returned `returned`: settled by the coordinator on the microtask queue alone, then
   * answered as a synchronous call's outcome. Settled even when the call paused before its first
   * await, so that nothing of this attempt is left to run into the next one's replay. A promise
   * still pending then waits on a timer, a socket or nothing: the call cannot be replayed here.
   */
  private awaiting(conn: ScheduledConnection, returned: Promise<unknown>): AwaitingCall {
    // Its awaits run plugin code: its output is kept, and its escapes are the call's.
    const done = pluginCodeRunning();
    const settle = new SettleNow(settledOf(returned));
    return new AwaitingCall(settle, (now) => {
      done();
      if (now === NOT_SETTLED) {
        this.over = true;
        throw notReplayable(
          this.plugin,
          'its call waited for more than the microtask queue (a timer, I/O, or a promise nothing settles)',
        );
      }
      this.answer(conn, settledOutcome(this.plugin, (now as { value: Settled }).value));
      return this.reports.shift();
    });
  }

  /** The call ended with `observed`, unless it paused: the reply, or the crash it met. */
  private answer(conn: ScheduledConnection, observed: Observed): void {
    if (this.paused()) return;
    if (conn.crashed) {
      this.crash(conn);
      return;
    }
    this.over = true;
    try {
      this.gate.reply(observed, conn.rollbackLeak());
    } catch (thrown) {
      if (!(thrown instanceof Pause)) throw thrown;
      // The call is over; the grant at its reply decides between the reply and a crash.
      this.paused();
      this.atReply = true;
      this.over = false;
    }
  }

  /** Whether the attempt paused (a report is waiting); throws if the replay diverged. */
  private paused(): boolean {
    if (this.gate.diverged) {
      this.over = true;
      throw notReplayable(this.plugin, this.gate.diverged);
    }
    return this.gate.pausing;
  }

  /** The grant at a reply the lane parked at: a crash there kills it, a run lets the reply go. */
  private grantReply(conn: ScheduledConnection): void {
    this.atReply = false;
    this.over = true;
    if (this.pending?.grant === Grant.crash) this.crash(conn);
    this.pending = undefined;
  }

  private crash(conn: ScheduledConnection): void {
    this.over = true;
    if (!conn.crashed)
      try {
        conn.crash();
      } catch {
        // `crash` always throws its signal; the lane is dead either way.
      }
    this.reports.push({ type: 'crashed' });
  }
}

function notReplayable(plugin: HandlerPlugin, why: string): ReceiptcheckError {
  return new ReceiptcheckError(
    'E_NOT_REPLAYABLE',
    `handler "${plugin.name}" is declared replayable, but ${why}; inline lanes cannot run it: without --lanes inline (lanes: 'inline') scheduled mode runs it on worker threads`,
  );
}

/** A runner's inline lanes. */
export class InlineLanes implements Lanes {
  readonly scopes: Int32Array;
  private readonly byLane = new Map<number, InlineLane>();
  /** The run the coordinator is in, read by every lane. */
  private readonly runs = { current: 0 };

  constructor(
    private readonly plugin: HandlerPlugin,
    principals: number,
  ) {
    this.scopes = new Int32Array(Math.max(1, principals));
  }

  /** A new run: each lane's connection meets it as a new one (`KeptLaneConnection`). */
  startRun(): void {
    this.runs.current++;
  }

  get(lane: number): Lane {
    let found = this.byLane.get(lane);
    if (!found) {
      found = new InlineLane(this.plugin, this.scopes, this.runs);
      this.byLane.set(lane, found);
    }
    return found;
  }

  kill(lane: number): void {
    this.byLane.get(lane)?.close();
    this.byLane.delete(lane);
  }

  async closeAll(): Promise<void> {
    for (const lane of this.byLane.values()) lane.close();
    this.byLane.clear();
  }
}
