/**
 * An inline lane's gate: the yield-point logic of `gate-logic.ts` on the coordinator's own
 * thread, where a call cannot be suspended mid-way. So a lane that must park unwinds instead
 * (`Pause` is thrown through the handler), and resumes by running the call again from its start:
 * every statement that already ran is replayed from the lane's log (its recorded value returned,
 * or its error thrown, nothing sent to SQLite), every `inTransaction` read likewise, until the
 * point where it paused; that point gets the coordinator's grant and runs for real.
 *
 * This needs a handler whose calls depend only on their arguments and what the database returns
 * (`HandlerPlugin.replayable`). Each replayed statement is checked against the log, so a handler
 * that takes another path is caught (`diverged`) rather than trusted.
 */

import { disregardEscapes } from '../../../runtime/contain/escapes.ts';
import { REPLAYED, type StatementOutcome } from '../connection/scheduled-connection.ts';
import { GateLogic, type GatePlan } from '../gate-logic.ts';
import type { GrantCode, Report } from '../protocol.ts';

/** Statements tried after a caught pause before a warning says why the run seems to hang. */
const SWALLOWED_WARNING = 100_000;

/** A statement that ran, with its parameters and what it came to. */
export type LoggedOutcome = StatementOutcome & {
  readonly sql: string;
  readonly args: readonly unknown[] | undefined;
};

/** Unwinds a handler at a point where a worker would park. */
export class Pause extends Error {
  constructor() {
    super('receiptcheck: this lane paused here (inline scheduling); the call resumes by replay');
    this.name = 'ReceiptcheckPause';
  }
}

/**
 * The one pause thrown: a stack trace per pause cost more than the rest of the pause. Its stack
 * is one line: the call it unwinds is caught as unexpected (`unexpectedOf` splits the stack into
 * frames) and thrown away, at every pause; nothing shows it.
 */
const PAUSE = new Pause();
PAUSE.stack = `${PAUSE.name}: ${PAUSE.message}`;

// A pause thrown into a promise an async handler leaves unawaited is the harness's own signal,
// never the call's escape.
disregardEscapes((thrown) => thrown === PAUSE);

/** Where an attempt resumes: the grant for the point it paused at, and its run-ahead budget. */
export interface Resume {
  readonly grant: GrantCode;
  readonly budget: number;
}

/** One inline lane's gate, set up afresh for each attempt at a command. */
export class InlineGate extends GateLogic {
  /** `blocked` pauses (the attempt's one resume went to the point it paused at first). */
  readonly discardsBlocked = true;
  /** Set once the attempt paused: every later statement throws `Pause` again. */
  pausing = false;
  /** Set when a replayed statement differed from the log: the handler is not replayable. */
  diverged: string | undefined;
  private log: LoggedOutcome[] = [];
  private reads: boolean[] = [];
  private cursor = 0;
  private readCursor = 0;
  private resume: Resume | undefined;
  private reports: Report[] = [];
  private sql = '';
  private args: readonly unknown[] | undefined;
  /** Statements the handler tried after a pause it caught: a retry loop that swallows everything. */
  private swallowed = 0;

  /** Starts an attempt: replay `log` and `reads`, resume with `resume`, report into `reports`. */
  begin(
    plan: GatePlan,
    log: LoggedOutcome[],
    reads: boolean[],
    resume: Resume | undefined,
    reports: Report[],
  ): void {
    this.resetPoints(plan);
    this.pausing = false;
    this.diverged = undefined;
    this.swallowed = 0;
    this.log = log;
    this.reads = reads;
    this.cursor = 0;
    this.readCursor = 0;
    this.resume = resume;
    this.reports = reports;
  }

  /** The start was granted in an earlier attempt: count it without parking. */
  passStart(): void {
    this.yieldIndex = 0;
  }

  override statement(
    sql: string,
    write: boolean,
    args?: readonly unknown[],
  ): GrantCode | 'pass' | typeof REPLAYED {
    if (this.pausing) {
      if (++this.swallowed === SWALLOWED_WARNING)
        process.emitWarning(
          "a handler declared replayable keeps catching receiptcheck's pause and retrying: an inline lane cannot stop a loop that swallows every error. Declare it `replayable: false`.",
          { code: 'RECEIPTCHECK_NOT_REPLAYABLE' },
        );
      throw PAUSE;
    }
    if (this.cursor < this.log.length) {
      this.yieldIndex++;
      if (write) this.writes++;
      return REPLAYED;
    }
    this.sql = sql;
    this.args = args;
    return super.statement(sql, write, args);
  }

  override blocked(code: string, timeoutMs: number): GrantCode {
    if (this.pausing) throw PAUSE;
    return super.blocked(code, timeoutMs);
  }

  replayed(sql: string, args?: readonly unknown[]): unknown {
    const entry = this.log[this.cursor++] as LoggedOutcome;
    if (entry.sql !== sql || !sameArgs(entry.args, args)) {
      this.diverged = `replaying statement ${this.cursor}, it ran ${describe(sql, args)} where it had run ${describe(entry.sql, entry.args)}`;
      this.pausing = true;
      throw PAUSE;
    }
    if ('error' in entry) throw entry.error;
    return entry.value;
  }

  record(outcome: StatementOutcome): void {
    if (this.pausing) return;
    // Built field by field: a spread of the two outcome shapes made each entry a slow object.
    const { sql, args } = this;
    this.log.push(
      'error' in outcome
        ? { sql, args, error: outcome.error }
        : { sql, args, value: outcome.value },
    );
    this.cursor = this.log.length;
  }

  observe(read: () => boolean): boolean {
    if (this.readCursor < this.reads.length) return this.reads[this.readCursor++] as boolean;
    const value = read();
    if (!this.pausing) {
      this.reads.push(value);
      this.readCursor = this.reads.length;
    }
    return value;
  }

  post(report: Report): void {
    this.reports.push(report);
  }

  /** The first park of an attempt is where the last one paused: it takes the grant. Any later one pauses. */
  protected park(report: Report): GrantCode {
    const resume = this.resume;
    if (resume) {
      this.resume = undefined;
      this.budget = resume.budget;
      return resume.grant;
    }
    this.reports.push(report);
    this.pausing = true;
    throw PAUSE;
  }
}

/** Whether two statements' parameters are the same values (objects, named parameters, by JSON). */
function sameArgs(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i];
    if (Object.is(x, y)) return true;
    return typeof x === 'object' && typeof y === 'object' && x !== null && y !== null
      ? JSON.stringify(x) === JSON.stringify(y)
      : false;
  });
}

function describe(sql: string, args: readonly unknown[] | undefined): string {
  let params = '';
  try {
    params = args?.length ? ` with ${JSON.stringify(args)}` : '';
  } catch {
    params = ' with parameters';
  }
  return `"${sql}"${params}`;
}
