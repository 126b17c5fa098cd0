/**
 * The guard's cases: a drawn spec (`generate/drawn-spec/`), on the engine asked for, with a rule
 * for the ids of created rows: `next` when the spec declares the rowid rule (which predicts it),
 * else any of the server rules, since opaque ids must hold whatever the server does.
 */
import fc from 'fast-check';
import { specDrawArbitrary } from '../../generate/drawn-spec/spec-draw-arbitrary.ts';
import type { Engine } from '../../handlers/engine.ts';
import type { DrawnCase } from '../../handlers/generic/drawn-plugin.ts';
import { SERVER_IDS, type ServerIds } from '../../handlers/generic/server-ids.ts';

/** Cases on `engine`; with `zod`, specs with zod-derived fields too. */
export function drawnCaseArbitrary(engine: Engine, zod: boolean): fc.Arbitrary<DrawnCase> {
  return specDrawArbitrary({ zod }).chain((draw) => {
    const ids: fc.Arbitrary<ServerIds> =
      draw.created && draw.created.ids !== 'rowid'
        ? fc.constantFrom(...SERVER_IDS)
        : fc.constant('next');
    return ids.map((rule) => ({ draw, engine, ids: rule }));
  });
}

/** `count` cases drawn from `seed`: the same on every machine. */
export function drawCases(count: number, seed: number, engine: Engine, zod: boolean): DrawnCase[] {
  if (count < 1) return [];
  return fc.sample(drawnCaseArbitrary(engine, zod), { seed, numRuns: count });
}
