/**
 * `receiptcheck replay` never claims a fix it did not see. A race between two first attempts
 * under one key (check-then-act's bug), saved as a concurrent case, is reproduced by the schedule
 * search (exit 1); against the reference it is "not reproduced in N schedules" (exit 3), never
 * "held"; the same steps as a scheduled case with its schedule replay exactly, so there a pass is
 * "held" (exit 0). A concurrent counterexample saved through `saveCounterexample` carries the
 * schedule that reproduces it, and replays from it the same way three times in a row.
 *
 * No assertion rests on thread timing: the cases are built from steps, not found on threads; the
 * schedule search runs before the one real-thread run; the reference holds on every timing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { saveCounterexample } from '../api/counterexample-store.ts';
import type { Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { formatCaseFile } from '../report/case-file.ts';
import { decodeJson } from '../report/encode.ts';
import type { Mode } from '../types/mode.ts';
import type { Counterexample } from '../types/results.ts';
import { EXIT } from './exit-codes.ts';
import { runCli as cli } from './run-cli.ts';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, held to shape by the assertions
type Loose = any;

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-replay-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** alice sends r0 twice at once: both miss the receipt before either writes, under check-then-act. */
const call = (intent: 'new' | 'retry') =>
  ({
    kind: 'call',
    client: 0,
    request: { requestId: 'r0', automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
    delivery: 'delivered',
    intent,
  }) as const;
const RACE: Step[] = [{ kind: 'concurrent', events: [call('new'), call('retry')] }];
/** Lane 1 reads, lane 2 runs to its commit, lane 1 writes: the check-then-act interleaving. */
const RACING_SCHEDULE = [{ choices: [0, 0, 1] }];

/** Writes a case file of `RACE` and returns its path. */
function caseFile(name: string, mode: Mode, extra: Record<string, unknown> = {}): string {
  const path = join(tmp, `${name}.json`);
  writeFileSync(
    path,
    formatCaseFile({
      name,
      description: 'two first attempts under one key at once',
      handler: 'check-then-act',
      mode,
      fixture: DEFAULT_FIXTURE,
      steps: RACE,
      extra,
    }),
  );
  return path;
}

async function replay(...argv: string[]): Promise<{ code: number; json: Loose; err: string }> {
  const r = await cli('replay', ...argv, '--json');
  return { code: r.code, json: decodeJson(r.out) as Loose, err: r.err };
}

describe('replay of a case found on real threads', () => {
  const concurrent = caseFile('race-concurrent', 'concurrent');

  it('is reproduced by the schedule search against check-then-act (exit 1)', async () => {
    const r = await replay(concurrent);
    expect(r.code).toBe(EXIT.failed);
    expect(r.json).toMatchObject({
      verdict: 'reproduced',
      route: 'schedule search',
      mode: 'scheduled',
      stillFails: true,
      schedulesMax: 200,
    });
    expect(r.json.schedules).toBeGreaterThan(0);
    expect(r.json.schedules).toBeLessThanOrEqual(200);
    expect(r.json.failures.length).toBeGreaterThan(0);
    expect(r.json.text).toContain(`reproduced in scheduled mode: schedule ${r.json.schedules} of`);
    expect(r.json.text).toContain('Interleaving');
  });

  it('is "not reproduced in N schedules" against the reference (exit 3), never held', async () => {
    const r = await replay(concurrent, '--handler', 'reference');
    expect(r.code).toBe(EXIT.notReproduced);
    expect(EXIT.notReproduced).toBe(3);
    expect(r.json).toMatchObject({
      verdict: 'not reproduced',
      route: 'real threads',
      schedules: 200,
      schedulesMax: 200,
      realThreads: true,
      stillFails: false,
    });
    expect(r.json.text).toContain('not reproduced in 200 schedules nor on real threads');
    expect(r.json.text).toContain('not proof of a fix');
    expect(r.json.text).not.toContain('held');
  });

  it('reports the bound it was given (--schedules)', async () => {
    const r = await replay(concurrent, '--handler', 'reference', '--schedules', '7');
    expect(r.code).toBe(EXIT.notReproduced);
    expect(r.json).toMatchObject({ schedules: 7, schedulesMax: 7 });
    const bad = await cli('replay', concurrent, '--schedules', '0');
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain('E_BAD_OPTION: schedules must be an integer from 1');
  });

  it('--mode scheduled searches too: reproduced, and not held against the reference', async () => {
    const found = await replay(concurrent, '--mode', 'scheduled');
    expect(found.code).toBe(EXIT.failed);
    expect(found.json).toMatchObject({ verdict: 'reproduced', route: 'schedule search' });
    const fixed = await replay(concurrent, '--mode', 'scheduled', '--handler', 'reference');
    expect(fixed.code).toBe(EXIT.notReproduced);
    expect(fixed.json).toMatchObject({
      verdict: 'not reproduced',
      route: 'schedule search',
      schedules: 200,
      realThreads: false,
    });
  });

  it('--mode sequential tries lane order only, so a pass there is not held either', async () => {
    const r = await replay(concurrent, '--mode', 'sequential');
    expect(r.code).toBe(EXIT.notReproduced);
    expect(r.json).toMatchObject({ verdict: 'not reproduced', route: 'lane order' });
    expect(r.json.text).toContain('replay without --mode to search schedules');
  });
});

describe('replay of a scheduled case with its schedule: exact', () => {
  const scheduled = caseFile('race-scheduled', 'scheduled', { schedule: RACING_SCHEDULE });

  it('reproduced against check-then-act (exit 1), on its own schedule, no search', async () => {
    const r = await replay(scheduled);
    expect(r.code).toBe(EXIT.failed);
    expect(r.json).toMatchObject({ verdict: 'reproduced', route: 'exact', schedules: 0 });
  });

  it('on real threads (--mode concurrent) its own schedule is tried first, deterministically', async () => {
    const r = await replay(scheduled, '--mode', 'concurrent');
    expect(r.code).toBe(EXIT.failed);
    expect(r.json).toMatchObject({ verdict: 'reproduced', route: 'saved schedule', schedules: 1 });
  });

  it('held against the reference (exit 0): a pass of an exact replay means fixed', async () => {
    const r = await replay(scheduled, '--handler', 'reference');
    expect(r.code).toBe(EXIT.ok);
    expect(r.json).toMatchObject({ verdict: 'held', route: 'exact', stillFails: false });
    expect(r.json.text).toContain('held: the case no longer fails (1 step replayed exactly)');
  });
});

describe('a saved concurrent counterexample carries its scheduled reproduction', () => {
  const cx = (handler: string): Counterexample => ({
    spec: setIntervalSpec,
    handler,
    handlerName: handler,
    mode: 'concurrent',
    seed: 42,
    path: '0',
    fixture: DEFAULT_FIXTURE,
    steps: RACE,
    failures: [],
    runsToFailure: 1,
    shrinks: 0,
  });

  it('saves the schedule found and replays from it, reproduced 3 times in a row', async () => {
    const saved = await saveCounterexample(cx('check-then-act'), join(tmp, 'saved'), tmp);
    expect(saved.reproduction).toMatchObject({ found: true });
    const file = join(tmp, saved.path);
    const stored = decodeJson(readFileSync(file, 'utf8')) as Loose;
    expect(stored.mode).toBe('concurrent');
    expect(stored.scheduled.schedule.length).toBe(1);
    const hashes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = await replay(file);
      expect(r.code).toBe(EXIT.failed);
      expect(r.json).toMatchObject({
        verdict: 'reproduced',
        route: 'saved schedule',
        schedules: 1,
      });
      expect(r.json.text).toContain('fails again, deterministically');
      hashes.add(r.json.traceHash);
    }
    expect([...hashes]).toEqual([stored.scheduled.traceHash]);
    // Fixed: the saved schedule passes, so the search goes on, and counts it among the schedules.
    const fixed = await replay(file, '--handler', 'reference', '--schedules', '20');
    expect(fixed.code).toBe(EXIT.notReproduced);
    expect(fixed.json).toMatchObject({
      verdict: 'not reproduced',
      schedules: 21,
      schedulesMax: 20,
    });
  });

  it('saves none when no schedule fails (the reference), and says so', async () => {
    const saved = await saveCounterexample(cx('reference'), join(tmp, 'none'), tmp, {
      schedulesMax: 20,
    });
    expect(saved.reproduction).toEqual({ found: false, schedules: 20 });
    const stored = decodeJson(readFileSync(join(tmp, saved.path), 'utf8')) as Loose;
    expect(stored.scheduled).toBeUndefined();
  });
});
