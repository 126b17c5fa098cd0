/**
 * Test-only: the checks every operation's SQLite mutants get, as one vitest suite. Each
 * catalogued mutant's file (from the registry) default-exports it, with its catalogued bug as its
 * description; each sequential mutant is shown a history on which it leaves the
 * model where the reference does not (a porcupine-style bad/ok pair), and the random-history
 * property the reference passes must catch it too, so that property cannot pass vacuously; each
 * race mutant agrees
 * with the model on random serial histories, which is why its mode is scheduled.
 */
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../model/events.ts';
import { operationNamed } from '../../../model/operations/index.ts';
import type { HandlerPlugin } from '../../plugin.ts';
import { pluginOperation } from '../../plugin.ts';
import { bundledHandlerPath, catalogueOf } from '../../registry.ts';
import { type Divergence, firstDivergence } from './model-agreement.ts';
import { eventsArbitrary } from './random-events.ts';
import { PROPERTY_RUNS } from './reference-suite.ts';

/** A history that kills a sequential mutant, and where it must first leave the model. */
export interface Kill {
  readonly events: readonly Event[];
  readonly at: Pick<Divergence, 'step' | 'reason'>;
}

/**
 * Declares the suite for `operation`'s SQLite catalogue; `kills` must cover every sequential
 * mutant. The plugins are loaded from their registry files (top-level await in the test file).
 */
export async function describeMutants(
  operation: string,
  kills: Readonly<Record<string, Kill>>,
): Promise<void> {
  const catalogue = catalogueOf(operation);
  const load = async (name: string): Promise<HandlerPlugin> => {
    const path = bundledHandlerPath(name, operation);
    if (!path) throw new Error(`no handler ${name} in the ${operation} registry`);
    return ((await import(pathToFileURL(path).href)) as { default: HandlerPlugin }).default;
  };
  const reference = await load('reference');
  const handlers = new Map<string, HandlerPlugin>();
  for (const entry of catalogue) handlers.set(entry.name, await load(entry.name));
  const plugin = (name: string): HandlerPlugin => handlers.get(name) as HandlerPlugin;

  describe(`${operation} mutants`, () => {
    it('has at least eight, each named once', () => {
      expect(catalogue.length).toBeGreaterThanOrEqual(8);
      expect(new Set(catalogue.map((e) => e.name)).size).toBe(catalogue.length);
      expect(reference.name).toBe(`${operation}-reference`);
    });

    for (const entry of catalogue) {
      describe(entry.name, () => {
        it('carries its catalogued name, bug and operation', () => {
          const mutant = plugin(entry.name);
          expect(mutant).toMatchObject({
            name: entry.name,
            description: entry.bug,
            replayable: true,
          });
          expect(pluginOperation(mutant).name).toBe(operation);
        });

        if (entry.mode === 'sequential') {
          it('leaves the model on its killing history, where the reference does not', () => {
            const kill = kills[entry.name];
            expect(kill, `no killing history for ${entry.name}`).toBeDefined();
            if (!kill) return;
            expect(firstDivergence(reference, operation, kill.events)).toBeUndefined();
            expect(firstDivergence(plugin(entry.name), operation, kill.events)).toMatchObject(
              kill.at,
            );
          });

          it('is caught by the random-history property the reference passes', () => {
            const found = fc.check(
              fc.property(
                eventsArbitrary(operationNamed(operation)),
                (events) => firstDivergence(plugin(entry.name), operation, events) === undefined,
              ),
              { numRuns: PROPERTY_RUNS },
            );
            expect(found.failed).toBe(true);
          });
        } else {
          it('agrees with the model on serial histories (only a race kills it)', () => {
            fc.assert(
              fc.property(eventsArbitrary(operationNamed(operation)), (events) => {
                expect(firstDivergence(plugin(entry.name), operation, events)).toBeUndefined();
              }),
              { numRuns: 100 },
            );
          });
        }
      });
    }
  });
}
