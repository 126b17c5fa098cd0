/**
 * Loading and dispatching by engine: a PostgreSQL plugin validates like a SQLite one, an unknown
 * engine is refused in one line, the SQLite-only loader (worker threads) refuses a PostgreSQL
 * plugin, and scheduled mode on PostgreSQL is PostgreSQL's own scheduler (it draws schedules).
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../api/options.ts';
import { engineOf } from '../../handlers/engine.ts';
import pgReference from '../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import reference from '../../handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import { bundledHandlerPath } from '../../handlers/registry.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { createRunner } from '../create-runner.ts';
import { stopEmbeddedPostgres } from '../postgres/server.ts';
import { loadAnyPlugin, loadPlugin, validatePlugin } from './load-plugin.ts';

describe('plugins of either engine', () => {
  it('validates a PostgreSQL plugin and tells the engines apart', () => {
    expect(validatePlugin(pgReference, 'pg.ts')).toBe(pgReference);
    expect(engineOf(pgReference)).toBe('postgres');
    expect(engineOf(reference)).toBe('sqlite');
  });

  it('refuses an engine it does not know, and replayable on PostgreSQL', () => {
    expect(() => validatePlugin({ ...reference, engine: 'mysql' }, 'x.ts')).toThrow(
      /^handler "reference" \(x\.ts\): "engine" must be "sqlite" or "postgres" when given, not "mysql"$/,
    );
    expect(() => validatePlugin({ ...pgReference, replayable: true }, 'x.ts')).toThrow(
      /"replayable" is for SQLite plugins/,
    );
  });

  it('loads the bundled PostgreSQL references by name, and the SQLite-only loader refuses them', async () => {
    for (const name of [
      'pg-reference',
      'create-once-pg-reference',
      'adjust-balance-pg-reference',
    ]) {
      const path = bundledHandlerPath(name) as string;
      expect(engineOf(await loadAnyPlugin(path))).toBe('postgres');
      await expect(loadPlugin(path)).rejects.toThrow(/is a PostgreSQL plugin/);
    }
    expect(bundledHandlerPath('pg-reference', 'create-once')).toBe(
      bundledHandlerPath('create-once-pg-reference'),
    );
  });

  it("sends scheduled mode on PostgreSQL to PostgreSQL's scheduler, which draws schedules", async () => {
    const options = {
      ...resolveOptions({ handler: 'pg-reference' }, {}),
      mode: 'scheduled' as const,
      spec: setIntervalSpec,
    };
    const runner = await createRunner(pgReference, 'pg.ts', options);
    try {
      expect(runner.caseArbitrary).toBeTypeOf('function');
    } finally {
      await runner.close();
      await stopEmbeddedPostgres();
    }
  }, 60_000);
});
