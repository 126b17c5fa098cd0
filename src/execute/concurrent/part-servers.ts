/**
 * The main thread's side of serving parts (`serve-parts.ts`): one long `serve` task per worker
 * slot, started when a run needs it, and a mailbox per slot through which each run's parts are
 * handed over and answered. A slot's task ends when told to quit (before anything that needs
 * every worker idle: a warm-up, the release at close) or when its worker is terminated for a
 * hung call, which is the pool's own stop (`worker-pool.ts`), kept as it was.
 */
import { keepOutput } from '../contain/handler-output.ts';
import type { LaneBoardRef } from './lane-board.ts';
import { abandonReply, createMailbox, postJob, postQuit, reopen, replyTo } from './mailbox.ts';
import type { PartJob, ScopeTableRef, WorkerReply } from './protocol.ts';
import type { PoolReply, WorkerPool } from './worker-pool.ts';

/** A serve task's limit: none in practice (its parts are watched one by one); below 2^31 ms. */
const SERVE_LIMIT_MS = 2_000_000_000;

interface Slot {
  readonly mailbox: SharedArrayBuffer;
  serving?: { readonly ended: Promise<PoolReply>; readonly stop: AbortController };
  /** The board and scopes its serve task was started with. */
  board?: LaneBoardRef;
}

/** The slots of one runner's pool. */
export class PartServers {
  private readonly slots: Slot[];

  constructor(
    private readonly pool: WorkerPool,
    private readonly limitMs: number,
  ) {
    this.slots = Array.from({ length: pool.size }, () => ({ mailbox: createMailbox() }));
  }

  /** Runs `job` on slot `job.part`, starting its serve task if needed; the part's end. */
  async run(job: PartJob, board: LaneBoardRef, scopes: ScopeTableRef): Promise<PoolReply> {
    const slot = this.slots[job.part] as Slot;
    if (slot.serving && slot.board !== board) await this.quit(slot);
    const serving = slot.serving ?? this.serve(slot, board, scopes);
    const seq = postJob(slot.mailbox, job);
    const outcome = await Promise.race([
      replyTo(slot.mailbox, seq).then((reply) => ({ reply: reply as WorkerReply })),
      serving.ended.then((ended) => ({ ended })),
    ]);
    if ('ended' in outcome) {
      // Its worker was stopped or died: the reply will never come, and the slot serves no more.
      slot.serving = undefined;
      abandonReply(slot.mailbox);
      return outcome.ended;
    }
    // What the plugin printed belongs to the run in progress here.
    if (outcome.reply.output) keepOutput(outcome.reply.output);
    return outcome.reply;
  }

  /** Terminates the worker serving part `part` (its call hung). */
  stop(part: number): void {
    this.slots[part]?.serving?.stop.abort();
  }

  /** Ends every serve task, so every worker is idle. */
  async quitAll(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.quit(slot)));
  }

  private serve(
    slot: Slot,
    board: LaneBoardRef,
    scopes: ScopeTableRef,
  ): NonNullable<Slot['serving']> {
    const stop = new AbortController();
    const since = reopen(slot.mailbox);
    const ended = this.pool.run(
      { type: 'serve', mailbox: slot.mailbox, since, board, scopes, limitMs: this.limitMs },
      SERVE_LIMIT_MS,
      stop.signal,
    );
    // Rejected only once the process is interrupted; whoever awaits it then sees it.
    ended.catch(() => {});
    slot.serving = { ended, stop };
    slot.board = board;
    return slot.serving;
  }

  private async quit(slot: Slot): Promise<void> {
    const serving = slot.serving;
    if (!serving) return;
    slot.serving = undefined;
    postQuit(slot.mailbox);
    await serving.ended;
  }
}
