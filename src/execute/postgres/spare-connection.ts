/**
 * Where a session's replacement connections come from. A lane or harness connection whose
 * backend was ended (a crash the schedule drew, a hang) is replaced on its next use, and a new
 * backend takes tens of milliseconds to start on a loaded machine (45-80 ms measured at load
 * 10): on the next run's path, between two resets. So once one is ended a spare is opened at
 * once, in the background, while the run goes on, and the next replacement takes it.
 */
import type pg from 'pg';

/** Opens connections for a session, with at most one spare opened ahead. */
export class SpareConnection {
  private spare: Promise<pg.Client> | undefined;

  /** `open` makes a new connection to the session's run database. */
  constructor(private readonly open: () => Promise<pg.Client>) {}

  /** A new connection: the spare if one opened, else one opened now. */
  async take(): Promise<pg.Client> {
    const spare = this.spare;
    this.spare = undefined;
    return (await spare?.catch(() => undefined)) ?? this.open();
  }

  /** A connection was ended: opens a spare in the background, unless one is open or opening. */
  prepare(): void {
    if (this.spare) return;
    const opening = this.open();
    opening.catch(() => {}); // a failed spare is only not taken: `take` opens one then
    this.spare = opening;
  }

  /** Ends the spare, if any (the run database is replaced, or the session closes). */
  async drop(): Promise<void> {
    const spare = this.spare;
    this.spare = undefined;
    await (await spare?.catch(() => undefined))?.end().catch(() => {});
  }
}
