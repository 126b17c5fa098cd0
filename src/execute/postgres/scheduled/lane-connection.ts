/**
 * One lane's connection in scheduled mode on PostgreSQL: a real `pg` client (its own server
 * backend) that only the coordinator sends statements on, and the `PgConnection` the plugin gets,
 * whose `query` is the lane's yield point. The plugin's `query` posts the statement to the lane's
 * mailbox and waits; the coordinator decides when (and whether) it runs, sends it itself, and
 * answers the plugin with what the server answered (or with an injected fault, a deadlock error,
 * or a crash). So nothing reaches the server from a lane that the coordinator did not grant.
 * The client is the session's, kept from run to run (`../postgres-session.ts`); this wrapper is
 * one run's, sealed when the run is over, so plugin code left behind reaches nothing.
 *
 * Whether the plugin slept between statements: an answer resolves the plugin's promise, so the
 * plugin runs on in microtasks; a `setImmediate` queued with the answer runs before the plugin's
 * next report exactly when the plugin awaited something else on the way (a timer, other I/O).
 * The driver, not the plugin, does the lane's I/O, so every statement's round trip is outside
 * this: what the plugin's code did decides it, not time.
 */
import type pg from 'pg';
import type { PgConnection, PgResult } from '../../../handlers/postgres/plugin.ts';
import type { Observed } from '../../../model/outcome.ts';
import { SleepWatch } from '../../runtime/sleep-watch.ts';
import { CrashSignal } from '../../schedule/crash-signal.ts';
import { Mailbox } from '../../schedule/mailbox.ts';
import { isTransactionControl, isWriteText } from '../../schedule/statement-kind.ts';

/** What a lane tells the coordinator: where its plugin code stopped next. */
export type LaneReport =
  /** The plugin sent a statement and waits for it; `slept`, it awaited a timer or I/O since its last answer. */
  | {
      readonly type: 'statement';
      readonly sql: string;
      readonly values?: readonly unknown[];
      readonly write: boolean;
      readonly slept?: boolean;
    }
  /** The call returned (or threw): what the client would hear. */
  | { readonly type: 'reply'; readonly observed: Observed; readonly slept?: boolean }
  /** A world event finished. */
  | { readonly type: 'done' }
  /** A world event threw: a plugin or harness fault, not a finding. */
  | { readonly type: 'failed'; readonly error: unknown };

/** How the coordinator answers a statement: the server's result, or an error thrown into the plugin. */
export type Answer = { readonly value: PgResult<unknown> } | { readonly error: unknown };

/** A lane's connection and mailbox. */
export class LaneConnection {
  /** Set once a crash ended this backend: every later query throws, nothing reaches the server. */
  crashed = false;
  /** Set once the run is over: every later query throws, nothing reaches the coordinator. */
  private sealed = false;
  readonly proxy: PgConnection;
  private readonly reports = new Mailbox<LaneReport>();
  private answer: ((answer: Answer) => void) | undefined;
  /** Whether the plugin slept since its last answer. */
  private readonly sleep = new SleepWatch();

  private constructor(
    readonly client: pg.Client,
    /** The server backend's pid. */
    readonly pid: number,
  ) {
    this.proxy = {
      query: <R>(text: string, values?: readonly unknown[]) => this.query<R>(text, values),
    };
  }

  /** One run's wrapper over a kept connection (`client`, served by backend `pid`). */
  static over(client: pg.Client, pid: number): LaneConnection {
    return new LaneConnection(client, pid);
  }

  /**
   * Whether the lane ended the run with nothing outstanding: not crashed, no statement waiting on
   * the coordinator, no report unread. Only a quiet lane's connection is kept for the next run.
   */
  get quiet(): boolean {
    return !this.crashed && this.answer === undefined && this.reports.size === 0;
  }

  /** The run is over: later queries of plugin code left behind throw, and reach nothing. */
  seal(): void {
    this.sealed = true;
  }

  /** Whether the backend is inside a transaction block (PostgreSQL's own status, `T` or `E`). */
  get inTransaction(): boolean {
    const status = this.client.getTransactionStatus();
    return status === 'T' || status === 'E';
  }

  /** Posts a report for the coordinator, marked when the plugin slept since its last answer. */
  post(report: LaneReport): void {
    const slept = this.sleep.slept && (report.type === 'statement' || report.type === 'reply');
    this.sleep.forget();
    this.reports.post(slept ? { ...report, slept } : report);
  }

  /** The lane's next report, or undefined when none came within `limitMs`. */
  next(limitMs: number): Promise<LaneReport | undefined> {
    return this.reports.next(limitMs);
  }

  /** Answers the statement the plugin waits on; false when it waits on none. */
  resume(answer: Answer): boolean {
    const answerNow = this.answer;
    this.answer = undefined;
    if (answerNow) this.sleep.watch();
    answerNow?.(answer);
    return answerNow !== undefined;
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }

  private query<R>(text: string, values?: readonly unknown[]): Promise<PgResult<R>> {
    if (this.crashed) return Promise.reject(new CrashSignal());
    if (this.sealed)
      return Promise.reject(
        new Error('receiptcheck: this connection belonged to a run that is over'),
      );
    if (this.answer)
      return Promise.reject(
        new Error(
          'receiptcheck: a query was sent while another on the same connection had no answer yet; await each query before the next',
        ),
      );
    return new Promise((resolve, reject) => {
      this.answer = (a) => ('error' in a ? reject(a.error) : resolve(a.value as PgResult<R>));
      const write = !isTransactionControl(text) && isWriteText(text);
      this.post({ type: 'statement', sql: text, ...(values ? { values } : {}), write });
    });
  }
}
