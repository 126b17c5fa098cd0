/**
 * The scheduled-mode worker, started as a raw worker thread through `ts-worker-entry.mjs` (so
 * TypeScript plugins load here from the CLI and from vitest). It loads the plugin once, keeps one
 * connection for the run's database (`kept-lane-connection.ts`), and carries out
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
import { KeptLaneConnection } from '../connection/kept-lane-connection.ts';
import type { ScheduledConnection } from '../connection/scheduled-connection.ts';
import { WORLD_PLAN } from '../gate-logic.ts';
import { type Command, Grant, type Report, type ScheduledWorkerData } from '../protocol.ts';
import { LaneGate } from './lane-gate.ts';

const data = workerData as ScheduledWorkerData;
const gate = new LaneGate(data.port, data.slot, data.doorbell);
const scopes = new Int32Array(data.scopes);

// For the worker's life: what the plugin prints goes back with the reports, and what it lets
// escape (an exception from a callback, a rejection nobody handles, `process.exit`) is charged
// to its call instead of ending this thread.
contain();
keepAll();

let plugin: HandlerPlugin | undefined;
/** The lane's connection (`kept-lane-connection.ts`), once the plugin is loaded. */
let connection: KeptLaneConnection | undefined;
try {
  plugin = await loadPlugin(data.handlerPath);
  connection = new KeptLaneConnection(gate, plugin.replayable === true, false);
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
  if (!plugin || !connection) throw new Error('the plugin did not load');
  const conn = connection.for(command.dbPath, command.run);
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

function failed(thrown: unknown): Report {
  const error: ErrorData = isReceiptcheckError(thrown)
    ? thrown.toData()
    : { code: 'E_WORKER', message: `scheduled worker failed: ${messageOf(thrown)}` };
  return { type: 'failed', error };
}
