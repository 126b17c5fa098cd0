/**
 * The summary's lines on the operation's rules: edges met on each side, answers, refusals,
 * conflicting groups and the split of runs by mode, counted from generated sequences.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import { formatOperationCoverage, formatSplit } from './format-operation-coverage.ts';
import { countOperationCoverage, emptyOperationCoverage } from './operation-coverage.ts';

const counted = (spec: typeof adjustBalance) => {
  const fixture = { ...spec.fixture, operation: spec.name };
  const coverage = emptyOperationCoverage(spec);
  const arbitrary = sequenceArbitrary(fixture, { spec, stepsMax: 20, races: true, recreate: true });
  for (const steps of fc.sample(arbitrary, { seed: 1, numRuns: 100 }))
    countOperationCoverage(steps, fixture, spec, coverage);
  return coverage;
};

describe('operation coverage', () => {
  it('counts calls at the overdraft edge on both sides, refusals and conflicting groups', () => {
    const c = counted(adjustBalance);
    expect(c.edges.delta?.held).toBeGreaterThan(5);
    expect(c.edges.delta?.refused).toBeGreaterThan(5);
    expect(c.refusals.insufficient).toBeGreaterThan(0);
    expect(c.outcomes.fresh).toBeGreaterThan(0);
    expect(c.groups.conflicting).toBeGreaterThan(0);
    const lines = formatOperationCoverage(c).join('\n');
    expect(lines).toMatch(/edges {5}delta \d+ held · \d+ refused/);
    expect(lines).toMatch(/refusals .*insufficient \d+/);
    expect(lines).toMatch(/groups {4}\d+ concurrent, \d+ conflicting \(\d+%\)/);
  });

  it('says an operation without a precondition has no edge to seek', () => {
    const lines = formatOperationCoverage(counted(createOnce));
    expect(lines[0]).toBe('  edges     none to seek: create-once has no precondition');
  });

  it('names apart a field whose edge no call met, rather than counting it 0 and 0', () => {
    // set_interval's precondition turns on the expected version, never on the interval.
    const c = counted(setInterval);
    expect(c.edges.intervalMinutes).toEqual({ held: 0, refused: 0 });
    expect(formatOperationCoverage(c)[0]).toMatch(
      /^ {2}edges {5}expectedVersion \d+ held · \d+ refused \(calls next to the precondition's edge, each side\); no edge met on intervalMinutes \(the precondition did not turn on it in this run\)$/,
    );
    const none = { ...c, edges: { intervalMinutes: { held: 0, refused: 0 } } };
    expect(formatOperationCoverage(none)[0]).toBe(
      "  edges     no call next to the precondition's edge on intervalMinutes in this run",
    );
  });

  it('prints each mode’s runs of its share', () => {
    const split = [
      { mode: 'sequential', runs: 100, runsPlanned: 100 },
      { mode: 'scheduled', runs: 7, runsPlanned: 200 },
    ];
    expect(formatSplit(split)).toBe('  split     sequential 100 · scheduled 7 of 200 runs');
  });
});
