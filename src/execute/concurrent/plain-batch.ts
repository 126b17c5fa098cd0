/**
 * The plain steps of a concurrent run that come one after another, sent to one worker as one
 * task (a `batch`) instead of one task per step. Plain steps never overlap anything, so nothing
 * is lost by running them back to back on one worker; what is saved is a pool round trip per step
 * (the task's submission, its structured clone both ways, the worker's wake-up), which made most
 * of a run's cost outside the handler. A concurrent group's lanes still go out as one task each
 * through the release barrier (`run-concurrent.ts`), exactly as before.
 *
 * What each step had as a task of its own, it keeps: its own call budget (the pool's deadline is
 * put off while the step in progress, read from the journal, is within its budget), its own
 * place in the history, and its own failure message. A lost request is stamped by the worker where
 * it stands between its neighbours. When a step hangs, the worker is terminated, and the steps it
 * had finished before come from the batch's journal (`batch-journal.ts`).
 */

import type { Event } from '../../model/events.ts';
import type { Hang } from '../../types/verdict.ts';
import { keepOutput } from '../contain/handler-output.ts';
import { createJournal, itemStartedMs, readReplies } from './batch-journal.ts';
import {
  type OperationTarget,
  operationError,
  operationTask,
  type RecordedOperation,
  recordOperation,
  summariseEvent,
} from './operation.ts';
import type { BatchItem, WorkerReply } from './protocol.ts';
import { sharedClockMs } from './shared-clock.ts';
import type { WorkerPool } from './worker-pool.ts';

/** What running plain steps needs of the run's context (`run-concurrent.ts`). */
export interface PlainContext {
  readonly pool: WorkerPool;
  readonly plugin: { readonly name: string };
  readonly callTimeoutMs: number;
}

/** What a run of plain steps recorded, in step order; `hang` when one of them was stopped. */
export interface PlainSteps {
  readonly recorded: readonly RecordedOperation[];
  readonly hang?: Hang;
}

const STAMP: BatchItem = { type: 'stamp' };

/**
 * Runs `events`, the plain steps `firstStep`, `firstStep + 1`, … of a run, in order on one
 * worker. Stops at a hang (returned) or a failure (thrown, naming its step as a task of its own
 * would have).
 */
export async function runPlainSteps(
  ctx: PlainContext,
  target: OperationTarget,
  events: readonly Event[],
  firstStep: number,
): Promise<PlainSteps> {
  const recorded: RecordedOperation[] = [];
  const where = (i: number) => `step ${firstStep + i + 1}, ${summariseEvent(events[i] as Event)}`;
  while (recorded.length < events.length) {
    const from = recorded.length;
    const items = events.slice(from).map((event) => batchItem(target, event));
    const journal = createJournal();
    const reply = await ctx.pool.run(
      { type: 'batch', items, journal, limitMs: ctx.callTimeoutMs },
      ctx.callTimeoutMs,
      () => itemStartedMs(journal) + ctx.callTimeoutMs - sharedClockMs(),
    );
    const replies: readonly WorkerReply[] =
      reply.type === 'batched' ? reply.replies : readReplies(journal);
    for (const r of replies) {
      const i = recorded.length;
      if (r.output) keepOutput(r.output);
      if (r.type === 'failed') throw operationError(where(i), ctx.plugin.name, r);
      recorded.push(recordOperation(events[i] as Event, r, 0));
    }
    if (reply.type === 'batched') {
      if (replies.length === 0) throw operationError(where(from), ctx.plugin.name, reply);
      continue;
    }
    const i = recorded.length;
    if (reply.type !== 'stopped') throw operationError(where(i), ctx.plugin.name, reply);
    const hang: Hang = {
      step: firstStep + i,
      lane: 0,
      event: events[i] as Event,
      limitMs: reply.afterMs,
      how: 'thread',
    };
    return { recorded, hang };
  }
  return { recorded };
}

function batchItem(target: OperationTarget, event: Event): BatchItem {
  const task = operationTask(target, event);
  if (!task) return STAMP;
  if (task.type === 'call' || task.type === 'world' || task.type === 'scope') return task;
  throw new Error(`no batch item for a ${task.type} task`);
}
