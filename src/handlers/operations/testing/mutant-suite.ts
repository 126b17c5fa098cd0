/**
 * Test-only: the checks every operation's mutants get, as one vitest suite. The catalogue and
 * the registry name the same handlers, each with its catalogued bug as its description and a
 * file that default-exports it; each sequential mutant is shown a history on which it leaves the
 * model where the reference does not (a porcupine-style bad/ok pair), and the random-history
 * property the reference passes must catch it too, so that property cannot pass vacuously; each
 * race mutant agrees
 * with the model on random serial histories, which is why its mode is scheduled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../model/events.ts';
import { operationNamed } from '../../../model/operations/index.ts';
import type { MutantEntry } from '../../mutant-catalogue.ts';
import type { HandlerPlugin } from '../../plugin.ts';
import { pluginOperation } from '../../plugin.ts';
import type { OperationRegistry } from '../operation-registry.ts';
import { type Divergence, firstDivergence } from './model-agreement.ts';
import { eventsArbitrary } from './random-events.ts';
import { PROPERTY_RUNS } from './reference-suite.ts';

/** A history that kills a sequential mutant, and where it must first leave the model. */
export interface Kill {
  readonly events: readonly Event[];
  readonly at: Pick<Divergence, 'step' | 'reason'>;
}

/** Declares the suite for `operation`. `kills` must cover every sequential mutant. */
export function describeMutants(
  operation: string,
  catalogue: readonly MutantEntry[],
  registry: OperationRegistry,
  kills: Readonly<Record<string, Kill>>,
): void {
  const reference = [...registry.handlers.values()].find((h) => h.name.endsWith('-reference'));
  const plugin = (name: string): HandlerPlugin => {
    const found = registry.handlers.get(name);
    if (!found) throw new Error(`no handler ${name} in the ${operation} registry`);
    return found;
  };

  describe(`${operation} mutants`, () => {
    it('has at least eight, catalogued and registered alike', () => {
      expect(catalogue.length).toBeGreaterThanOrEqual(8);
      expect(new Set(catalogue.map((e) => e.name)).size).toBe(catalogue.length);
      expect([...registry.handlers.keys()].filter((n) => n !== reference?.name).sort()).toEqual(
        catalogue.map((e) => e.name).sort(),
      );
    });

    for (const entry of catalogue) {
      describe(entry.name, () => {
        it('carries its catalogued bug and operation, and its file exports it', async () => {
          const mutant = plugin(entry.name);
          expect(mutant).toMatchObject({ description: entry.bug, replayable: true });
          expect(pluginOperation(mutant).name).toBe(operation);
          const row = registry.bundled.find((b) => b.name === entry.name);
          const loaded = (await import(new URL(`../../${row?.file}`, import.meta.url).href)) as {
            default: HandlerPlugin;
          };
          expect(loaded.default).toBe(mutant);
        });

        if (entry.mode === 'sequential') {
          it('leaves the model on its killing history, where the reference does not', () => {
            const kill = kills[entry.name];
            expect(kill, `no killing history for ${entry.name}`).toBeDefined();
            if (!kill || !reference) return;
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
