/**
 * One lane's reports to the coordinator, in the order they were posted, for a reader that waits
 * on the next one within a limit (the call budget): a report posted while nobody waits is kept
 * for the next read. PostgreSQL plugins' lanes and a service's post to one each.
 */
export class Mailbox<T> {
  private readonly queued: T[] = [];
  private waiter: ((item: T) => void) | undefined;

  /** Reports posted and not read yet. */
  get size(): number {
    return this.queued.length;
  }

  post(item: T): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(item);
    else this.queued.push(item);
  }

  /** The next item, or undefined when none came within `limitMs`. */
  next(limitMs: number): Promise<T | undefined> {
    if (this.queued.length > 0) return Promise.resolve(this.queued.shift());
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve(undefined);
      }, limitMs);
      this.waiter = (item) => {
        clearTimeout(timer);
        resolve(item);
      };
    });
  }
}
