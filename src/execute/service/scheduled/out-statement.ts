/**
 * A statement the gate let go to the server, followed as the lock watch follows one of a
 * PostgreSQL plugin's lanes: answered once the proxy hears its ReadyForQuery.
 */
import type pg from 'pg';
import type { InFlight } from '../../postgres/scheduled/lock-watch.ts';
import type { StatementEnd } from '../../schedule/statement-end.ts';

/**
 * A statement let go to the server, as the lock watch follows one (`InFlight`: `settled` once
 * answered, with the SQLSTATE as its error), and how it ended for the trace (`end`).
 */
export interface OutStatement extends InFlight {
  readonly pid: number;
  end?: StatementEnd;
  answer(end: StatementEnd): void;
}

/** A statement just let go to backend `pid`. */
export function outStatement(pid: number, sql: string): OutStatement {
  let resolve = () => {};
  const out: OutStatement & { settled?: InFlight['settled'] } = {
    pid,
    sql,
    answered: new Promise<void>((r) => {
      resolve = r;
    }),
    answer(end) {
      if (out.end) return;
      out.end = end;
      // The lock watch only asks whether an answer came; the service got the rows itself.
      out.settled = end.result === 'ok' ? { value: NO_ROWS } : { error: end.result };
      resolve();
    },
  };
  return out;
}

/** What `settled` holds for an answered statement: its rows went to the service, not here. */
const NO_ROWS = { command: '', rowCount: null, rows: [], oid: 0, fields: [] } as pg.QueryResult;
