/**
 * One part of a concurrent run, on its worker (see `run-plan.ts` for who does what): the part's
 * items in order, each operation carried out by `perform` exactly as a task of its own would be
 * (the same connection, scope lock, containment and leaked-transaction rollback), with no
 * message to the main thread until the part ends. Before each operation the part marks itself
 * running on the board, for the main thread's hang watch; after it, it journals the result.
 * A failed operation aborts the run: the other parts stop at their next wait.
 */
import type { Event } from '../../model/events.ts';
import { aborted, abortRun, join, laneDone, markIdle, markRunning, meet } from './lane-board.ts';
import { type OperationTarget, operationTask } from './operation.ts';
import { type JournalEntry, writeEntry } from './part-journal.ts';
import type { WorkerReply, WorkerTask } from './protocol.ts';
import { planRun } from './run-plan.ts';
import { sharedClockMs } from './shared-clock.ts';

type PartTask = Extract<WorkerTask, { type: 'part' }>;

/** Longest wait for another part beyond the operations it waits on, in ms (a safety net). */
const PART_WAIT_SLACK_MS = 30_000;

/** Runs `task`'s part; `perform` carries out one operation's task on this worker. */
export async function runPart(
  task: PartTask,
  perform: (operation: WorkerTask) => Promise<WorkerReply>,
): Promise<WorkerReply> {
  const { board, part } = task;
  const items = planRun(task.steps, task.size).items[part] ?? [];
  const target: OperationTarget = {
    handlerPath: task.handlerPath,
    fixture: { principals: task.principals },
    dbPath: task.dbPath,
    scopes: task.scopes,
    callTimeoutMs: task.callTimeoutMs,
    run: task.run,
  };
  // Another part's wait is bounded by the operations before it, each bounded by the hang watch.
  const waitMs = task.callTimeoutMs * (task.steps.length + 1) + PART_WAIT_SLACK_MS;
  const gaveUp: WorkerReply = { type: 'ran', aborted: true };

  const operate = async (step: number, lane: number, event: Event): Promise<boolean> => {
    const operation = operationTask(target, event);
    if (!operation) return journal({ k: 'unsent', step, lane, at: sharedClockMs() });
    markRunning(board, part, step, lane);
    const reply = await perform(operation);
    markIdle(board, part);
    switch (reply.type) {
      case 'called': {
        const { observed, invokedAt, completedAt } = reply;
        return journal({ k: 'called', step, lane, observed, invokedAt, completedAt });
      }
      case 'applied': {
        const { invokedAt, completedAt } = reply;
        return journal({ k: 'applied', step, lane, invokedAt, completedAt });
      }
      case 'failed':
        journal({ k: 'failed', step, lane, error: reply.error });
        return false;
      default:
        journal({
          k: 'failed',
          step,
          lane,
          error: { code: 'E_WORKER', message: `unexpected reply ${reply.type}` },
        });
        return false;
    }
  };

  const journal = (entry: JournalEntry): boolean => {
    if (writeEntry(board, part, entry)) return true;
    const message = 'the run recorded more than its journal holds';
    const error = { code: 'E_WORKER', message } as const;
    writeEntry(board, part, { k: 'failed', step: entry.step, lane: entry.lane, error });
    return false;
  };

  for (const item of items) {
    if (aborted(board)) return gaveUp;
    let ok: boolean;
    switch (item.kind) {
      case 'solo':
      case 'unsent':
        ok = await operate(item.step, item.lane, item.event);
        break;
      case 'lane':
        if (!meet(board, item.wave, item.width, waitMs)) return gaveUp;
        ok = await operate(item.step, item.lane, item.event);
        laneDone(board, item.wave, item.width);
        break;
      case 'join':
        ok = join(board, item.wave, item.width, waitMs);
        if (!ok && !aborted(board)) {
          // Not a hang of an operation (the watch stops those): a part never came.
          journal({
            k: 'failed',
            step: -1,
            lane: -1,
            error: {
              code: 'E_WORKER',
              message: `a group of ${item.width} lanes did not finish within ${waitMs} ms`,
            },
          });
        }
        break;
    }
    if (!ok) {
      abortRun(board);
      return gaveUp;
    }
  }
  return { type: 'ran', aborted: false };
}
