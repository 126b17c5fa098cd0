/**
 * Drawn specs: every draw is plain JSON (it travels to the workers inside a plugin module) and
 * builds a valid spec (each field has values to send, the fixture's rows have every row field,
 * the result has exactly its result fields); and a hand-written draw of adjust-balance's shape
 * gives adjust-balance's precondition and effect.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { targetRows } from '../../model/operation.ts';
import { valueFields } from '../value-fields.ts';
import { customCheck } from './custom-check.ts';
import type { SpecDraw } from './spec-draw.ts';
import { specDrawArbitrary } from './spec-draw-arbitrary.ts';
import { specFromDraw } from './spec-from-draw.ts';

/** A stand-in for the zod bridge: any value passes (the bridge's own tests hold it to zod). */
const anyZod = (name: string) => ({
  name,
  rule: { kind: 'custom' as const, check: () => true, valid: [1] },
});

describe('drawn specs', () => {
  it('are plain JSON and build valid specs', () => {
    fc.assert(
      fc.property(specDrawArbitrary({ zod: true }), (draw) => {
        expect(JSON.parse(JSON.stringify(draw))).toEqual(draw);
        const spec = specFromDraw(draw, anyZod);
        const rows = targetRows(spec.fixture, spec);
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) for (const f of spec.rowFields) expect(row[f]).toBeDefined();
        expect(() => valueFields(spec, rows)).not.toThrow();
        for (const f of draw.fields)
          if (f.kind === 'custom') {
            const holds = customCheck(f.check);
            expect(f.valid.every(holds)).toBe(true);
            expect(f.invalid.some(holds)).toBe(false);
          }
        const row = rows[0] as (typeof rows)[number];
        const args = Object.fromEntries(
          draw.fields.map((f) => [f.name, f.kind === 'custom' ? (f.valid[0] as number) : 1]),
        );
        // A spec that writes two rows gets its second from the fixture, which has two in team-a.
        const others = (spec.otherTargets ?? []).map(() => rows[1] as (typeof rows)[number]);
        const effect = spec.effect(row, args, 99, others);
        expect(Object.keys(effect.result).sort()).toEqual([...spec.resultFields].sort());
        expect(effect.row.id).toBe(row.id);
        expect((effect.others ?? []).map((r) => r.id)).toEqual(others.map((r) => r.id));
        if (spec.created) expect(effect.created?.id).toBe(99);
      }),
      { numRuns: 300 },
    );
  });

  it('write two rows in one spec out of four or so, with two rows a caller may name', () => {
    const draws = fc.sample(specDrawArbitrary(), { numRuns: 200, seed: 7 });
    const two = draws.filter((d) => d.others !== undefined);
    expect(two.length).toBeGreaterThan(20);
    expect(two.length).toBeLessThan(100);
    for (const d of two) {
      const spec = specFromDraw(d);
      expect(spec.otherTargets).toEqual(['peerId']);
      expect(
        targetRows(spec.fixture, spec).filter((r) => r.workspace === 'team-a').length,
      ).toBeGreaterThanOrEqual(2);
    }
  });

  it('without zod fields, need no zod bridge', () => {
    fc.assert(
      fc.property(specDrawArbitrary(), (draw) => {
        expect(draw.fields.some((f) => f.kind === 'zod')).toBe(false);
        expect(() => specFromDraw(draw)).not.toThrow();
      }),
      { numRuns: 100 },
    );
  });

  it('a draw of adjust-balance’s shape gives its precondition and effect', () => {
    const draw: SpecDraw = {
      noun: 'account',
      table: 'accounts',
      fields: [
        { kind: 'id', name: 'accountId' },
        { kind: 'integer', name: 'delta', min: -1000, max: 1000, nonZero: true },
      ],
      targetField: 'accountId',
      rowFields: [
        { name: 'balance', init: 1000, effect: { kind: 'add', field: 'delta', sign: 1 } },
      ],
      checks: [{ kind: 'bound', row: 'balance', min: 0, max: 1e12, reason: 'insufficient' }],
      result: { targetId: 'accountId', rowFields: ['balance'], echo: [] },
      payload: [
        { key: 'account', field: 'accountId' },
        { key: 'delta', field: 'delta' },
      ],
      rows: [{ id: 1, workspace: 'team-a', values: { balance: 1000 } }],
    };
    const spec = specFromDraw(draw);
    const row = { id: 1, workspace: 'team-a', balance: 300 };
    expect(spec.precondition?.(row, { accountId: 1, delta: -301 }, [])).toBe('insufficient');
    expect(spec.precondition?.(row, { accountId: 1, delta: -300 }, [])).toBeUndefined();
    expect(spec.effect(row, { accountId: 1, delta: -300 }, 1, [])).toEqual({
      row: { id: 1, workspace: 'team-a', balance: 0 },
      result: { accountId: 1, balance: 0 },
    });
    expect(spec.refusals).toEqual(['insufficient']);
    expect(spec.payload({ accountId: 1, delta: 5 })).toEqual({ account: 1, delta: 5 });
    expect(spec.recreated(1, 'team-b')).toEqual({ id: 1, workspace: 'team-b', balance: 1000 });
  });
});
