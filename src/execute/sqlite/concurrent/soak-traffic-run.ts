/**
 * The long-history traffic: `clients` clients issue calls and world events back to back against
 * one database for `durationMs`, each on its own worker and connection; then the clients settle
 * the world (scopes back, store working) and retry every request whose response they lost, so
 * the history says where those went. Unlike concurrent mode nothing lines the calls up: overlap
 * comes from volume. Returns the history as data; `api/soak.ts` has it judged.
 */

import type { HandlerPlugin } from '../../../handlers/plugin.ts';
import type { Event } from '../../../model/events.ts';
import type { HistoryEntry } from '../../../model/history.ts';
import type { OperationSpec } from '../../../model/operation.ts';
import type { Observed } from '../../../model/outcome.ts';
import { expiryLifetime, resolvePolicy } from '../../../model/policy.ts';
import type { FixtureWithPolicy } from '../../../model/state.ts';
import type { Snapshot } from '../../../model/world.ts';
import { onInterrupt } from '../../runtime/interrupt.ts';
import { DatabaseFiles } from '../databases.ts';
import { warm } from './concurrent-mode.ts';
import {
  isProblem,
  type OperationTarget,
  operationError,
  operationTask,
  rebase,
  recordOperation,
  summariseEvent,
} from './operation.ts';
import { readSnapshot, releaseEverywhere } from './run-concurrent.ts';
import { createScopeTable } from './scope-table.ts';
import { sharedClockMs } from './shared-clock.ts';
import {
  createSoakTraffic,
  learn,
  nextOperation,
  principalOf,
  settleWorld,
} from './soak-traffic.ts';
import { createWorkerPool, disposeAfterWorkers } from './worker-pool.ts';

/** How much traffic to send, and how. */
export interface SoakTrafficOptions {
  readonly clients: number;
  readonly durationMs: number;
  readonly seed: number;
  readonly operationsMax: number;
  readonly worldEvents: boolean;
  readonly callTimeoutMs: number;
}

/** What the traffic left: the history (times from its start), each entry's real outcome, the database. */
export interface SoakExecution {
  /** Entry `i` has id `i`. */
  readonly history: readonly HistoryEntry[];
  /** By id: the outcome the call really had (the history hides a lost response's); undefined for world events. */
  readonly real: readonly (Observed | undefined)[];
  /** By id: when a lost response's call really returned, on the history's clock. */
  readonly returnedAt: readonly (number | undefined)[];
  readonly snapshot: Snapshot;
  /** Time spent issuing operations, drain included, in ms. */
  readonly issueMs: number;
}

/** Sends the traffic; throws `E_CALL_TIMEOUT` or the plugin's error when an operation fails. */
export async function runSoakTraffic(
  plugin: HandlerPlugin,
  handlerPath: string,
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
  o: SoakTrafficOptions,
): Promise<SoakExecution> {
  const files = new DatabaseFiles(plugin, fixture);
  const pool = createWorkerPool(o.clients);
  const untrack = onInterrupt(() => disposeAfterWorkers(pool, () => files.dispose()));
  const dbPath = files.fresh();
  const target: OperationTarget = {
    handlerPath,
    fixture,
    dbPath,
    scopes: createScopeTable(fixture.principals, spec.scope),
    callTimeoutMs: o.callTimeoutMs,
  };
  // A declared expiry brings clock advances among the world events, as generated runs have.
  const lifetime = expiryLifetime(resolvePolicy(fixture.policy));
  const traffic = createSoakTraffic(fixture, spec, o.clients, o.seed, {
    worldEvents: o.worldEvents,
    ...(lifetime !== undefined && plugin.advanceClock ? { clockLifetime: lifetime } : {}),
  });
  const entries: Omit<HistoryEntry, 'id'>[] = [];
  const real: (Observed | undefined)[] = [];
  const returned: (number | undefined)[] = [];
  let issued = 0;

  const issue = async (client: number, event: Event): Promise<void> => {
    const n = ++issued;
    const task = operationTask(target, event);
    const reply = task ? await pool.run(task, o.callTimeoutMs) : undefined;
    if (reply && isProblem(reply))
      throw operationError(`soak operation ${n}, ${summariseEvent(event)}`, plugin.name, reply);
    const r = recordOperation(event, reply, client);
    entries.push(r.entry);
    real.push(r.observed);
    returned.push(r.returnedAt);
    learn(traffic, client, event, r.observed);
  };

  let started = 0;
  let issueMs = 0;
  let snapshot: Snapshot;
  try {
    await warm(pool, handlerPath);
    started = sharedClockMs();
    const deadline = started + o.durationMs;
    await everyClient(o.clients, async (c, stopped) => {
      while (!stopped() && sharedClockMs() < deadline && issued < o.operationsMax)
        await issue(c, nextOperation(traffic, c));
    });
    for (const event of settleWorld(traffic)) await issue(-1, event);
    await everyClient(o.clients, async (c, stopped) => {
      for (const request of traffic.pending[c]?.splice(0) ?? []) {
        if (stopped()) return;
        const client = principalOf(traffic, c);
        await issue(c, { kind: 'call', client, request, delivery: 'delivered', intent: 'retry' });
      }
    });
    issueMs = sharedClockMs() - started;
    await releaseEverywhere(pool, dbPath);
    snapshot = readSnapshot(plugin, dbPath);
  } finally {
    files.remove(dbPath);
    try {
      await pool.destroy();
    } finally {
      files.dispose();
      untrack();
    }
  }
  return {
    history: entries.map((e, id) => ({ ...rebase(e, started), id })),
    real,
    returnedAt: returned.map((t) => (t === undefined ? undefined : t - started)),
    snapshot,
    issueMs,
  };
}

/** Runs `body` for every client at once; the first failure stops the others and is rethrown. */
async function everyClient(
  clients: number,
  body: (client: number, stopped: () => boolean) => Promise<void>,
): Promise<void> {
  let stop = false;
  const stopped = () => stop;
  const results = await Promise.allSettled(
    Array.from({ length: clients }, async (_, c) => {
      try {
        await body(c, stopped);
      } catch (thrown) {
        stop = true;
        throw thrown;
      }
    }),
  );
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
