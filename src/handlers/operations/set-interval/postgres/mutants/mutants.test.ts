/**
 * The PostgreSQL mutants in scheduled mode on a real server: with one fixed seed, every mutant is
 * killed by the race its bug opens (each counterexample shows that bug, not another), the
 * references hold for the same number of runs, and every counterexample replays with the same
 * trace; one of them 100 times out of 100. The steps the mutants are built from rebuild the
 * reference exactly (same trace for the same schedule).
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../../../../../api/check-handler.ts';
import { judgedRunner } from '../../../../../api/judged-runner.ts';
import { postgresScheduledRunner } from '../../../../../execute/postgres/scheduled/scheduled-mode.ts';
import { stopEmbeddedPostgres } from '../../../../../execute/postgres/server.ts';
import type { CallEvent, Step } from '../../../../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../../../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../../../../model/world.ts';
import type { ScheduledDetail } from '../../../../../types/execution.ts';
import type { CheckResult } from '../../../../../types/results.ts';
import type { Schedule } from '../../../../../types/schedule.ts';
import type { PostgresHandlerPlugin } from '../../../../postgres/plugin.ts';
import { PG_MUTANT_CATALOGUE, PG_REFERENCES } from '../pg-mutant-plugins.ts';
import reference from '../set-interval-pg-reference.ts';

/**
 * Every mutant dies within this many runs at seed 1 (the slowest, pg-unlock-before-commit, at run
 * 54), and the references hold for as many: a few past the slowest kill, since only the references
 * run them all.
 */
const RUNS = 60;
const SEED = 1;
const REPLAYS = 100;

/** What each mutant's counterexample must show: its own bug. */
const SHOWS: Record<string, RegExp> = {
  'pg-check-then-act':
    /"expected":\{"kind":"ok"[^}]*\},"replayed":true\},"actual":\{"kind":"refused","reason":"conflict"/,
  'pg-on-conflict-no-reread':
    /"expected":\{"kind":"keyReuse"\},"actual":\{"kind":"ok"[^}]*\},"replayed":true/,
  'pg-serializable-no-retry': /could not serialize access/,
  'pg-unlock-before-commit': /"replayed":true\},"actual":\{"kind":"refused","reason":"conflict"/,
  'pg-lock-order-inversion': /deadlock detected/,
};

afterAll(async () => {
  await stopEmbeddedPostgres();
  expect(
    readdirSync(tmpdir()).filter((n) => n.startsWith(`receiptcheck-pg-${process.pid}-`)),
  ).toEqual([]);
}, 60_000);

/** A bundled PostgreSQL handler checked in scheduled mode, through the one pipeline every engine uses. */
const check = (handler: string) =>
  checkHandler({ handler, mode: 'scheduled', runs: RUNS, seed: SEED });

/** Runs a saved counterexample's steps under its schedule `times` times; the trace hashes seen. */
async function replayHashes(
  plugin: PostgresHandlerPlugin,
  steps: readonly Step[],
  detail: ScheduledDetail,
  times: number,
): Promise<Map<string, number>> {
  const raw = await postgresScheduledRunner(plugin, {
    spec: setIntervalSpec,
    fixture: DEFAULT_FIXTURE,
    callTimeoutMs: 20_000,
  });
  const runner = judgedRunner(raw, DEFAULT_FIXTURE, setIntervalSpec);
  const seen = new Map<string, number>();
  try {
    for (let i = 0; i < times; i++) {
      const run = await runner.execute(steps, { detail });
      expect(run.verdict.verdict).toBe('failed');
      const hash = (run.detail as ScheduledDetail).traceHash;
      seen.set(hash, (seen.get(hash) ?? 0) + 1);
    }
  } finally {
    await runner.close();
  }
  return seen;
}

describe('PostgreSQL mutants in scheduled mode', () => {
  it('the reference, built from the steps, holds a race on one key in which a lane blocks', async () => {
    const call = (requestId: string, minutes: number): CallEvent => ({
      kind: 'call',
      client: 0,
      delivery: 'delivered',
      request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: minutes },
    });
    const steps: Step[] = [{ kind: 'concurrent', events: [call('a', 30), call('a', 45)] }];
    const schedule: Schedule = [{ choices: [0, 0, 1, 0, 1, 1] }];
    {
      const raw = await postgresScheduledRunner(reference, {
        spec: setIntervalSpec,
        fixture: DEFAULT_FIXTURE,
        callTimeoutMs: 20_000,
      });
      try {
        const run = await judgedRunner(raw, DEFAULT_FIXTURE, setIntervalSpec).execute(steps, {
          schedule,
        });
        expect(run.verdict).toEqual({ verdict: 'ok' });
        const detail = run.detail as ScheduledDetail;
        expect(detail.entries.map((e) => e.result)).toContain('blocked');
      } finally {
        await raw.close();
      }
    }
  }, 120_000);

  for (const plugin of PG_REFERENCES)
    it(`${plugin.name} holds for ${RUNS} runs at seed ${SEED}`, async () => {
      const r = await check(plugin.name);
      expect(r.counterexample?.failures).toBeUndefined();
      expect(r).toMatchObject({ verdict: 'passed', runs: RUNS });
    }, 900_000);

  const killed = new Map<string, CheckResult>();
  for (const m of PG_MUTANT_CATALOGUE)
    it(`${m.name} is killed within ${RUNS} runs at seed ${SEED}, by its own bug, and replays`, async () => {
      const r = await check(m.name);
      expect(r.verdict).toBe('failed');
      const cx = r.counterexample;
      if (!cx) throw new Error('no counterexample');
      killed.set(m.name, r);
      expect(JSON.stringify(cx.failures)).toMatch(SHOWS[m.name] as RegExp);
      const detail = cx.detail as ScheduledDetail;
      expect(detail.mode).toBe('scheduled');
      const replays = await replayHashes(m.plugin, cx.steps, detail, 1);
      expect([...replays.keys()]).toEqual([detail.traceHash]);
    }, 900_000);

  it(`a scheduled counterexample replays ${REPLAYS} times out of ${REPLAYS} with the same trace`, async () => {
    const name = 'pg-unlock-before-commit';
    const entry = PG_MUTANT_CATALOGUE.find((m) => m.name === name);
    const cx = killed.get(name)?.counterexample;
    if (!entry || !cx) throw new Error(`${name} was not killed above`);
    const detail = cx.detail as ScheduledDetail;
    expect(detail.entries.map((e) => e.result)).toContain('blocked');
    const replays = await replayHashes(entry.plugin, cx.steps, detail, REPLAYS);
    expect(Object.fromEntries(replays)).toEqual({ [detail.traceHash]: REPLAYS });
  }, 900_000);
});
