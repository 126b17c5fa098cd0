/**
 * The coordinator's gate for plain steps (no other lane, no crash, no fault): nothing to decide,
 * so every statement runs at once, on the coordinator's own connection, and is written down for
 * the trace. No thread hand-off at all, which is most of a run's steps.
 */

import { paramText } from '../../../schedule/param-text.ts';
import type { LoggedStatement, StatementEnd } from '../../../schedule/statement-end.ts';
import type { StatementGate } from '../connection/scheduled-connection.ts';
import type { GrantCode } from '../protocol.ts';

/** Lets every statement through and logs how each ended. */
export class StatementLog implements StatementGate {
  readonly gated = false;
  private log: LoggedStatement[] = [];
  private params: readonly string[] | undefined;

  statement(_sql: string, _write: boolean, args?: readonly unknown[]): 'pass' {
    this.params = paramText(args);
    return 'pass';
  }

  ended(sql: string, end: StatementEnd): void {
    const { params } = this;
    const { result, durable } = end;
    this.log.push(params ? { sql, params, result, durable } : { sql, result, durable });
    this.params = undefined;
  }

  blocked(): GrantCode {
    // A free connection never parks: `ScheduledConnection` asks only gated gates.
    throw new Error('a plain step cannot block: every lane is idle while it runs');
  }

  /** The statements logged since the last call. */
  take(): LoggedStatement[] {
    const log = this.log;
    this.log = [];
    return log;
  }
}
