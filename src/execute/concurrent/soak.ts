/**
 * The long-history mode: `clients` clients issue calls and world events back to back against one
 * database for `durationMs`, each on its own worker and connection; then the clients settle the
 * world (scopes back, store working) and retry every request whose response they lost, so the
 * history says where those went; then one linearizability check of the whole history, the final
 * snapshot against the linearisation found, and the invariants. Counts and verdict come back as
 * data. Unlike concurrent mode nothing lines the calls up: overlap comes from volume.
 */

import { resolveOptions } from '../../api/options.ts';
import { checkConcurrentRun } from '../../check/check-concurrent-run.ts';
import { ReceiptcheckError } from '../../errors.ts';
import type { Event } from '../../model/events.ts';
import type { HistoryEntry } from '../../model/history.ts';
import { resolvePolicy } from '../../model/policy.ts';
import type { FixtureWithPolicy } from '../../model/state.ts';
import { DEFAULT_FIXTURE, type Fixture } from '../../model/world.ts';
import type { SoakResult } from '../../types/results.ts';
import type { Observation } from '../../types/trace.ts';
import { DatabaseFiles } from '../databases.ts';
import { loadPlugin, resolveHandlerPath } from '../load-plugin.ts';
import { warm } from './concurrent-mode.ts';
import { onInterrupt } from './interrupt-cleanup.ts';
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
import { countOperations, soakRecord, trimPrefix } from './soak-record.ts';
import {
  createSoakTraffic,
  learn,
  nextOperation,
  principalOf,
  settleWorld,
} from './soak-traffic.ts';
import { createWorkerPool } from './worker-pool.ts';

/** What a soak run may be given; every field has a default. */
export interface SoakOptions {
  /** Bundled handler name or plugin path. Default `reference`. */
  readonly handler?: string;
  /** Concurrent clients, each with its own worker and connection (1–64). Default 8. */
  readonly clients?: number;
  /** How long clients keep issuing operations, in ms. Default 2000. */
  readonly durationMs?: number;
  /** Seed of the clients' choices (timing is not seeded, so runs differ). Default 42. */
  readonly seed?: number;
  /** Most operations issued in all, whatever the duration. Default 1,000,000. */
  readonly operationsMax?: number;
  /** Moves, scope changes and receipt-store failures among the calls. Default true. */
  readonly worldEvents?: boolean;
  /** Per-operation limit; a longer one stops the soak with `E_CALL_TIMEOUT`. Default 5000. */
  readonly callTimeoutMs?: number;
  /** Time budget of the linearizability check, in ms. Default 60,000. */
  readonly checkTimeLimitMs?: number;
  readonly fixture?: Fixture;
  /** Return the whole history (large). Default false. */
  readonly keepHistory?: boolean;
}

/** Runs a soak; throws a `ReceiptcheckError` for bad options, a bad plugin or a hung call. */
export async function soak(options: SoakOptions = {}): Promise<SoakResult> {
  const o = resolveSoakOptions(options);
  const handlerPath = resolveHandlerPath(o.handler);
  const plugin = await loadPlugin(handlerPath);
  // The model holds a library to its declared policy, as in `checkHandler`.
  const fixture: FixtureWithPolicy =
    plugin.policy === undefined
      ? o.fixture
      : { ...o.fixture, policy: resolvePolicy(plugin.policy, plugin.name) };
  const files = new DatabaseFiles(plugin, fixture);
  const untrack = onInterrupt(() => files.dispose());
  const pool = createWorkerPool(o.clients);
  const dbPath = files.fresh();
  const target: OperationTarget = {
    handlerPath,
    fixture,
    dbPath,
    scopes: createScopeTable(o.fixture.principals),
    callTimeoutMs: o.callTimeoutMs,
  };
  const traffic = createSoakTraffic(fixture, o.clients, o.seed, { worldEvents: o.worldEvents });
  const entries: Omit<HistoryEntry, 'id'>[] = [];
  const real: (Observation['observed'] | undefined)[] = [];
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
  let snapshot: ReturnType<typeof readSnapshot> | undefined;
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

  const checkStarted = performance.now();
  const history = entries.map((e, id) => ({ ...rebase(e, started), id }));
  const returnedAt = returned.map((t) => (t === undefined ? undefined : t - started));
  const record = { ...soakRecord(fixture, history, real, snapshot), returnedAt };
  const { verdict } = checkConcurrentRun(record, {
    timeLimitMs: o.checkTimeLimitMs,
  });
  const checkMs = performance.now() - checkStarted;
  const failures = verdict.verdict === 'failed' ? verdict.failures.map(trimPrefix) : [];
  const unknown =
    failures.length > 0 &&
    failures.every((f) => f.kind === 'linearizability' && f.verdict === 'unknown');
  return {
    verdict: failures.length === 0 ? 'passed' : unknown ? 'unknown' : 'failed',
    handler: o.handler,
    handlerName: plugin.name,
    clients: o.clients,
    seed: o.seed,
    counts: countOperations(history, real),
    issueMs,
    checkMs,
    operationsPerSecond: issueMs > 0 ? (history.length * 1000) / issueMs : 0,
    failures,
    ...(o.keepHistory ? { history } : {}),
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

type ResolvedSoakOptions = Required<Omit<SoakOptions, 'keepHistory'>> & { keepHistory: boolean };

function resolveSoakOptions(options: SoakOptions): ResolvedSoakOptions {
  // Shared checks and messages: seed, timeouts and client count follow the same rules as `run`.
  const base = resolveOptions({
    handler: options.handler ?? 'reference',
    seed: options.seed ?? 42,
    workers: options.clients ?? 8,
    callTimeoutMs: options.callTimeoutMs ?? 5_000,
  });
  const resolved: ResolvedSoakOptions = {
    handler: base.handler,
    clients: base.workers,
    durationMs: options.durationMs ?? 2_000,
    seed: base.seed,
    operationsMax: options.operationsMax ?? 1_000_000,
    worldEvents: options.worldEvents ?? true,
    callTimeoutMs: base.callTimeoutMs,
    checkTimeLimitMs: options.checkTimeLimitMs ?? 60_000,
    fixture: options.fixture ?? DEFAULT_FIXTURE,
    keepHistory: options.keepHistory ?? false,
  };
  for (const name of ['durationMs', 'operationsMax', 'checkTimeLimitMs'] as const) {
    const value = resolved[name];
    if (!(Number.isFinite(value) && value > 0))
      throw new ReceiptcheckError(
        'E_BAD_OPTION',
        `soak: ${name} must be a positive number (got ${value})`,
      );
  }
  return resolved;
}
