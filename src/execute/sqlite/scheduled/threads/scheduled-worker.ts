/**
 * The scheduled-mode worker, started as a raw worker thread through `ts-worker-entry.mjs` (so
 * TypeScript plugins load here from the CLI and from vitest). It loads the plugin once, keeps one
 * connection (opened by the harness with busy timeout 0) for the run's database, and carries out
 * one command at a time, through the proxied connection of `scheduled-connection.ts`: a gated
 * call (parked at its start, before every statement and before its reply) or a gated world
 * event. Plain steps never come here: the coordinator runs them itself (`run-scheduled.ts`).
 *
 * Never throws at the coordinator: failures come back as `failed` reports with `{code, message}`.
 */
import { workerData } from 'node:worker_threads';
import { type ErrorData, isReceiptcheckError, messageOf } from '../../../../errors.ts';
import type { HandlerPlugin } from '../../../../handlers/plugin.ts';
import { pluginOperation } from '../../../../handlers/plugin.ts';
import { scopedAs } from '../../../../model/world.ts';
import { applyCall } from '../../../apply-event.ts';
import { applyWorldEvent } from '../../../apply-world-event.ts';
import { contain } from '../../../runtime/contain/contain.ts';
import { keepAll } from '../../../runtime/contain/handler-output.ts';
import { loadPlugin } from '../../../runtime/load-plugin.ts';
import { stillAsOpened } from '../../kept-connections.ts';
import { openSharedConnection } from '../../shared-database.ts';
import { ScheduledConnection } from '../connection/scheduled-connection.ts';
import { WORLD_PLAN } from '../gate-logic.ts';
import { type Command, Grant, type Report, type ScheduledWorkerData } from '../protocol.ts';
import { LaneGate } from './lane-gate.ts';

const data = workerData as ScheduledWorkerData;
const gate = new LaneGate(data.port, data.slot, data.doorbell);
const scopes = new Int32Array(data.scopes);
let connection: { path: string; run: number; conn: ScheduledConnection } | undefined;

// For the worker's life: what the plugin prints goes back with the reports, and what it lets
// escape (an exception from a callback, a rejection nobody handles, `process.exit`) is charged
// to its call instead of ending this thread.
contain();
keepAll();

let plugin: HandlerPlugin | undefined;
try {
  plugin = await loadPlugin(data.handlerPath);
  gate.post({ type: 'ready' });
} catch (thrown) {
  gate.post(failed(thrown));
}

// One command at a time, even when an async plugin awaits: the next waits for the last.
let queue: Promise<void> = Promise.resolve();
data.port.on('message', (command: Command) => {
  queue = queue.then(() => carryOut(command)).catch((thrown) => gate.post(failed(thrown)));
});

async function carryOut(command: Command): Promise<void> {
  if (!plugin) throw new Error('the plugin did not load');
  const conn = connect(plugin, command);
  switch (command.type) {
    case 'world':
      gate.reset(command.id, WORLD_PLAN);
      conn.faultable = false;
      applyWorldEvent(plugin, conn.proxy, command.event);
      gate.done(conn.rollbackLeak());
      return;
    case 'call':
      return gatedCall(plugin, conn, command);
  }
}

/** One call, parked at its start, before each statement and before its reply. */
async function gatedCall(
  p: HandlerPlugin,
  conn: ScheduledConnection,
  command: Extract<Command, { type: 'call' }>,
): Promise<void> {
  gate.reset(command.id, command);
  conn.faultable = true;
  if (command.parkAtStart && gate.start() === Grant.crash) {
    crashAt(conn);
    return;
  }
  // The scope is read once the start is granted: a racing revoke may have come first.
  const granted = Atomics.load(scopes, command.event.client) === 1;
  const principal = scopedAs(command.principal, granted, pluginOperation(p).scope);
  let left = false;
  const observed = await applyCall(p, conn.proxy, principal, command.event, () => {
    left = true;
  });
  if (conn.crashed) {
    gate.post({ type: 'crashed' });
    return;
  }
  if (gate.reply(observed, conn.rollbackLeak()) === Grant.crash) crashAt(conn);
  // A call left running after an escape must not reach the next call's gate: its connection dies.
  else if (left) crashQuietly(conn);
}

/** Kills `conn` for whatever still holds it; the next command opens another. */
function crashQuietly(conn: ScheduledConnection): void {
  try {
    conn.crash();
  } catch {
    // The crash signal: expected.
  }
}

/** A crash before the handler ran or after it returned: the connection dies, nothing is sent. */
function crashAt(conn: ScheduledConnection): void {
  try {
    conn.crash();
  } catch {
    gate.post({ type: 'crashed' });
  }
}

/**
 * The lane's connection for `command`: the one kept from the last command when it is to the same
 * database. A new object over the same warm connection when the last one crashed (its proxy stays
 * poisoned for whatever the crashed call still runs), or, for a plugin not declared replayable,
 * when a new run begins, so that state the plugin keeps per connection object does not outlive
 * the database's reset (as a fresh database per run would not let it). At a new run or after a
 * crash, a real connection plugin code left otherwise than opened (a temporary table, a setting,
 * an attachment: `stillAsOpened`) is closed and a new one opened, as a new connection would be.
 *
 * A crash rolls the real connection back rather than closing it (`closeOnCrash` false), as an
 * inline lane's does: between statements SQLite cannot tell the two apart (the transaction and
 * its locks are gone either way), and reopening cost the lane about a tenth of its CPU (the open,
 * the pragma, the schema loaded again by the first statement).
 */
function connect(p: HandlerPlugin, command: Command): ScheduledConnection {
  const { dbPath: path, run } = command;
  if (connection && connection.path === path) {
    const { conn } = connection;
    const anew = conn.crashed || connection.run !== run;
    if (!anew) return conn;
    if (stillAsOpened(conn.real)) {
      if (conn.crashed || p.replayable !== true)
        connection = { path, run, conn: new ScheduledConnection(conn.real, gate, false) };
      else conn.newRun();
      connection.run = run;
      return connection.conn;
    }
  }
  try {
    connection?.conn.real.close();
  } catch {
    // A statement the budget stopped mid-way: dropped, and closed when collected.
  }
  // Lanes open one at a time (the coordinator starts them in turn), so opening meets no lock.
  const conn = new ScheduledConnection(openSharedConnection(path), gate, false);
  connection = { path, run, conn };
  return conn;
}

function failed(thrown: unknown): Report {
  const error: ErrorData = isReceiptcheckError(thrown)
    ? thrown.toData()
    : { code: 'E_WORKER', message: `scheduled worker failed: ${messageOf(thrown)}` };
  return { type: 'failed', error };
}
