/**
 * The long-history check as a function: send soak traffic (`execute/sqlite/concurrent/soak-traffic-run.ts`),
 * then one linearizability check of the whole history, the final snapshot against the
 * linearisation found, and the invariants. Counts and verdict come back as data.
 */

import { checkConcurrentRun } from '../check/check-concurrent-run.ts';
import { countOperations, soakRecord, trimPrefix } from '../check/soak-record.ts';
import { ReceiptcheckError } from '../errors.ts';
import { contain } from '../execute/runtime/contain/contain.ts';
import { takeOutput } from '../execute/runtime/contain/handler-output.ts';
import {
  runSoakTraffic,
  type SoakExecution,
} from '../execute/sqlite/concurrent/soak-traffic-run.ts';
import { requireSqlite } from '../handlers/engine.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { SoakOptions } from '../types/options.ts';
import type { SoakResult } from '../types/results.ts';
import { resolveOptions } from './options.ts';
import { type PreparedPlugin, preparePlugin } from './prepare-run.ts';

/** The public `soak`, which `on-first-call.ts` documents and loads this for. */
export async function soak(options: SoakOptions = {}): Promise<SoakResult> {
  const o = resolveSoakOptions(options);
  // What plugin code prints is kept, and what it lets escape charged to its calls, as in `prepareRun`.
  const release = contain();
  let prepared: PreparedPlugin;
  let run: SoakExecution;
  try {
    // The model holds a library to its declared policy, as in `checkHandler`.
    prepared = await preparePlugin(o.handler, o.fixture, undefined, o.operation);
    takeOutput();
    run = await runSoakTraffic(
      requireSqlite(prepared.plugin, 'soak'),
      prepared.handlerPath,
      prepared.fixture,
      prepared.spec,
      o,
    );
  } finally {
    release();
  }
  const { plugin, fixture, spec } = prepared;
  const handlerOutput = takeOutput();
  const checkStarted = performance.now();
  const { history, real, returnedAt, snapshot, issueMs } = run;
  const record = { ...soakRecord(fixture, spec, history, real, snapshot), returnedAt };
  const { verdict } = checkConcurrentRun(record, { timeLimitMs: o.checkTimeLimitMs });
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
    fixture,
    spec,
    counts: countOperations(history, real),
    issueMs,
    checkMs,
    operationsPerSecond: issueMs > 0 ? (history.length * 1000) / issueMs : 0,
    failures,
    ...(failures.length > 0 && handlerOutput ? { handlerOutput } : {}),
    ...(o.keepHistory ? { history } : {}),
  };
}

type ResolvedSoakOptions = Required<Omit<SoakOptions, 'keepHistory' | 'operation'>> & {
  keepHistory: boolean;
  operation: string | undefined;
};

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
    operation: options.operation,
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
