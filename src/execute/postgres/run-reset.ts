/**
 * When a session's run database is reset: after every run, as soon as its execution returns
 * (`finish`), so that the server does it while the harness judges that run and draws the next;
 * and before a run that finds none done or under way (`begin`); or when the runner says (`now`).
 * A reset under way holds the session's connections: `settled` waits for it before they are
 * handed on or ended.
 */
export class RunReset {
  private resetting: Promise<void> | undefined;
  /** A reset `now` started, while under way: `settled` waits for it too. */
  private asked: Promise<unknown> | undefined;

  constructor(
    /** Puts the run database back as `setup` left it (`PostgresSession.reset`). */
    private readonly reset: () => Promise<void>,
    /** Whether the database needs a reset before the next run. */
    private dirty: boolean,
  ) {}

  /** Before every run: waits for the reset under way (and its error), or resets if need be. */
  async begin(): Promise<void> {
    const resetting = this.resetting;
    this.resetting = undefined;
    if (resetting) await resetting;
    else if (this.dirty) await this.reset();
    this.dirty = true;
  }

  /** A run is over and nothing of it touches the database again: its reset starts now. */
  finish(): void {
    if (!this.dirty || this.resetting) return;
    this.dirty = false;
    const resetting = this.reset();
    resetting.catch(() => {}); // `begin` rethrows it; a runner closed first never asks
    this.resetting = resetting;
  }

  /**
   * A reset at once, for a runner that says when (a service's database, once the service's
   * connections are idle); its error is the caller's.
   */
  now(): Promise<void> {
    const resetting = this.reset();
    this.asked = resetting.catch(() => {});
    return resetting;
  }

  /**
   * Once no reset `finish` or `now` started is under way; a failed one of `finish`'s leaves the
   * database to reset. Ending the connections under a reset would fail it, and a reset that
   * fails copies the template: a database made after the ones to drop were listed.
   */
  async settled(): Promise<void> {
    const resetting = this.resetting;
    this.resetting = undefined;
    if (resetting)
      await resetting.catch(() => {
        this.dirty = true;
      });
    await this.asked;
  }
}
