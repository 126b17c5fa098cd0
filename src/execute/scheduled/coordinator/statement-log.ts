/**
 * The coordinator's gate for plain steps (no other lane, no crash, no fault): nothing to decide,
 * so every statement runs at once, on the coordinator's own connection, and is written down for
 * the trace. No thread hand-off at all, which is most of a run's steps.
 */

import type { StatementGate } from '../connection/scheduled-connection.ts';
import type { GrantCode, StatementEnd } from '../protocol.ts';

/** A statement a plain step ran, as logged. */
export interface LoggedStatement extends StatementEnd {
  readonly sql: string;
}

/** Lets every statement through and logs how each ended. */
export class StatementLog implements StatementGate {
  readonly gated = false;
  private log: LoggedStatement[] = [];

  statement(): 'pass' {
    return 'pass';
  }

  ended(sql: string, end: StatementEnd): void {
    this.log.push({ sql, ...end });
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
