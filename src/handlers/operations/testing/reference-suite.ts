/**
 * Test-only: the checks every operation's reference handler gets, as one vitest suite: scripted
 * histories (one per rule), a random-history property against the model (the mutant suites show
 * the same property catching every sequential mutant), and its plugin declarations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../model/events.ts';
import { operationNamed } from '../../../model/operations/index.ts';
import type { HandlerPlugin } from '../../plugin.ts';
import { firstDivergence } from './model-agreement.ts';
import { eventsArbitrary } from './random-events.ts';

/** Random histories the reference must agree with the model on. */
export const PROPERTY_RUNS = 300;

/** Declares the suite for `reference`, the handler of `operation`. */
export function describeReference(
  operation: string,
  reference: HandlerPlugin,
  histories: Readonly<Record<string, readonly Event[]>>,
): void {
  describe(`${operation} reference`, () => {
    for (const [name, events] of Object.entries(histories)) {
      it(name, () => {
        expect(firstDivergence(reference, operation, events)).toBeUndefined();
      });
    }

    it(`agrees with the model on ${PROPERTY_RUNS} random histories`, () => {
      fc.assert(
        fc.property(eventsArbitrary(operationNamed(operation)), (events) => {
          expect(firstDivergence(reference, operation, events)).toBeUndefined();
        }),
        { numRuns: PROPERTY_RUNS },
      );
    });

    it('declares its operation and is replayable', () => {
      expect(reference).toMatchObject({ operation, replayable: true });
    });
  });
}
