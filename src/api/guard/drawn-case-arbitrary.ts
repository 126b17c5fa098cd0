/**
 * The guard's cases: a drawn spec (`generate/drawn-spec/`), on the engine asked for, with a rule
 * for the ids of created rows: `next` when the spec declares the rowid rule (which predicts it),
 * else any of the server rules, since opaque ids must hold whatever the server does. On SQLite a
 * case also declares a policy the generic handler honours (`handlers/generic/generic-policy.ts`):
 * the contract's, a receipt lifetime (the run then moves the harness's clock on and receipts
 * lapse), or stored refusals (a retry after a refusal gets the refusal back); false verdicts that
 * show only under a policy are then the guard's to find.
 */
import fc from 'fast-check';
import { specDrawArbitrary } from '../../generate/drawn-spec/spec-draw-arbitrary.ts';
import type { Engine } from '../../handlers/engine.ts';
import type { DrawnCase } from '../../handlers/generic/drawn-plugin.ts';
import type { GenericPolicy } from '../../handlers/generic/generic-policy.ts';
import { SERVER_IDS, type ServerIds } from '../../handlers/generic/server-ids.ts';

/** A declared policy the generic handler on `engine` honours (PostgreSQL: the contract only). */
export function genericPolicyArbitrary(engine: Engine): fc.Arbitrary<GenericPolicy | undefined> {
  if (engine === 'postgres') return fc.constant(undefined);
  return fc.oneof(
    fc.constant(undefined),
    // From 1 ms to a day: the generated clock moves are scaled to the lifetime.
    fc.integer({ min: 1, max: 86_400_000 }).map((ms) => ({ receiptExpiry: ms })),
    fc.constant({ storesRefusals: true }),
  );
}

/** Cases on `engine`; with `zod`, specs with zod-derived fields too. */
export function drawnCaseArbitrary(engine: Engine, zod: boolean): fc.Arbitrary<DrawnCase> {
  return specDrawArbitrary({ zod }).chain((draw) => {
    const ids: fc.Arbitrary<ServerIds> =
      draw.created && draw.created.ids !== 'rowid'
        ? fc.constantFrom(...SERVER_IDS)
        : fc.constant('next');
    return fc.tuple(ids, genericPolicyArbitrary(engine)).map(([rule, policy]) => ({
      draw,
      engine,
      ids: rule,
      ...(policy ? { policy } : {}),
    }));
  });
}

/** `count` cases drawn from `seed`: the same on every machine. */
export function drawCases(count: number, seed: number, engine: Engine, zod: boolean): DrawnCase[] {
  if (count < 1) return [];
  return fc.sample(drawnCaseArbitrary(engine, zod), { seed, numRuns: count });
}
