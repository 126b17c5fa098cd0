/**
 * A session's lane connections (`postgres-session.ts`): each its own server backend, opened on
 * first use and kept for the runner's life, cleaned between runs (`session-lane.ts`), and only
 * replaced when its backend had to be ended. Which lanes were handed out since the last cleaning
 * is kept too: only they may have run plugin code.
 */
import type pg from 'pg';
import { cleanedLane, faceOf, type Lane } from './session-lane.ts';

/** What the lanes need of their session: new connections, and ending a backend. */
export interface LaneSource {
  /** A new connection to the run database (the session's spare, if one is open). */
  take(): Promise<pg.Client>;
  /** A lane's backend was given up: open a spare for its replacement. */
  prepare(): void;
  /** Ends `client`'s backend and the client. */
  terminate(client: pg.Client): Promise<void>;
}

/** The lanes of one session. */
export class KeptLanes {
  private readonly lanes: (Lane | undefined)[] = [];
  private readonly handed = new Set<number>();

  constructor(
    private readonly source: LaneSource,
    /** Run on every lane when it opens or is cleaned (`SessionOptions.laneSetup`), until it fails once. */
    private setup: string | undefined,
    /** Lanes a runner before this one kept, cleaned with its settings: all cleaned again. */
    kept: readonly (Lane | undefined)[] = [],
  ) {
    this.lanes.push(...kept);
    for (const i of this.lanes.keys()) this.handed.add(i);
  }

  /** Lane `i`'s connection, opened on first use. */
  async lane(i: number): Promise<Lane> {
    this.handed.add(i);
    const found = this.lanes[i];
    if (found) return found;
    const client = await this.source.take();
    if (this.setup)
      await client.query(this.setup).catch(() => {
        this.setup = undefined; // not a superuser: never again
      });
    const lane = faceOf(client);
    this.lanes[i] = lane;
    return lane;
  }

  /**
   * Lane `i`'s backend made as a new one would be, for a crash the schedule drew: its transaction
   * rolled back, its session reset (`cleanedLane`: its session-level locks go too), in one round
   * trip, so that the lane goes on on the same backend (a new one takes tens of milliseconds of
   * server time to start). Only for a lane with no statement on the server. False when that
   * failed: the lane is then forgotten, its backend for the caller to end.
   */
  async restart(i: number): Promise<boolean> {
    const lane = this.lanes[i];
    const cleaned = lane && (await cleanedLane(lane, this.setup));
    if (!cleaned) {
      this.forget(i);
      return false;
    }
    this.lanes[i] = cleaned;
    return true;
  }

  /** Lane `i`'s connection is the session's no more (its backend ended or ends); the caller ends it. */
  forget(i: number): Lane | undefined {
    const lane = this.lanes[i];
    lane?.seal();
    this.lanes[i] = undefined;
    this.source.prepare();
    return lane;
  }

  /** The backends of the open lanes. */
  backends(): (number | undefined)[] {
    return this.lanes.map((lane) => lane?.backend);
  }

  /** Every lane's face sealed: plugin code a runner left behind reaches none of them. */
  sealAll(): void {
    for (const lane of this.lanes) lane?.seal();
  }

  /** Every lane, the session's no more. */
  detach(): (Lane | undefined)[] {
    const all = [...this.lanes];
    this.lanes.length = 0;
    return all;
  }

  /**
   * The lanes handed out since the last cleaning, to clean now: `busy` may hold row or table
   * locks (a transaction open, a query out), `idle` hold none (a session-level lock takes no
   * rows). The next cleaning starts from none.
   */
  toClean(): { readonly busy: number[]; readonly idle: number[] } {
    const used = [...this.handed];
    this.handed.clear();
    const isIdle = (i: number) => {
      const lane = this.lanes[i];
      return !lane || (lane.pending() === 0 && lane.client.getTransactionStatus() === 'I');
    };
    return { busy: used.filter((i) => !isIdle(i)), idle: used.filter(isIdle) };
  }

  /** Lane `i` cleaned for the next run (`cleanedLane`), or its backend ended and the lane forgotten. */
  async clean(i: number): Promise<void> {
    const lane = this.lanes[i];
    if (!lane) return;
    const cleaned = await cleanedLane(lane, this.setup);
    this.lanes[i] = cleaned;
    if (!cleaned)
      await this.source.terminate(lane.client).catch(() => lane.client.end().catch(() => {}));
  }
}
