/**
 * Replays a scheduled case: the same steps under the same schedule, `times` times, on one runner,
 * reporting every verdict and trace hash. "Fails the same way 100 times out of 100" means one
 * verdict, `failed`, and one hash, the one the counterexample recorded. For `receiptcheck replay
 * --times N` and for tests; a plain `replay` is `runCase` (one run through `createRunner`).
 */

import type { Step } from '../../model/events.ts';
import type { Fixture } from '../../model/world.ts';
import type { RunVerdict } from '../../types/verdict.ts';
import { loadPlugin, resolveHandlerPath } from '../load-plugin.ts';
import { type ScheduledDetail, scheduleOfCase } from './scheduled-detail.ts';
import { type ScheduledModeOptions, scheduledRunner } from './scheduled-mode.ts';

/** What to replay: a handler and a case as a case file holds it (`extra` carries the schedule). */
export interface ScheduledReplay {
  /** A bundled handler name or a path. */
  readonly handler: string;
  readonly fixture: Fixture;
  readonly steps: readonly Step[];
  /** The case file's extra fields: `detail.schedule` (a saved counterexample) or `schedule`. */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** The outcome of `times` replays. */
export interface ReplayReport {
  readonly runs: number;
  readonly failed: number;
  /** Distinct trace hashes seen, with how often each came up, most frequent first. */
  readonly hashes: readonly { readonly hash: string; readonly count: number }[];
  /** The hash the case recorded (`extra.detail.traceHash`), if it did. */
  readonly expectedHash?: string;
  /** Every run failed, all with one hash, and that hash is the recorded one (when recorded). */
  readonly sameEveryTime: boolean;
  /** The verdict of the first run, for reports. */
  readonly first: RunVerdict;
  readonly detail: ScheduledDetail;
}

/** Replays `c` `times` times (default 100). Throws `E_BAD_COUNTEREXAMPLE` on a malformed schedule. */
export async function replayScheduled(
  c: ScheduledReplay,
  times = 100,
  options: Partial<Omit<ScheduledModeOptions, 'fixture'>> = {},
): Promise<ReplayReport> {
  const schedule = scheduleOfCase(c.extra) ?? [];
  const expectedHash = (c.extra.detail as { traceHash?: unknown } | undefined)?.traceHash;
  const path = resolveHandlerPath(c.handler);
  const runner = await scheduledRunner(await loadPlugin(path), path, {
    callTimeoutMs: 5_000,
    ...options,
    fixture: c.fixture,
  });
  try {
    const counts = new Map<string, number>();
    let failed = 0;
    let first: { verdict: RunVerdict; detail: ScheduledDetail } | undefined;
    for (let i = 0; i < times; i++) {
      const r = await runner.executeScheduled(c.steps, schedule);
      const detail = r.detail as ScheduledDetail;
      first ??= { verdict: r.verdict, detail };
      if (r.verdict.verdict === 'failed') failed++;
      counts.set(detail.traceHash, (counts.get(detail.traceHash) ?? 0) + 1);
    }
    if (!first) throw new RangeError('replayScheduled needs times ≥ 1');
    const hashes = [...counts]
      .map(([hash, count]) => ({ hash, count }))
      .sort((a, b) => b.count - a.count);
    const recorded = typeof expectedHash === 'string' ? expectedHash : undefined;
    return {
      runs: times,
      failed,
      hashes,
      ...(recorded ? { expectedHash: recorded } : {}),
      sameEveryTime:
        failed === times && hashes.length === 1 && (!recorded || hashes[0]?.hash === recorded),
      first: first.verdict,
      detail: first.detail,
    };
  } finally {
    await runner.close();
  }
}
