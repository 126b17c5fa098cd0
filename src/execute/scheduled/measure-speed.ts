/**
 * How fast scheduled mode runs compared with the raw handler on the same step mix. The same
 * generated cases (steps and schedules, crashes and faults included) run
 * (a) by the scheduled runner: execution and the model check, as `checkHandler` runs them;
 * (b) by a raw in-process loop calling the plugin straight on one warm file connection (WAL, as
 *     the modes use), reset to the template between cases outside the timed part: no workers,
 *     no model, no check, no trace;
 * (c) the same raw loop on a fresh in-memory copy per case (no WAL at all).
 * Batches alternate between the three, so load on the machine hits them alike.
 *
 *   node --import tsx src/execute/scheduled/measure-speed.ts [handler] [cases] [seed]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { Connection, HandlerPlugin } from '../../handlers/plugin.ts';
import type { Step } from '../../model/events.ts';
import { flatten } from '../../model/flatten.ts';
import { DEFAULT_FIXTURE, type Principal, withWriteScope } from '../../model/world.ts';
import { applyCall, applyWorldEvent } from '../apply-event.ts';
import { DatabaseFiles } from '../databases.ts';
import { loadPlugin, resolveHandlerPath } from '../load-plugin.ts';
import { scheduledRunner } from './scheduled-mode.ts';
import { SharedDatabase } from './shared-database.ts';

/** Events per second of each loop, and scheduled mode's share of the raw speeds. */
export interface SpeedReport {
  readonly handler: string;
  readonly cases: number;
  readonly events: number;
  readonly scheduledPerSec: number;
  readonly rawWarmFilePerSec: number;
  readonly rawMemoryPerSec: number;
  /** scheduled / raw on a warm file connection: the like-for-like figure (same journal, same I/O). */
  readonly ratio: number;
  /** scheduled / raw in memory: against the fastest the handler can go at all. */
  readonly ratioToMemory: number;
}

/** Measures `cases` generated cases (seed `seed`) of `handler`, in batches of 25. */
export async function measureScheduledSpeed(
  handler = 'reference',
  cases = 300,
  seed = 1,
): Promise<SpeedReport> {
  const path = resolveHandlerPath(handler);
  const plugin = await loadPlugin(path);
  const runner = await scheduledRunner(plugin, path, {
    fixture: DEFAULT_FIXTURE,
    callTimeoutMs: 10_000,
  });
  await runner.ready();
  const sequence = { stepsMax: 20, races: true, recreate: typeof plugin.recreate === 'function' };
  const sample = fc.sample(runner.caseArbitrary(sequence), { numRuns: cases, seed });
  const template = new DatabaseFiles(plugin, DEFAULT_FIXTURE);
  const warm = new SharedDatabase(template.templatePath);
  const image = readFileSync(template.templatePath);
  template.dispose();
  image[18] = 1; // a WAL image cannot be opened in memory: mark it rollback-journal
  image[19] = 1;
  const ms = { scheduled: 0, warm: 0, memory: 0 };
  try {
    for (let from = 0; from < sample.length; from += 25) {
      const batch = sample.slice(from, from + 25);
      let t = performance.now();
      for (const c of batch) await runner.execute(c.steps, c.replay);
      ms.scheduled += performance.now() - t;
      for (const c of batch) {
        warm.reset();
        t = performance.now();
        await rawLoop(plugin, warm.db, c.steps);
        ms.warm += performance.now() - t;
      }
      t = performance.now();
      for (const c of batch) {
        const db = new Database(image);
        await rawLoop(plugin, db, c.steps);
        db.close();
      }
      ms.memory += performance.now() - t;
    }
  } finally {
    warm.dispose();
    await runner.close();
  }
  const events = sample.reduce((n, c) => n + flatten(c.steps).length, 0);
  const perSec = (t: number) => Math.round((events / t) * 1000);
  return {
    handler,
    cases,
    events,
    scheduledPerSec: perSec(ms.scheduled),
    rawWarmFilePerSec: perSec(ms.warm),
    rawMemoryPerSec: perSec(ms.memory),
    ratio: ms.warm / ms.scheduled,
    ratioToMemory: ms.memory / ms.scheduled,
  };
}

/** The handler's calls and world events in lane order, straight on one connection. */
async function rawLoop(
  plugin: HandlerPlugin,
  db: Connection,
  steps: readonly Step[],
): Promise<void> {
  let principals: readonly Principal[] = DEFAULT_FIXTURE.principals;
  for (const { event } of flatten(steps)) {
    if (event.kind === 'call')
      await applyCall(plugin, db, principals[event.client] as Principal, event);
    else if (event.kind === 'revoke' || event.kind === 'restore')
      principals = withWriteScope(principals, event.client, event.kind === 'restore');
    else {
      if (db.inTransaction) db.exec('ROLLBACK');
      applyWorldEvent(plugin, db, event);
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [handler, cases, seed] = process.argv.slice(2);
  const r = await measureScheduledSpeed(
    handler,
    cases ? Number(cases) : undefined,
    seed ? Number(seed) : undefined,
  );
  console.log(JSON.stringify(r, null, 2));
}
