/**
 * Which lanes a scheduled runner uses, and the switch between them. A replayable handler
 * (`HandlerPlugin.replayable`) runs its lanes inline on the coordinator's thread
 * (`inline-lanes.ts`): no thread to start, no hand-off. Any other handler, or a `thread` crash
 * mode (which kills a worker's memory too), runs on worker threads (`lane-workers.ts`), lent
 * from one runner to the next of the same handler. A handler declared replayable that turns out
 * not to be is moved to threads for good, the first time it shows.
 */
import type { HandlerPlugin } from '../../../handlers/plugin.ts';
import type { LaneMode } from '../../../types/mode.ts';
import { InlineLanes } from './inline/inline-lanes.ts';
import type { Lanes } from './lanes.ts';
import { borrowLaneWorkers, type LaneWorkers, returnLaneWorkers } from './threads/lane-workers.ts';

/** What the choice needs to know. */
export interface LaneChoiceOptions {
  readonly mode: LaneMode;
  readonly crashMode: 'connection' | 'thread';
  /** Worker threads to start at once when threads are used (lane 0 first). */
  readonly workers: number;
}

/** A runner's lanes. */
export class LaneChoice {
  /** The lanes in use now. */
  lanes: Lanes;
  private threads: LaneWorkers | undefined;
  private warming: Promise<void> = Promise.resolve();

  private constructor(
    plugin: HandlerPlugin,
    private readonly handlerPath: string,
    private readonly principals: number,
    private readonly options: LaneChoiceOptions,
  ) {
    this.lanes = new InlineLanes(plugin, principals);
  }

  /** Chooses, and starts the first worker when threads are chosen (so a plugin that cannot load in one fails here). */
  static async open(
    plugin: HandlerPlugin,
    handlerPath: string,
    principals: number,
    options: LaneChoiceOptions,
  ): Promise<LaneChoice> {
    const choice = new LaneChoice(plugin, handlerPath, principals, options);
    const inline =
      options.mode === 'inline' ||
      (options.mode === 'auto' && plugin.replayable === true && options.crashMode === 'connection');
    if (!inline) await choice.useThreads();
    return choice;
  }

  /** Whether lanes run inline now. */
  get inline(): boolean {
    return this.threads === undefined;
  }

  /** Whether a run that failed with `E_NOT_REPLAYABLE` may start over on threads. */
  get mayFallBack(): boolean {
    return this.inline && this.options.mode === 'auto';
  }

  /** Moves to worker threads (for good): lane 0 started before it returns, the others meanwhile. */
  async useThreads(): Promise<void> {
    if (this.threads) return;
    void this.lanes.closeAll();
    const threads = borrowLaneWorkers(this.handlerPath, this.principals);
    this.threads = threads;
    this.lanes = threads;
    // Lane 0 first, so a plugin that cannot load in a worker fails here; the others (a quarter
    // second each, mostly tsx starting in the thread) are awaited only by the first group that
    // needs them.
    await threads.warm(1);
    this.warming = threads.warm(Math.min(4, Math.max(1, this.options.workers)));
    this.warming.catch(() => {});
  }

  /** Resolves once every lane started with the runner is up. */
  ready(): Promise<void> {
    return this.warming;
  }

  /** Closes the lanes; `reuse` lends worker threads to the next runner of this handler. */
  async close(reuse: boolean): Promise<void> {
    if (!this.threads) return this.lanes.closeAll();
    if (reuse) returnLaneWorkers(this.threads, this.handlerPath, this.principals);
    else await this.threads.closeAll();
  }
}
