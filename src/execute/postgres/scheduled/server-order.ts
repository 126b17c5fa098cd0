/**
 * Whether the server, not the schedule, chose the order of a step's lanes. The scheduler decides
 * which lane's statement goes next, but not this: when a lane lets go of something two or more
 * other lanes wait on (its transaction ends, or its backend), the server wakes them all, and
 * which goes first is a race between their backends. Such a run is one of the paths its schedule
 * allows, so nothing may read it as exactly repeatable (`ScheduledExecution.serverOrdered`).
 *
 * The wait-for graph every question of the lock watch brings back is kept as last seen. Before
 * every grant each lane that two or more lanes queue behind, directly or behind one another, is
 * noted, when they may race for it (`mayRace`); after the grant and the wake-ups it settled, a
 * noted lane that one of them no longer waits on let go of it, and the run is marked. A lane that
 * ends (a crash) with such a queue behind it marks the run at once. The mark errs on the side of
 * marking: a queue the server in fact hands on in order costs runs, never a false exactness.
 */
import type { LockWatch, WaitsFor } from './lock-watch.ts';

/** What the watch needs to know of a step's lanes, whatever carries them (a plugin's, a service's). */
export interface QueueView {
  /** The step's lanes that run plugin or service code. */
  laneIds(): Iterable<number>;
  /** The backend of the lane's statement that is out with no answer yet, if any. */
  waitingPid(lane: number): number | undefined;
  /** The backends the lane holds locks through. */
  holderPids(lane: number): readonly number[];
}

/** One step's watch over the orders the server chose; `mark.seen` is set for the run. */
export class ServerOrder {
  /** The backends each waiting backend was last seen waiting on, by pid. */
  private readonly seenWaits = new Map<number, readonly number[]>();
  /** The lanes noted before the current grant, with the lanes queued behind each. */
  private queued: ReadonlyMap<number, readonly number[]> = new Map();

  constructor(
    private readonly watch: LockWatch,
    private readonly view: QueueView,
    private readonly mark: { seen: boolean },
  ) {}

  /** A wait-for graph the lock watch brought back: each backend in it waits on these now. */
  saw(graph: WaitsFor): void {
    for (const [pid, blockers] of graph)
      if (blockers.length > 0) this.seenWaits.set(pid, blockers);
      else this.seenWaits.delete(pid);
  }

  /** Backend `pid`'s statement was answered: it waits on nothing. */
  answered(pid: number): void {
    this.seenWaits.delete(pid);
  }

  /** Before a grant: notes each lane whose waiters may race once it lets go. */
  async beforeGrant(): Promise<void> {
    const queued = new Map<number, readonly number[]>();
    for (const lane of this.view.laneIds()) {
      const waiters = this.waitersOn(lane);
      if (waiters.length >= 2 && (await this.mayRace(waiters))) queued.set(lane, waiters);
    }
    this.queued = queued;
  }

  /** After the grant and the wake-ups it settled: a noted lane let a waiter go, so the server chose. */
  afterGrant(): void {
    for (const [lane, waiters] of this.queued) {
      const still = new Set(this.waitersOn(lane));
      if (waiters.some((w) => !still.has(w))) this.mark.seen = true;
    }
    this.queued = new Map();
  }

  /** Lane `lane` ends here (a crash): what it held goes, to the server's choice of waiter. */
  async ending(lane: number): Promise<void> {
    const waiters = this.waitersOn(lane);
    if (waiters.length >= 2 && (await this.mayRace(waiters))) this.mark.seen = true;
  }

  /**
   * The lanes whose statement is out and was last seen waiting on one of lane `lane`'s backends,
   * directly or behind another backend that does (PostgreSQL queues a second waiter for a row
   * behind the first, on the row's tuple lock: `pg_blocking_pids` names the first alone).
   */
  waitersOn(lane: number): number[] {
    const holders = new Set(this.view.holderPids(lane));
    const reaches = (pid: number, seen: Set<number>): boolean =>
      (this.seenWaits.get(pid) ?? []).some(
        (b) => holders.has(b) || (!seen.has(b) && reaches(b, seen.add(b))),
      );
    const waiters: number[] = [];
    for (const l of this.view.laneIds()) {
      const pid = this.view.waitingPid(l);
      if (l !== lane && pid !== undefined && reaches(pid, new Set([pid]))) waiters.push(l);
    }
    return waiters;
  }

  /**
   * Whether lanes `waiters`, queued behind one lane, may race for what it lets go: two or more of
   * them wait on something other than an advisory lock. PostgreSQL's lock manager grants a
   * released advisory lock to its waiters one at a time in the order they queued, which the
   * schedule decided, and a statement waiting for one does nothing else; the waiters for a row
   * wait on its holder's transaction (or behind one another on the row), all wake when it ends,
   * and race for the row. A waiter whose wait the server no longer shows counts as racing.
   */
  private async mayRace(waiters: readonly number[]): Promise<boolean> {
    const pids = waiters.map((l) => this.view.waitingPid(l) ?? -1);
    const kinds = await this.watch.waitingKinds(pids);
    const racing = pids.filter((pid) => (kinds.get(pid) ?? ['gone']).some((k) => k !== 'advisory'));
    return racing.length >= 2;
  }
}
