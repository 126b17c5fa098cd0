/**
 * The mutant catalogue against the checker. Every catalogued mutant is killed by `checkHandler`
 * at default settings (default runs and seed) in the mode the catalogue names, with a shrunk
 * counterexample short enough to read, and the reference is not. Mutants that need a racing
 * mode are also shown to survive sequential checking, which is why the catalogue gives them
 * another mode. The catalogue is also held to the plugins
 * and the registry, and the step-split reference the mutants build on to the contract.
 */

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import { judgedRunner } from '../src/api/judged-runner.ts';
import { loadAnyPlugin } from '../src/execute/runtime/load-plugin.ts';
import { sequentialRunner } from '../src/execute/sqlite/sequential-mode.ts';
import { sequenceArbitrary } from '../src/generate/sequence-arbitrary.ts';
import { engineOf } from '../src/handlers/engine.ts';
import { SET_INTERVAL_MUTANTS as MUTANT_CATALOGUE } from '../src/handlers/operations/set-interval/catalogue.ts';
import { PG_MUTANT_CATALOGUE } from '../src/handlers/operations/set-interval/postgres/pg-mutant-plugins.ts';
import { defineStepMutant } from '../src/handlers/operations/set-interval/sqlite/mutants/define-step-mutant.ts';
import { pluginOperation } from '../src/handlers/plugin.ts';
import {
  BUNDLED_HANDLERS,
  bundledHandlerPath,
  CATALOGUES,
  catalogueOf,
} from '../src/handlers/registry.ts';
import { setInterval as setIntervalSpec } from '../src/model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../src/model/world.ts';
import { type KillResult, renderKillMatrix } from '../src/report/kill-matrix.ts';
import type { CheckResult } from '../src/types/results.ts';

/** Longest shrunk counterexample accepted, in steps (issue 2 asks for at most 4). */
const SHRUNK_STEPS_MAX = 4;

const sequential = MUTANT_CATALOGUE.filter((m) => m.mode === 'sequential');
const racing = MUTANT_CATALOGUE.filter((m) => m.mode !== 'sequential');
const results: KillResult[] = [];

function record(name: string, r: CheckResult, kind: 'mutant' | 'reference' = 'mutant'): void {
  results.push({
    name,
    kind,
    mode: r.mode,
    killed: r.verdict === 'failed',
    ms: r.elapsedMs,
    ...(r.counterexample
      ? {
          runsToKill: r.counterexample.runsToFailure,
          shrunkLength: r.counterexample.steps.length,
        }
      : {}),
  });
}

afterAll(() => {
  if (results.length > 0) console.log(`\n${renderKillMatrix(results)}\n`);
});

describe('the mutant catalogue', () => {
  it('lists each mutant once, and the registry holds exactly the catalogues’ handlers', () => {
    const names = MUTANT_CATALOGUE.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect(catalogueOf('set-interval').map((m) => m.name)).toEqual(names);
    const catalogued = CATALOGUES.flatMap((c) => [...c.references, ...c.mutants]);
    const registered = BUNDLED_HANDLERS.filter((h) => h.kind !== 'library');
    expect(registered.map((h) => h.name)).toEqual(catalogued.map((h) => h.name));
    expect(new Set(registered.map((h) => h.name)).size).toBe(registered.length);
  });

  it('lists every bundled mutant in its operation’s catalogue on its engine, once', () => {
    const mutants = BUNDLED_HANDLERS.filter((h) => h.kind === 'mutant');
    for (const h of mutants)
      expect(catalogueOf(h.operation, h.engine).filter((m) => m.name === h.name)).toHaveLength(1);
    expect(catalogueOf('set-interval', 'postgres').map((m) => m.name)).toEqual(
      PG_MUTANT_CATALOGUE.map((m) => m.name),
    );
  });

  it.each(BUNDLED_HANDLERS.filter((h) => h.kind !== 'library'))(
    '$name: its file exports it, for its operation and engine, with its catalogued bug',
    async (h) => {
      const plugin = await loadAnyPlugin(bundledHandlerPath(h.name) ?? '');
      expect(plugin.name).toBe(h.name);
      expect(engineOf(plugin)).toBe(h.engine);
      expect(pluginOperation(plugin).name).toBe(h.operation);
      const entry = catalogueOf(h.operation, h.engine).find((m) => m.name === h.name);
      expect(plugin.description).toBe(entry ? entry.bug : plugin.description);
      expect(entry?.bug ?? '').not.toMatch(/\n/);
    },
  );

  it('has a real-world class for every mutant', () => {
    for (const m of MUTANT_CATALOGUE) expect(m.realWorldClass.length, m.name).toBeGreaterThan(10);
  });
});

describe('kills at default settings', () => {
  it('passes the reference', async () => {
    const r = await checkHandler({ handler: 'reference' });
    record('reference', r, 'reference');
    expect(r.counterexample?.failures ?? []).toEqual([]);
    expect(r.verdict).toBe('passed');
  });

  it.each(sequential)(
    `$name is killed sequentially, shrunk to ≤ ${SHRUNK_STEPS_MAX} steps`,
    async (m) => {
      const r = await checkHandler({ handler: m.name });
      record(m.name, r);
      expect(r.verdict).toBe('failed');
      expect(r.counterexample?.steps.length).toBeLessThanOrEqual(SHRUNK_STEPS_MAX);
    },
  );

  it('version-before-receipt: the retry after a commit is refused as a conflict instead of replayed', async () => {
    const r = await checkHandler({ handler: 'version-before-receipt' });
    expect(r.counterexample?.steps.length).toBeLessThanOrEqual(4);
    expect(r.counterexample?.failures[0]).toMatchObject({
      kind: 'outcome',
      expected: { kind: 'ok', replayed: true },
      actual: { kind: 'refused', reason: 'conflict' },
    });
  });

  it('access-after-receipt: a key used again after losing access gets the receipt’s answer instead of a refusal', async () => {
    const r = await checkHandler({ handler: 'access-after-receipt' });
    expect(r.counterexample?.steps.length).toBeLessThanOrEqual(4);
    expect(r.counterexample?.failures[0]).toMatchObject({
      kind: 'outcome',
      expected: { kind: 'refused', reason: 'unavailable' },
    });
    // A replay (same payload) or key reuse (another one): either way the receipt answered first.
    const failure = r.counterexample?.failures[0];
    const actual = failure?.kind === 'outcome' ? failure.actual.kind : undefined;
    expect(['ok', 'keyReuse']).toContain(actual);
  });

  for (const m of racing) {
    it(`${m.name} is killed in ${m.mode} mode`, async () => {
      const r = await checkHandler({ handler: m.name, mode: m.mode });
      record(m.name, r);
      expect(r.verdict).toBe('failed');
    });
    it(`${m.name} survives sequential checking, so it needs ${m.mode} mode`, async () => {
      const r = await checkHandler({ handler: m.name, mode: 'sequential' });
      expect(r.verdict).toBe('passed');
    });
  }
});

describe('the steps the mutants are built from', () => {
  it('with nothing replaced, behave as the contract says over 300 sequences', async () => {
    const plugin = defineStepMutant({ name: 'reference-by-steps', description: '', steps: {} });
    const runner = judgedRunner(
      sequentialRunner(plugin, DEFAULT_FIXTURE),
      DEFAULT_FIXTURE,
      setIntervalSpec,
    );
    try {
      const sequences = sequenceArbitrary(DEFAULT_FIXTURE, {
        spec: setIntervalSpec,
        stepsMax: 20,
        races: true,
        recreate: true,
      });
      await fc.assert(
        fc.asyncProperty(sequences, async (steps) => {
          const { verdict } = await runner.execute(steps);
          expect(verdict).toEqual({ verdict: 'ok' });
        }),
        { numRuns: 300, seed: 42 },
      );
    } finally {
      await runner.close();
    }
  });
});
