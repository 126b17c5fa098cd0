/**
 * A worker serving concurrent runs' parts from its mailbox (`mailbox.ts`), one after another,
 * inside one long pool task: between parts it waits with `Atomics.waitAsync`, so its event loop
 * keeps turning (an escape from a handler's callback is still seen and charged). Ends when the
 * main thread posts `quit`, or when the main thread terminates the worker for a hung call.
 */
import { nextJob, postReply } from './mailbox.ts';
import type { PartJob, WorkerReply, WorkerTask } from './protocol.ts';
import { runPart } from './run-part.ts';

type ServeTask = Extract<WorkerTask, { type: 'serve' }>;

/** Serves `task`'s mailbox; `perform` carries out one operation, `takeOutput` what plugin code printed. */
export async function serveParts(
  task: ServeTask,
  perform: (operation: WorkerTask) => Promise<WorkerReply>,
  takeOutput: () => string,
): Promise<WorkerReply> {
  let last = task.since;
  for (;;) {
    const next = await nextJob(task.mailbox, last);
    if (!next) return { type: 'served' };
    last = next.seq;
    const job = next.job as PartJob;
    let reply: WorkerReply;
    try {
      reply = await runPart(
        { ...job, type: 'part', board: task.board, scopes: task.scopes, limitMs: task.limitMs },
        perform,
      );
    } catch (thrown) {
      const message = `a part of a concurrent run failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
      reply = { type: 'failed', error: { code: 'E_WORKER', message } };
    }
    const output = takeOutput();
    postReply(task.mailbox, next.seq, output ? { ...reply, output } : reply);
  }
}
