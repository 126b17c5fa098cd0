/**
 * A lane's connection to the run's database, kept from command to command: an inline lane's and
 * a worker lane's alike. The same object while the lane works on one run of one database.
 * - After a crash: the same object revived where the crashed call cannot run on (an inline lane
 *   unwinds it at once, and a new object would cost the plugin the statements it prepared on the
 *   old one), else a new object over the same warm connection (the crashed object's proxy stays
 *   poisoned for whatever the crashed call still runs).
 * - At a new run: a new object for a plugin not declared replayable, so that state it keeps per
 *   connection object does not outlive the database's reset (as a fresh database per run would
 *   not let it); a replayable plugin's is kept, its busy timeout back to the default (`newRun`).
 * - Either way, a real connection plugin code left otherwise than opened (a temporary table, a
 *   setting, an attachment: `stillAsOpened`) is closed and a new one opened, as a new connection
 *   would be. *
 * A crash rolls the real connection back rather than closing it (`closeOnCrash` false): between
 * statements SQLite cannot tell the two apart (the transaction and its locks are gone either
 * way), and reopening cost a lane about a tenth of its CPU (the open, the pragma, the schema
 * loaded again by the first statement).
 */
import { stillAsOpened } from '../../kept-connections.ts';
import { openSharedConnection } from '../../shared-database.ts';
import { ScheduledConnection, type StatementGate } from './scheduled-connection.ts';

/** One lane's kept connection, behind `gate`. */
export class KeptLaneConnection {
  private kept: { path: string; run: number; conn: ScheduledConnection } | undefined;

  constructor(
    private readonly gate: StatementGate,
    /** Whether the plugin is declared replayable: its connection object may outlive a run. */
    private readonly replayable: boolean,
    /** Whether a crashed call ends with its crash (an inline lane's): its object is revived. */
    private readonly callsEndAtCrash: boolean,
  ) {}

  /** The connection for a command of run `run` on the database at `path`. */
  for(path: string, run: number): ScheduledConnection {
    const k = this.kept;
    if (k && k.path === path) {
      if (!k.conn.crashed && k.run === run) return k.conn;
      if (stillAsOpened(k.conn.real)) {
        if (k.conn.crashed && this.callsEndAtCrash) k.conn.revive();
        else if (k.conn.crashed || !this.replayable)
          k.conn = new ScheduledConnection(k.conn.real, this.gate, false);
        else k.conn.newRun();
        k.run = run;
        return k.conn;
      }
    }
    this.close();
    // Lanes open one at a time (the coordinator starts them in turn), so opening meets no lock.
    const conn = new ScheduledConnection(openSharedConnection(path), this.gate, false);
    this.kept = { path, run, conn };
    return conn;
  }

  /**
   * Closes the connection (rolling back what it held). One whose call was stopped mid-statement
   * by the call budget may refuse; it is dropped, and rolls back when collected.
   */
  close(): void {
    try {
      this.kept?.conn.real.close();
    } catch {
      // Dropped: nothing else uses it.
    }
    this.kept = undefined;
  }
}
