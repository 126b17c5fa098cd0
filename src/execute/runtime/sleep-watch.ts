/**
 * Whether code slept: waited on something other than microtasks (a timer, I/O) between `watch()`
 * and the next look. A `setImmediate` queued at `watch()` runs before that look exactly when the
 * event loop turned in between, which only such a wait lets it do: what the code did decides it,
 * never how long it took. A later `watch()` or `forget()` makes an earlier immediate mark nothing.
 * Used by the scheduler's lanes (a worker thread's gate, a PostgreSQL lane's connection), where a
 * lane that slept yields its turn (`../schedule/decide.ts`).
 */
export class SleepWatch {
  private watching = 0;
  private turned = false;

  /** From now on, notes whether the event loop turns. */
  watch(): void {
    const at = ++this.watching;
    this.turned = false;
    setImmediate(() => {
      if (this.watching === at) this.turned = true;
    });
  }

  /** Stops watching: nothing that happens until the next `watch()` counts. */
  forget(): void {
    this.watching++;
    this.turned = false;
  }

  /** Whether the event loop turned since `watch()` (and no `forget()` came after). */
  get slept(): boolean {
    return this.turned;
  }
}
