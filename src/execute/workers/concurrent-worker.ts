/**
 * The concurrent-mode worker module, run by piscina through `ts-worker-entry.mjs`: one
 * `WorkerTask` at a time per worker thread. It loads each handler plugin once (`loadPlugin`
 * caches by path) and keeps one connection to the database it is working on, opened with the
 * harness's `openConnection`, until a `release` task closes it or a task names another file.
 * The plugin only ever sees that connection (or, in concurrent mode, a per-run object standing
 * for it: `run-connection.ts`): the harness owns it, as the plugin contract requires.
 *
 * Never throws: every failure comes back as a `failed` reply carrying `{code, message}`.
 */

import { type ErrorData, isReceiptcheckError, messageOf } from '../../errors.ts';
import type { Connection, HandlerPlugin } from '../../handlers/plugin.ts';
import { pluginOperation } from '../../handlers/plugin.ts';
import { leftOpen, type Observed } from '../../model/outcome.ts';
import { scopedAs } from '../../model/world.ts';
import { applyCall } from '../apply-event.ts';
import { applyWorldEvent } from '../apply-world-event.ts';
import { contain } from '../runtime/contain/contain.ts';
import { keepAll, takeOutput } from '../runtime/contain/handler-output.ts';
import { loadPlugin } from '../runtime/load-plugin.ts';
import { passGate } from '../sqlite/concurrent/gate.ts';
import type { GateRef, WorkerReply, WorkerTask } from '../sqlite/concurrent/protocol.ts';
import { abortBoard, awaitPhase, finishPart } from '../sqlite/concurrent/run-board.ts';
import { runConnection } from '../sqlite/concurrent/run-connection.ts';
import {
  JOURNAL_BYTES,
  startItem,
  startWaiting,
  writeReply,
} from '../sqlite/concurrent/run-journal.ts';
import { beginScopeRead, endScopeRead, writeScope } from '../sqlite/concurrent/scope-table.ts';
import { sharedClockMs } from '../sqlite/concurrent/shared-clock.ts';
import { openConnection, rollbackLeaked } from '../sqlite/databases.ts';
import { keepAsOpened, stillAsOpened } from '../sqlite/kept-connections.ts';

const connections = new Map<string, Connection>();
/** The connection object of the run in progress, for a plugin that is not `replayable`. */
let runView:
  | { readonly run: number; readonly base: Connection; readonly db: Connection }
  | undefined;

// For the worker's life: what the plugin prints goes back with each reply, and what it lets
// escape (an exception from a callback, a rejection nobody handles, `process.exit`) is charged
// to its call instead of ending this thread.
contain();
keepAll();

/** Runs one task; piscina calls this with each task and posts back what it returns. */
export default async function runWorkerTask(task: WorkerTask): Promise<WorkerReply> {
  const reply = await carryOut(task);
  const output = takeOutput();
  return output ? { ...reply, output } : reply;
}

async function carryOut(task: WorkerTask): Promise<WorkerReply> {
  try {
    switch (task.type) {
      case 'warm':
        await loadPlugin(task.handlerPath);
        return gate(task.gate, task.limitMs) ?? { type: 'warmed' };
      case 'release': {
        // Close even when the gate failed: the gate only spreads the task over the workers.
        const blocked = gate(task.gate, task.limitMs);
        // Every connection: one to a file replaced after a hang is stale too.
        for (const path of [...connections.keys()]) release(path);
        return blocked ?? { type: 'released' };
      }
      case 'script':
        return await script(task);
      case 'call':
        return await call(task);
      case 'world':
        return await world(task);
      case 'scope': {
        const blocked = gate(task.gate, task.limitMs);
        if (blocked) return blocked;
        const invokedAt = sharedClockMs();
        if (!writeScope(task.scopes, task.client, task.granted, task.limitMs))
          return failed(
            'E_CALL_TIMEOUT',
            `a ${task.granted ? 'restore' : 'revoke'} of client ${task.client} waited more than ${task.limitMs} ms for that principal's calls in flight to finish`,
          );
        return { type: 'applied', invokedAt, completedAt: sharedClockMs() };
      }
    }
  } catch (thrown) {
    return { type: 'failed', error: toErrorData(thrown) };
  }
}

/**
 * Runs this worker's share of a run (`run-plan.ts`): each part once the board reaches its phase,
 * its items in order, each reply with what the plugin printed during it and written to the
 * journal as well, so that a stop at a later item loses none of them (`run-journal.ts`). A failed
 * item aborts the board, so that no other worker goes on with the run.
 */
async function script(task: Extract<WorkerTask, { type: 'script' }>): Promise<WorkerReply> {
  const replies: WorkerReply[] = [];
  for (const part of task.parts) {
    startWaiting(task.journal);
    if (!awaitPhase(task.board, part.phase)) break;
    for (const item of part.items) {
      startItem(task.journal, replies.length);
      const done =
        item.type === 'stamp'
          ? ({ type: 'stamped', at: sharedClockMs() } as const)
          : await carryOut(item);
      const output = takeOutput();
      const reply = journalled(task.journal, output ? { ...done, output } : done);
      replies.push(reply);
      if (reply.type === 'failed') {
        abortBoard(task.board);
        return { type: 'scripted', replies };
      }
    }
    finishPart(task.board, part.phase, part.parties);
  }
  return { type: 'scripted', replies };
}

/**
 * Writes `reply` to the journal, and gives it back. One too big for what is left keeps its place
 * without what the plugin printed; one that does not fit even so becomes a failure.
 */
function journalled(journal: SharedArrayBuffer, reply: WorkerReply): WorkerReply {
  if (writeReply(journal, reply)) return reply;
  const { output: _dropped, ...bare } = reply;
  if (writeReply(journal, bare)) return reply;
  const fail = failed(
    'E_WORKER',
    `this worker's journal of the run (${JOURNAL_BYTES / 1024} KB) had no room left for a reply of ${JSON.stringify(bare).length} characters`,
  );
  writeReply(journal, fail);
  return fail;
}

async function call(task: Extract<WorkerTask, { type: 'call' }>): Promise<WorkerReply> {
  const plugin = await loadPlugin(task.handlerPath);
  const db = connectionFor(plugin, task.dbPath, task.run);
  const blocked = gate(task.gate, task.limitMs);
  if (blocked) return blocked;
  const invokedAt = sharedClockMs();
  const client = task.event.client;
  const granted = beginScopeRead(task.scopes, client, task.limitMs);
  if (granted === undefined)
    return failed(
      'E_CALL_TIMEOUT',
      `a call by client ${client} waited more than ${task.limitMs} ms for a scope change to finish`,
    );
  try {
    const principal = scopedAs(task.principal, granted, pluginOperation(plugin).scope);
    let left = false;
    let observed: Observed = await applyCall(plugin, db, principal, task.event, () => {
      left = true;
    });
    // A transaction the plugin left open is a failure of the call, and would hold the write
    // lock against every other worker.
    if (!left && db.inTransaction) observed = leftOpen(observed);
    rollbackLeaked(db);
    // A call left running after an escape keeps this connection: later calls get another.
    if (left) release(task.dbPath);
    return { type: 'called', observed, invokedAt, completedAt: sharedClockMs() };
  } finally {
    endScopeRead(task.scopes, client);
  }
}

async function world(task: Extract<WorkerTask, { type: 'world' }>): Promise<WorkerReply> {
  const plugin = await loadPlugin(task.handlerPath);
  const db = connectionFor(plugin, task.dbPath, task.run);
  const blocked = gate(task.gate, task.limitMs);
  if (blocked) return blocked;
  const invokedAt = sharedClockMs();
  try {
    applyWorldEvent(plugin, db, task.event);
  } catch (thrown) {
    rollbackLeaked(db);
    return failed(
      'E_WORKER',
      `${describePlugin(plugin)}: the world event ${task.event.kind} threw: ${messageOf(thrown)}`,
    );
  }
  return { type: 'applied', invokedAt, completedAt: sharedClockMs() };
}

function release(dbPath: string): void {
  connections.get(dbPath)?.close();
  connections.delete(dbPath);
}

/** This worker's connection to `path`; one to another file is closed first (one database at a time). */
function connection(path: string): Connection {
  let db = connections.get(path);
  if (!db) {
    for (const other of [...connections.keys()]) release(other);
    db = openConnection(path);
    keepAsOpened(db);
    connections.set(path, db);
  }
  return db;
}

/** The run the kept connection last served a task of. */
let servedRun: number | undefined;

/**
 * The connection a plugin is given for a task of run `run` (see `run-connection.ts`): at a new
 * run, opened again when plugin code left it otherwise than opened (`stillAsOpened`).
 */
function connectionFor(plugin: HandlerPlugin, path: string, run: number | undefined): Connection {
  if (run !== undefined && run !== servedRun) {
    servedRun = run;
    const kept = connections.get(path);
    if (kept && !stillAsOpened(kept)) release(path);
  }
  const db = connection(path);
  if (run === undefined || plugin.replayable) return db;
  if (runView?.run !== run || runView.base !== db)
    runView = { run, base: db, db: runConnection(db) };
  return runView.db;
}

/** Waits at the group's barrier, if any; a reply when it could not be passed. */
function gate(gateRef: GateRef | undefined, limitMs: number): WorkerReply | undefined {
  if (!gateRef || passGate(gateRef, limitMs)) return undefined;
  return failed(
    'E_WORKER',
    `a group of ${gateRef.parties} tasks was not released: not every lane reached a worker within ${limitMs} ms (are there fewer idle workers than lanes?)`,
  );
}

function failed(code: ErrorData['code'], message: string): WorkerReply {
  return { type: 'failed', error: { code, message } };
}

function toErrorData(thrown: unknown): ErrorData {
  if (isReceiptcheckError(thrown)) return thrown.toData();
  return { code: 'E_WORKER', message: `worker failed: ${messageOf(thrown)}` };
}

function describePlugin(plugin: HandlerPlugin): string {
  return `handler "${plugin.name}"`;
}
