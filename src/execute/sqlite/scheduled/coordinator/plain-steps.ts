/**
 * Plain steps (a call with no crash or fault planned, a world event) have nothing to decide, so
 * the coordinator runs them itself, in order, on its own connection to the run's database while
 * every lane is idle: no thread hand-off, no message. The connection goes through the same proxy
 * as a lane's (`scheduled-connection.ts`) with a statement log for its gate, so the trace shows
 * every statement a plain step ran, as it would a lane's. Plugin code runs under the run's call
 * budget (`call-watch.ts`): the steps are tasks, `yield*` them.
 */
import type Database from 'better-sqlite3';
import type { Connection, HandlerPlugin } from '../../../../handlers/plugin.ts';
import type { CallEvent } from '../../../../model/events.ts';
import type { Principal } from '../../../../model/world.ts';
import { watchedCall } from '../../../apply-event.ts';
import { watchedWorldEvent } from '../../../apply-world-event.ts';
import type { Activity, CallWatch } from '../../../runtime/call-watch.ts';
import type { Task } from '../../../runtime/task.ts';
import type { PlainCall } from '../../../schedule/run-steps.ts';
import type { LoggedStatement } from '../../../schedule/statement-end.ts';
import { ScheduledConnection } from '../connection/scheduled-connection.ts';
import type { DatabaseEvent } from '../protocol.ts';
import { StatementLog } from './statement-log.ts';

/** The coordinator's runner of plain steps, on one connection for the runner's life. */
export class PlainSteps {
  private readonly log = new StatementLog();
  private conn: ScheduledConnection;

  constructor(
    private readonly plugin: HandlerPlugin,
    db: Connection,
  ) {
    this.conn = new ScheduledConnection(db as Database.Database, this.log);
  }

  /**
   * The database was just reset, and `db` is the coordinator's connection now (a new one when the
   * last run left it otherwise than opened): what it changed is not this run's doing. A plugin
   * not declared replayable may keep state per connection object (a wrapped library's instance in
   * a `WeakMap`), which must not outlive the database it was about: it gets a new object over the
   * same warm connection, as a fresh database per run would give it.
   */
  startRun(db: Connection): void {
    if (this.plugin.replayable === true && db === this.conn.real) {
      this.conn.newRun();
      this.conn.resetBaseline();
    } else this.conn = new ScheduledConnection(db as Database.Database, this.log);
  }

  /** Calls the handler as `principal`. */
  *call(
    watch: CallWatch,
    activity: Activity,
    principal: Principal,
    event: CallEvent,
  ): Task<PlainCall> {
    const observed = yield* watchedCall(
      watch,
      activity,
      this.plugin,
      this.conn.proxy,
      principal,
      event,
    );
    this.conn.rollbackLeak();
    return { observed, log: this.log.take() };
  }

  /** Applies a world event through the plugin; returns the statements it ran. */
  *world(watch: CallWatch, activity: Activity, event: DatabaseEvent): Task<LoggedStatement[]> {
    yield* watchedWorldEvent(watch, activity, this.plugin, this.conn.proxy, event);
    this.conn.rollbackLeak();
    return this.log.take();
  }
}
